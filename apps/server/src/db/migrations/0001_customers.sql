CREATE TABLE "customer_phones" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"control_id" integer NOT NULL,
	"phone" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customer_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"is_must_name" smallint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"vals" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"contact_name" text DEFAULT '' NOT NULL,
	"contact_phone" text DEFAULT '' NOT NULL,
	"owner_id" integer,
	"owner_department_id" integer,
	"creator_id" integer NOT NULL,
	"creator_department_id" integer,
	"pool_id" integer,
	"stage_id" integer,
	"label_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"follow_at" timestamp with time zone,
	"follower_id" integer,
	"next_follow_at" timestamp with time zone,
	"allot_at" timestamp with time zone,
	"last_contact_at" timestamp with time zone,
	"last_contact_status" smallint DEFAULT 0 NOT NULL,
	"contact_num" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "template_controls" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"pid" integer DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"dm_type" smallint NOT NULL,
	"dm_desc" text DEFAULT '' NOT NULL,
	"options" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tree" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"static_text" text DEFAULT '' NOT NULL,
	"dm_must" smallint DEFAULT 0 NOT NULL,
	"is_judge" smallint DEFAULT 0 NOT NULL,
	"is_follow_show" smallint DEFAULT 0 NOT NULL,
	"is_search" smallint DEFAULT 0 NOT NULL,
	"sort_num" integer DEFAULT 0 NOT NULL,
	"action_state" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "labels" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"pid" integer DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"sort_num" integer DEFAULT 0 NOT NULL,
	"action_state" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stages" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"sort_num" integer DEFAULT 0 NOT NULL,
	"action_state" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "strategies" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"recycle_remind" integer DEFAULT 3 NOT NULL,
	"max_customer" integer DEFAULT 0 NOT NULL,
	"must_customer_name" smallint DEFAULT 0 NOT NULL,
	"repeat_customer_name" smallint DEFAULT 0 NOT NULL,
	"sea_phone_encryp" smallint DEFAULT 1 NOT NULL,
	"phone_encryp" smallint DEFAULT 0 NOT NULL,
	"decrypt_phone_num" integer DEFAULT 20 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_phones" ADD CONSTRAINT "customer_phones_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_templates" ADD CONSTRAINT "customer_templates_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_controls" ADD CONSTRAINT "template_controls_template_id_customer_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."customer_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_phones_lookup_idx" ON "customer_phones" USING btree ("tenant_id","phone");--> statement-breakpoint
CREATE INDEX "customer_phones_customer_idx" ON "customer_phones" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_templates_tenant_uq" ON "customer_templates" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "customers_owner_created_idx" ON "customers" USING btree ("tenant_id","owner_id","created_at" DESC NULLS LAST) WHERE "customers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "customers_tenant_created_idx" ON "customers" USING btree ("tenant_id","created_at" DESC NULLS LAST) WHERE "customers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "customers_owner_next_idx" ON "customers" USING btree ("tenant_id","owner_id","next_follow_at") WHERE "customers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "customers_vals_gin" ON "customers" USING gin ("vals" jsonb_path_ops);--> statement-breakpoint
CREATE INDEX "customers_labels_gin" ON "customers" USING gin ("label_ids");--> statement-breakpoint
CREATE INDEX "template_controls_tpl_idx" ON "template_controls" USING btree ("template_id","sort_num");--> statement-breakpoint
CREATE INDEX "labels_tenant_idx" ON "labels" USING btree ("tenant_id","pid","sort_num");--> statement-breakpoint
CREATE INDEX "stages_tenant_idx" ON "stages" USING btree ("tenant_id","sort_num");