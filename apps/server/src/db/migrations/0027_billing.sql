CREATE TABLE "billing_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"threshold" bigint NOT NULL,
	"balance" bigint NOT NULL,
	"ledger_id" bigint NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_balances" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"balance" bigint DEFAULT 0 NOT NULL,
	"reserved" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_call_usage" (
	"call_uuid" text PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"kind" text NOT NULL,
	"staff_id" integer,
	"department_id" integer,
	"task_id" integer DEFAULT 0 NOT NULL,
	"customer_id" integer,
	"call_type" smallint NOT NULL,
	"caller" text DEFAULT '' NOT NULL,
	"callee" text DEFAULT '' NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"answer_at" timestamp with time zone,
	"end_at" timestamp with time zone NOT NULL,
	"duration" integer DEFAULT 0 NOT NULL,
	"billed_seconds" integer DEFAULT 0 NOT NULL,
	"first_block" integer DEFAULT 0 NOT NULL,
	"increment" integer DEFAULT 0 NOT NULL,
	"rate" bigint DEFAULT 0 NOT NULL,
	"connect_fee" bigint DEFAULT 0 NOT NULL,
	"cost" bigint DEFAULT 0 NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"plan_id" integer,
	"ledger_id" bigint,
	"rated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"type" text NOT NULL,
	"charge_kind" text DEFAULT '' NOT NULL,
	"amount" bigint NOT NULL,
	"balance_after" bigint NOT NULL,
	"source_kind" text NOT NULL,
	"source_id" text NOT NULL,
	"idem_key" text NOT NULL,
	"staff_id" integer,
	"operator" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_plan_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"effective_from" timestamp with time zone NOT NULL,
	"effective_to" timestamp with time zone,
	"operator" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_rate_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"rates" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_recharges" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"channel" text NOT NULL,
	"amount" bigint NOT NULL,
	"bonus" bigint DEFAULT 0 NOT NULL,
	"operator" text NOT NULL,
	"ref" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"ledger_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_rerates" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"from_at" timestamp with time zone NOT NULL,
	"to_at" timestamp with time zone NOT NULL,
	"operator" text NOT NULL,
	"reason" text NOT NULL,
	"calls" integer NOT NULL,
	"adjusted" integer NOT NULL,
	"delta" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_reservations" (
	"call_uuid" text PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"amount" bigint NOT NULL,
	"kind" text NOT NULL,
	"plan_id" integer NOT NULL,
	"max_seconds" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_settings" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"thresholds" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "billing_alerts_tenant_idx" ON "billing_alerts" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "billing_call_usage_pending_idx" ON "billing_call_usage" USING btree ("created_at") WHERE "billing_call_usage"."status" = 0;--> statement-breakpoint
CREATE INDEX "billing_call_usage_tenant_end_idx" ON "billing_call_usage" USING btree ("tenant_id","end_at");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_ledger_idem_uq" ON "billing_ledger" USING btree ("tenant_id","idem_key");--> statement-breakpoint
CREATE INDEX "billing_ledger_tenant_at_idx" ON "billing_ledger" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "billing_ledger_staff_at_idx" ON "billing_ledger" USING btree ("tenant_id","staff_id","created_at");--> statement-breakpoint
CREATE INDEX "billing_plan_assignments_tenant_idx" ON "billing_plan_assignments" USING btree ("tenant_id","effective_from");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_rate_plans_name_uq" ON "billing_rate_plans" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_recharges_ref_uq" ON "billing_recharges" USING btree ("tenant_id","ref");--> statement-breakpoint
CREATE INDEX "billing_recharges_tenant_idx" ON "billing_recharges" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "billing_rerates_tenant_idx" ON "billing_rerates" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "billing_reservations_tenant_idx" ON "billing_reservations" USING btree ("tenant_id");