CREATE TABLE "lead_batch_rows" (
	"job_id" text NOT NULL,
	"tenant_id" integer NOT NULL,
	"row" integer NOT NULL,
	"input" text NOT NULL,
	"match" varchar(5) NOT NULL,
	"score" smallint NOT NULL,
	"company_id" integer,
	CONSTRAINT "lead_batch_rows_job_id_row_pk" PRIMARY KEY("job_id","row")
);
--> statement-breakpoint
CREATE TABLE "lead_companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer,
	"list_id" integer,
	"credit_code" varchar(18),
	"name" text NOT NULL,
	"name_norm" text NOT NULL,
	"name_grams" text[] GENERATED ALWAYS AS (crm_bigrams(name_norm)) STORED,
	"legal_rep" text DEFAULT '' NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"province_code" integer,
	"city_code" integer,
	"district_code" integer,
	"industry_section" varchar(1) DEFAULT '' NOT NULL,
	"industry_code" varchar(2) DEFAULT '' NOT NULL,
	"capital_wan" integer DEFAULT 0 NOT NULL,
	"founded_on" date,
	"address" text DEFAULT '' NOT NULL,
	"scope" text DEFAULT '' NOT NULL,
	"phones" text[] DEFAULT '{}'::text[] NOT NULL,
	"has_phone" boolean DEFAULT false NOT NULL,
	"has_mobile" boolean DEFAULT false NOT NULL,
	"lat" double precision,
	"lng" double precision,
	"geo_cell" integer,
	"provider_key" text DEFAULT '' NOT NULL,
	"source" varchar(12) NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail_fetched_at" timestamp with time zone,
	"raw" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_conversions" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"staff_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_lookups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"kind" varchar(8) NOT NULL,
	"query" text NOT NULL,
	"is_ok" boolean NOT NULL,
	"cost_fen" integer DEFAULT 0 NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_search_cache" (
	"query_norm" text PRIMARY KEY NOT NULL,
	"company_ids" integer[] NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_settings" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"provider_key" text DEFAULT '' NOT NULL,
	"provider_secret" text DEFAULT '' NOT NULL,
	"daily_quota" integer DEFAULT 10 NOT NULL,
	"mapping" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer,
	"name" text NOT NULL,
	"filters" jsonb NOT NULL,
	"staff_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "lead_batch_rows_match_idx" ON "lead_batch_rows" USING btree ("job_id","match","row");--> statement-breakpoint
CREATE UNIQUE INDEX "lead_companies_credit_uq" ON "lead_companies" USING btree ("credit_code") WHERE "lead_companies"."tenant_id" is null;--> statement-breakpoint
CREATE INDEX "lead_companies_own_idx" ON "lead_companies" USING btree ("tenant_id","list_id") WHERE "lead_companies"."tenant_id" is not null;--> statement-breakpoint
CREATE INDEX "lead_companies_name_grams_gin" ON "lead_companies" USING gin ("name_grams");--> statement-breakpoint
CREATE INDEX "lead_companies_name_norm_idx" ON "lead_companies" USING btree ("name_norm");--> statement-breakpoint
CREATE INDEX "lead_companies_province_idx" ON "lead_companies" USING btree ("province_code","industry_code","founded_on");--> statement-breakpoint
CREATE INDEX "lead_companies_city_idx" ON "lead_companies" USING btree ("city_code","founded_on");--> statement-breakpoint
CREATE INDEX "lead_companies_district_idx" ON "lead_companies" USING btree ("district_code");--> statement-breakpoint
CREATE INDEX "lead_companies_founded_idx" ON "lead_companies" USING btree ("founded_on");--> statement-breakpoint
CREATE INDEX "lead_companies_capital_idx" ON "lead_companies" USING btree ("capital_wan");--> statement-breakpoint
CREATE INDEX "lead_companies_cell_idx" ON "lead_companies" USING btree ("geo_cell");--> statement-breakpoint
CREATE INDEX "lead_conversions_quota_idx" ON "lead_conversions" USING btree ("tenant_id","staff_id","day");--> statement-breakpoint
CREATE INDEX "lead_conversions_company_idx" ON "lead_conversions" USING btree ("tenant_id","company_id");--> statement-breakpoint
CREATE INDEX "lead_lists_tenant_idx" ON "lead_lists" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "lead_lookups_tenant_idx" ON "lead_lookups" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lead_templates_starter_uq" ON "lead_templates" USING btree ("name") WHERE "lead_templates"."tenant_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "lead_templates_tenant_name_uq" ON "lead_templates" USING btree ("tenant_id","name") WHERE "lead_templates"."tenant_id" is not null;