CREATE TABLE "group_call_calls" (
	"call_uuid" text PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"task_id" integer NOT NULL,
	"answered_at" timestamp with time zone NOT NULL,
	"staff_id" integer,
	"connected_at" timestamp with time zone,
	"abandoned_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "call_tasks" ADD COLUMN "mode" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "call_tasks" ADD COLUMN "max_lines" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "call_tasks" ADD COLUMN "abandon_target" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
CREATE INDEX "group_call_calls_task_idx" ON "group_call_calls" USING btree ("task_id","answered_at");