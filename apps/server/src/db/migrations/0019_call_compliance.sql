CREATE TABLE "dial_refusals" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"origin" smallint DEFAULT 0 NOT NULL,
	"staff_id" integer,
	"task_id" integer DEFAULT 0 NOT NULL,
	"customer_id" integer,
	"phone" text DEFAULT '' NOT NULL,
	"code" integer NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "do_not_call" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"phone" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"source" smallint DEFAULT 1 NOT NULL,
	"staff_id" integer,
	"customer_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "call_settings" ADD COLUMN "manual_obeys_hours" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "call_settings" ADD COLUMN "cap_per_5min" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "call_settings" ADD COLUMN "cap_per_day" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "call_settings" ADD COLUMN "dnc_retention_months" integer DEFAULT 6 NOT NULL;--> statement-breakpoint
CREATE INDEX "dial_refusals_tenant_created_idx" ON "dial_refusals" USING btree ("tenant_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "dial_refusals_staff_created_idx" ON "dial_refusals" USING btree ("tenant_id","staff_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "do_not_call_phone_uq" ON "do_not_call" USING btree ("tenant_id","phone");--> statement-breakpoint
CREATE INDEX "do_not_call_tenant_created_idx" ON "do_not_call" USING btree ("tenant_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "call_records_number_start_idx" ON "call_records" USING btree ("tenant_id","called_number","start_at");