CREATE TABLE "aibot_flow_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"flow_id" integer NOT NULL,
	"version" integer NOT NULL,
	"graph" jsonb NOT NULL,
	"publisher_id" integer NOT NULL,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "aibot_flows" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"graph" jsonb NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"creator_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "aibot_settings" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"llm_enabled" boolean DEFAULT false NOT NULL,
	"llm_url" text DEFAULT '' NOT NULL,
	"llm_model" text DEFAULT '' NOT NULL,
	"llm_key" text DEFAULT '' NOT NULL,
	"llm_timeout_ms" integer DEFAULT 1500 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "aibot_flow_versions_uq" ON "aibot_flow_versions" USING btree ("tenant_id","flow_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "aibot_flows_name_uq" ON "aibot_flows" USING btree ("tenant_id","name") WHERE "aibot_flows"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "aibot_flows_tenant_idx" ON "aibot_flows" USING btree ("tenant_id","id") WHERE "aibot_flows"."deleted_at" is null;