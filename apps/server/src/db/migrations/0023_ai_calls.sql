CREATE TABLE "ai_calls" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"source" smallint NOT NULL,
	"task_id" integer DEFAULT 0 NOT NULL,
	"number_id" integer DEFAULT 0 NOT NULL,
	"reception_id" integer DEFAULT 0 NOT NULL,
	"customer_id" integer,
	"call_uuid" text NOT NULL,
	"flow_id" integer NOT NULL,
	"flow_version" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"duration" integer DEFAULT 0 NOT NULL,
	"grade" text NOT NULL,
	"score" integer DEFAULT 0 NOT NULL,
	"rounds" integer DEFAULT 0 NOT NULL,
	"end" text NOT NULL,
	"counters" jsonb NOT NULL,
	"turns" jsonb NOT NULL,
	"transfer_staff_id" integer,
	"clip_file" text DEFAULT '' NOT NULL,
	"staff_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "aireception_settings" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"number" text NOT NULL,
	"flow_id" integer NOT NULL,
	"from_time" text NOT NULL,
	"to_time" text NOT NULL,
	"agent_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"is_enabled" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ai_calls_list_idx" ON "ai_calls" USING btree ("tenant_id","source","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ai_calls_task_idx" ON "ai_calls" USING btree ("tenant_id","task_id","grade");--> statement-breakpoint
CREATE UNIQUE INDEX "ai_calls_call_uq" ON "ai_calls" USING btree ("call_uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "aireception_number_uq" ON "aireception_settings" USING btree ("number");--> statement-breakpoint
CREATE INDEX "aireception_tenant_idx" ON "aireception_settings" USING btree ("tenant_id","id");