CREATE TABLE "call_legs" (
	"id" text PRIMARY KEY NOT NULL,
	"call_uuid" text NOT NULL,
	"tenant_id" integer NOT NULL,
	"role" text NOT NULL,
	"target_kind" text NOT NULL,
	"target" text NOT NULL,
	"staff_id" integer,
	"state" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"ring_at" timestamp with time zone,
	"answer_at" timestamp with time zone,
	"end_at" timestamp with time zone,
	"hangup_side" smallint DEFAULT 0 NOT NULL,
	"hangup_cause" text DEFAULT '' NOT NULL,
	"digits" text DEFAULT '' NOT NULL,
	"record_file_id" integer,
	"record_file" text DEFAULT '' NOT NULL,
	"owner_instance" text NOT NULL,
	"bridged_with" text,
	"line_handle" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "call_settings" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"caller_number" text DEFAULT '' NOT NULL,
	"call_hours_from" text DEFAULT '08:00' NOT NULL,
	"call_hours_to" text DEFAULT '21:00' NOT NULL,
	"bridge_mode" text DEFAULT '3pcc' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "call_tests" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"staff_id" integer NOT NULL,
	"call_uuid" text DEFAULT '' NOT NULL,
	"leg_id" text DEFAULT '' NOT NULL,
	"prompt" text DEFAULT '' NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"play_start_at" timestamp with time zone,
	"play_end_at" timestamp with time zone,
	"play_result" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call_records" ALTER COLUMN "staff_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "origin" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "call_legs" ADD CONSTRAINT "call_legs_call_uuid_call_records_uuid_fk" FOREIGN KEY ("call_uuid") REFERENCES "public"."call_records"("uuid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "call_legs_call_idx" ON "call_legs" USING btree ("call_uuid");--> statement-breakpoint
CREATE INDEX "call_legs_owner_active_idx" ON "call_legs" USING btree ("owner_instance") WHERE "call_legs"."state" < 3;