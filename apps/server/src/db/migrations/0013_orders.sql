CREATE TABLE "approval_actions" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"instance_id" integer NOT NULL,
	"node_index" integer DEFAULT -1 NOT NULL,
	"staff_id" integer NOT NULL,
	"action" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approval_instances" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"doc_type" text NOT NULL,
	"doc_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"submitter_id" integer NOT NULL,
	"current_node" integer DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"vals" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "approval_steps" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"instance_id" integer NOT NULL,
	"node_index" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"free_add" smallint DEFAULT 0 NOT NULL,
	"state" smallint DEFAULT 4 NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"acted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "approval_template_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"version" integer NOT NULL,
	"controls" jsonb NOT NULL,
	"nodes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "approval_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"is_order" smallint DEFAULT 1 NOT NULL,
	"action_state" smallint DEFAULT 0 NOT NULL,
	"current_version_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "order_cooperators" (
	"tenant_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	CONSTRAINT "order_cooperators_order_id_staff_id_pk" PRIMARY KEY("order_id","staff_id")
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"variant_id" integer,
	"product_name" text NOT NULL,
	"spec_name" text DEFAULT '' NOT NULL,
	"deal_price" integer NOT NULL,
	"cost" integer DEFAULT 0 NOT NULL,
	"minimum_price" integer DEFAULT 0 NOT NULL,
	"qty" integer NOT NULL,
	"total" integer NOT NULL,
	"is_below_min" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"owner_id" integer NOT NULL,
	"creator_id" integer NOT NULL,
	"contact_phone" text DEFAULT '' NOT NULL,
	"attr" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"amount" integer DEFAULT 0 NOT NULL,
	"is_below_min" smallint DEFAULT 0 NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"image_ids" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"product_names" text DEFAULT '' NOT NULL,
	"product_grams" text[] GENERATED ALWAYS AS (crm_bigrams(product_names)) STORED,
	"verify_status" smallint DEFAULT -1 NOT NULL,
	"instance_id" integer,
	"deal_at" timestamp with time zone,
	"start_at" timestamp with time zone,
	"end_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"pid" integer DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"sort_num" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_spec_values" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"spec_id" integer NOT NULL,
	"name" text NOT NULL,
	"sort_num" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_specs" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"name" text NOT NULL,
	"sort_num" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_variants" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"value_ids" integer[] NOT NULL,
	"price" integer DEFAULT 0 NOT NULL,
	"cost" integer DEFAULT 0 NOT NULL,
	"minimum_price" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"category_id" integer DEFAULT 0 NOT NULL,
	"name" text NOT NULL,
	"code" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"price" integer DEFAULT 0 NOT NULL,
	"cost" integer DEFAULT 0 NOT NULL,
	"minimum_price" integer DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "approval_actions_instance_idx" ON "approval_actions" USING btree ("instance_id","id");--> statement-breakpoint
CREATE INDEX "approval_instances_doc_idx" ON "approval_instances" USING btree ("tenant_id","doc_type","doc_id");--> statement-breakpoint
CREATE INDEX "approval_instances_submitter_idx" ON "approval_instances" USING btree ("tenant_id","submitter_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "approval_steps_instance_idx" ON "approval_steps" USING btree ("instance_id","node_index");--> statement-breakpoint
CREATE INDEX "approval_steps_staff_idx" ON "approval_steps" USING btree ("tenant_id","staff_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_template_versions_uq" ON "approval_template_versions" USING btree ("template_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "approval_templates_name_uq" ON "approval_templates" USING btree ("tenant_id","name") WHERE "approval_templates"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "order_cooperators_staff_idx" ON "order_cooperators" USING btree ("tenant_id","staff_id");--> statement-breakpoint
CREATE INDEX "order_lines_order_idx" ON "order_lines" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "orders_tenant_created_idx" ON "orders" USING btree ("tenant_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_owner_idx" ON "orders" USING btree ("tenant_id","owner_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_customer_idx" ON "orders" USING btree ("tenant_id","customer_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("tenant_id","verify_status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "orders_product_grams_gin" ON "orders" USING gin ("product_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "product_categories_name_uq" ON "product_categories" USING btree ("tenant_id","pid","name");--> statement-breakpoint
CREATE INDEX "product_spec_values_product_idx" ON "product_spec_values" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "product_specs_product_idx" ON "product_specs" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "product_variants_product_idx" ON "product_variants" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "products_tenant_idx" ON "products" USING btree ("tenant_id","category_id") WHERE "products"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "products_code_uq" ON "products" USING btree ("tenant_id","code") WHERE "products"."deleted_at" is null and "products"."code" <> '';