ALTER TABLE "call_tasks" ADD COLUMN "flow_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "call_tasks" ADD COLUMN "assign_grades" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "call_tasks" ADD COLUMN "assign_rule" text DEFAULT 'creator' NOT NULL;--> statement-breakpoint
ALTER TABLE "call_tasks" ADD COLUMN "assign_cursor" integer DEFAULT 0 NOT NULL;