CREATE TABLE "app_instances" (
	"instance_id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "call_presence" (
	"conn_id" text PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"instance_id" text NOT NULL,
	"logged_in_at" timestamp with time zone NOT NULL,
	"seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "call_records" ADD COLUMN "owner_instance" text;--> statement-breakpoint
ALTER TABLE "call_task_agents" ADD COLUMN "work_conn_id" text;--> statement-breakpoint
CREATE INDEX "call_presence_staff_idx" ON "call_presence" USING btree ("staff_id");--> statement-breakpoint
CREATE INDEX "call_presence_instance_idx" ON "call_presence" USING btree ("instance_id");--> statement-breakpoint
CREATE INDEX "call_records_owner_active_idx" ON "call_records" USING btree ("owner_instance") WHERE "call_records"."state" < 3;