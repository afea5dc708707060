CREATE TABLE "customer_deals" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"last_deal_at" timestamp with time zone,
	"pending_orders" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "discard_reasons" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"sort_num" integer DEFAULT 0 NOT NULL,
	"action_state" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pool_claim_counts" (
	"tenant_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"pool_id" integer NOT NULL,
	"day" text NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "pool_claim_counts_tenant_id_staff_id_pool_id_day_pk" PRIMARY KEY("tenant_id","staff_id","pool_id","day")
);
--> statement-breakpoint
CREATE TABLE "pool_entries" (
	"customer_id" integer PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"pool_id" integer NOT NULL,
	"reason_id" integer DEFAULT 0 NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"discarded_by" integer,
	"last_owner_id" integer,
	"pooled_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pools" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"dm_type" smallint DEFAULT 1 NOT NULL,
	"use_department_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"rules" jsonb NOT NULL,
	"sort_num" integer DEFAULT 0 NOT NULL,
	"action_state" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "discard_reasons_tenant_idx" ON "discard_reasons" USING btree ("tenant_id","sort_num");--> statement-breakpoint
CREATE INDEX "pool_entries_pool_idx" ON "pool_entries" USING btree ("tenant_id","pool_id","pooled_at");--> statement-breakpoint
CREATE INDEX "pool_entries_reason_idx" ON "pool_entries" USING btree ("tenant_id","reason_id");--> statement-breakpoint
CREATE INDEX "pools_tenant_idx" ON "pools" USING btree ("tenant_id","sort_num");