CREATE TABLE "customer_contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"contact_person" text DEFAULT '' NOT NULL,
	"contact_no" text NOT NULL,
	"contact_type" smallint DEFAULT 1 NOT NULL,
	"contact_position" text DEFAULT '' NOT NULL,
	"kp_type" smallint DEFAULT 0 NOT NULL,
	"recommend" smallint DEFAULT 0 NOT NULL,
	"source_type" smallint DEFAULT 2 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "follow_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"staff_id" integer,
	"follow_type" smallint DEFAULT 0 NOT NULL,
	"source_type" smallint DEFAULT 1 NOT NULL,
	"stage_id" integer,
	"remark" text DEFAULT '' NOT NULL,
	"next_follow_at" timestamp with time zone,
	"vals" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"billsec" integer DEFAULT 0 NOT NULL,
	"record_file" text DEFAULT '' NOT NULL,
	"record_id" text DEFAULT '' NOT NULL,
	"is_delete" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "phone_reveals" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"day" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "customer_contacts_customer_idx" ON "customer_contacts" USING btree ("tenant_id","customer_id","id");--> statement-breakpoint
CREATE INDEX "customer_contacts_phone_idx" ON "customer_contacts" USING btree ("tenant_id","contact_no");--> statement-breakpoint
CREATE INDEX "follow_records_customer_idx" ON "follow_records" USING btree ("tenant_id","customer_id","created_at" DESC NULLS LAST) WHERE "follow_records"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "phone_reveals_staff_day_idx" ON "phone_reveals" USING btree ("tenant_id","staff_id","day");