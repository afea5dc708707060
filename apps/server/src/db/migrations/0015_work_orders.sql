CREATE TABLE "work_order_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"work_order_id" integer NOT NULL,
	"kind" text NOT NULL,
	"staff_id" integer NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"from_id" integer,
	"to_id" integer,
	"from_name" text DEFAULT '' NOT NULL,
	"to_name" text DEFAULT '' NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "work_order_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"work_order_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"upload_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "work_order_stages" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"type_id" integer NOT NULL,
	"name" text NOT NULL,
	"sort" integer NOT NULL,
	"rollback" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "work_order_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"default_handler_id" integer NOT NULL,
	"sla_hours" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "work_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"order_id" integer,
	"type_id" integer NOT NULL,
	"stage_id" integer NOT NULL,
	"name" text NOT NULL,
	"priority" smallint DEFAULT 2 NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"handler_id" integer NOT NULL,
	"creator_id" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_time" timestamp with time zone NOT NULL,
	"overdue_reminded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "work_order_events_order_idx" ON "work_order_events" USING btree ("work_order_id","id");--> statement-breakpoint
CREATE INDEX "work_order_files_event_idx" ON "work_order_files" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "work_order_files_upload_idx" ON "work_order_files" USING btree ("upload_id");--> statement-breakpoint
CREATE INDEX "work_order_stages_type_idx" ON "work_order_stages" USING btree ("type_id","sort");--> statement-breakpoint
CREATE UNIQUE INDEX "work_order_types_name_uq" ON "work_order_types" USING btree ("tenant_id","name") WHERE "work_order_types"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "work_orders_handler_idx" ON "work_orders" USING btree ("tenant_id","handler_id","status","due_at");--> statement-breakpoint
CREATE INDEX "work_orders_customer_idx" ON "work_orders" USING btree ("tenant_id","customer_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "work_orders_creator_idx" ON "work_orders" USING btree ("tenant_id","creator_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "work_orders_tenant_created_idx" ON "work_orders" USING btree ("tenant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "work_orders_overdue_idx" ON "work_orders" USING btree ("due_at") WHERE "work_orders"."status" = 0 and "work_orders"."overdue_reminded_at" is null;