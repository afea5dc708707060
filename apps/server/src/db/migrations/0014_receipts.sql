CREATE TABLE "receipt_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"owner_id" integer NOT NULL,
	"creator_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"plan_at" date NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"reminded_on" date,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipt_settings" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"remind_days" integer DEFAULT 3 NOT NULL,
	"approval_template_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"owner_id" integer NOT NULL,
	"creator_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"repayment_at" date NOT NULL,
	"pay_type" smallint NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"verify_status" smallint DEFAULT -1 NOT NULL,
	"instance_id" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "receipt_plans_order_idx" ON "receipt_plans" USING btree ("order_id","plan_at");--> statement-breakpoint
CREATE INDEX "receipt_plans_customer_idx" ON "receipt_plans" USING btree ("tenant_id","customer_id","plan_at");--> statement-breakpoint
CREATE INDEX "receipt_plans_due_idx" ON "receipt_plans" USING btree ("tenant_id","plan_at","owner_id");--> statement-breakpoint
CREATE INDEX "receipts_plan_idx" ON "receipts" USING btree ("plan_id","verify_status");--> statement-breakpoint
CREATE INDEX "receipts_order_idx" ON "receipts" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "receipts_tenant_created_idx" ON "receipts" USING btree ("tenant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "receipts_owner_idx" ON "receipts" USING btree ("tenant_id","owner_id","repayment_at");