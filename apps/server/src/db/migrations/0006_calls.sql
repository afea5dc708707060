CREATE TABLE "black_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"dm_state" smallint DEFAULT 0 NOT NULL,
	"number_count" integer DEFAULT 0 NOT NULL,
	"invalid_count" integer DEFAULT 0 NOT NULL,
	"staff_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "black_numbers" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"file_id" integer DEFAULT 0 NOT NULL,
	"phone" text NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"staff_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "call_records" (
	"uuid" text PRIMARY KEY NOT NULL,
	"year_month" text NOT NULL,
	"tenant_id" integer NOT NULL,
	"staff_id" integer NOT NULL,
	"department_id" integer,
	"sip_id" integer,
	"sip_user" text DEFAULT '' NOT NULL,
	"channel" smallint DEFAULT 1 NOT NULL,
	"call_type" smallint DEFAULT 1 NOT NULL,
	"caller" text DEFAULT '' NOT NULL,
	"called_number" text NOT NULL,
	"customer_id" integer,
	"control_id" integer DEFAULT 0 NOT NULL,
	"task_id" integer DEFAULT 0 NOT NULL,
	"state" smallint DEFAULT 0 NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"ring_at" timestamp with time zone,
	"answer_at" timestamp with time zone,
	"end_at" timestamp with time zone,
	"billsec" integer DEFAULT 0 NOT NULL,
	"hangup_side" smallint DEFAULT 0 NOT NULL,
	"hangup_cause" text DEFAULT '' NOT NULL,
	"dm_msg" text DEFAULT '' NOT NULL,
	"record_file_id" integer,
	"record_file" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sip_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"user" text NOT NULL,
	"pwd" text NOT NULL,
	"server" text DEFAULT '' NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"in_url" text DEFAULT '' NOT NULL,
	"dm_type" smallint DEFAULT 1 NOT NULL,
	"imei" text DEFAULT '' NOT NULL,
	"device_secret" text DEFAULT '' NOT NULL,
	"device_online" smallint DEFAULT 0 NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"staff_id" integer,
	"is_default" boolean DEFAULT false NOT NULL,
	"phone_state" smallint DEFAULT 0 NOT NULL,
	"register_status" smallint DEFAULT 0 NOT NULL,
	"call_status" smallint DEFAULT 0 NOT NULL,
	"call_type" smallint DEFAULT 0 NOT NULL,
	"last_call_at" timestamp with time zone,
	"action_state" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "black_files_tenant_idx" ON "black_files" USING btree ("tenant_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "black_numbers_phone_idx" ON "black_numbers" USING btree ("tenant_id","phone");--> statement-breakpoint
CREATE UNIQUE INDEX "black_numbers_file_phone_uq" ON "black_numbers" USING btree ("tenant_id","file_id","phone");--> statement-breakpoint
CREATE INDEX "call_records_tenant_start_idx" ON "call_records" USING btree ("tenant_id","start_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "call_records_staff_start_idx" ON "call_records" USING btree ("tenant_id","staff_id","start_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "call_records_active_idx" ON "call_records" USING btree ("staff_id") WHERE "call_records"."state" < 3;--> statement-breakpoint
CREATE INDEX "call_records_number_idx" ON "call_records" USING btree ("tenant_id","called_number");--> statement-breakpoint
CREATE UNIQUE INDEX "sip_accounts_user_uq" ON "sip_accounts" USING btree ("tenant_id",lower("user")) WHERE "sip_accounts"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "sip_accounts_imei_uq" ON "sip_accounts" USING btree ("imei") WHERE "sip_accounts"."imei" <> '' and "sip_accounts"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "sip_accounts_default_uq" ON "sip_accounts" USING btree ("tenant_id","staff_id") WHERE "sip_accounts"."is_default" and "sip_accounts"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "sip_accounts_staff_idx" ON "sip_accounts" USING btree ("tenant_id","staff_id");