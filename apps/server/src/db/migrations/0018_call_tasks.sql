CREATE TABLE "call_task_agents" (
	"task_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"tenant_id" integer NOT NULL,
	"is_working" boolean DEFAULT false NOT NULL,
	"last_call_end_at" timestamp with time zone,
	"next_dial_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "call_task_numbers" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"customer_id" integer,
	"phone" text NOT NULL,
	"state" smallint DEFAULT 0 NOT NULL,
	"attempts" smallint DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone,
	"last_code" text DEFAULT '' NOT NULL,
	"outcome" smallint DEFAULT 0 NOT NULL,
	"is_blacklisted" boolean DEFAULT false NOT NULL,
	"staff_id" integer,
	"last_call_uuid" text,
	"seq" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "call_tasks" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"black_state" smallint DEFAULT 1 NOT NULL,
	"customer_info_state" smallint DEFAULT 0 NOT NULL,
	"customer_where" text DEFAULT '' NOT NULL,
	"weeks" jsonb NOT NULL,
	"times" jsonb NOT NULL,
	"redial_minutes" integer NOT NULL,
	"max_attempts" smallint NOT NULL,
	"wrap_up_seconds" integer NOT NULL,
	"fail_pool_id" integer DEFAULT 0 NOT NULL,
	"fail_reason_id" integer DEFAULT 0 NOT NULL,
	"creator_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "call_task_agents_pk" ON "call_task_agents" USING btree ("task_id","staff_id");--> statement-breakpoint
CREATE INDEX "call_task_agents_staff_idx" ON "call_task_agents" USING btree ("tenant_id","staff_id");--> statement-breakpoint
CREATE INDEX "call_task_agents_working_idx" ON "call_task_agents" USING btree ("next_dial_at") WHERE "call_task_agents"."is_working";--> statement-breakpoint
CREATE INDEX "call_task_numbers_next_idx" ON "call_task_numbers" USING btree ("task_id","next_at" NULLS FIRST,"seq") WHERE "call_task_numbers"."state" = 0;--> statement-breakpoint
CREATE INDEX "call_task_numbers_task_idx" ON "call_task_numbers" USING btree ("task_id","state","id");--> statement-breakpoint
CREATE INDEX "call_task_numbers_dialling_idx" ON "call_task_numbers" USING btree ("last_call_uuid") WHERE "call_task_numbers"."state" = 1;--> statement-breakpoint
CREATE UNIQUE INDEX "call_task_numbers_phone_uq" ON "call_task_numbers" USING btree ("task_id","phone");--> statement-breakpoint
CREATE INDEX "call_tasks_tenant_idx" ON "call_tasks" USING btree ("tenant_id","created_at" DESC NULLS LAST) WHERE "call_tasks"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "call_tasks_running_idx" ON "call_tasks" USING btree ("status") WHERE "call_tasks"."status" = 1 and "call_tasks"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "call_records_task_idx" ON "call_records" USING btree ("tenant_id","task_id") WHERE "call_records"."task_id" > 0;