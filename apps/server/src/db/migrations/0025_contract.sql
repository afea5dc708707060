CREATE TABLE "contract_account_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"contract_id" integer NOT NULL,
	"credits" integer NOT NULL,
	"kind" text NOT NULL,
	"staff_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_accounts" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"company_name" text NOT NULL,
	"credit_code" text NOT NULL,
	"legal_rep" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"cert_pem" text,
	"encrypted_key" text,
	"cert_fingerprint" text DEFAULT '' NOT NULL,
	"cert_not_after" timestamp with time zone,
	"cert_name" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_counters" (
	"tenant_id" integer NOT NULL,
	"period" text NOT NULL,
	"value" integer NOT NULL,
	CONSTRAINT "contract_counters_tenant_id_period_pk" PRIMARY KEY("tenant_id","period")
);
--> statement-breakpoint
CREATE TABLE "contract_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"contract_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"action" text NOT NULL,
	"actor_name" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_rules" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"prefix" text NOT NULL,
	"date_format" text NOT NULL,
	"seq_digits" smallint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_seals" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" smallint NOT NULL,
	"file_id" integer,
	"staff_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"needs_approval" smallint DEFAULT 0 NOT NULL,
	"approval_template_id" integer,
	"status" smallint DEFAULT 0 NOT NULL,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"destroyed_by" integer,
	"destroyed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "contract_signers" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"contract_id" integer NOT NULL,
	"party" smallint NOT NULL,
	"name" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"token_hash" text,
	"expires_at" timestamp with time zone,
	"otp_hash" text,
	"otp_expires_at" timestamp with time zone,
	"otp_attempts" smallint DEFAULT 0 NOT NULL,
	"otp_sent_at" timestamp with time zone,
	"otp_day" text DEFAULT '' NOT NULL,
	"otp_sends" smallint DEFAULT 0 NOT NULL,
	"demo_code" text DEFAULT '' NOT NULL,
	"signed_at" timestamp with time zone,
	"ip" text DEFAULT '' NOT NULL,
	"user_agent" text DEFAULT '' NOT NULL,
	"signature_file_id" integer,
	"typed_name" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" smallint NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"pdf_file_id" integer,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sign_areas" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"created_by" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"id" serial PRIMARY KEY NOT NULL,
	"tenant_id" integer NOT NULL,
	"contract_no" text NOT NULL,
	"version" smallint DEFAULT 1 NOT NULL,
	"parent_id" integer,
	"discarded_by_id" integer,
	"title" text NOT NULL,
	"order_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"owner_id" integer NOT NULL,
	"creator_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"seal_id" integer NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"amount" integer NOT NULL,
	"fields" jsonb NOT NULL,
	"products" jsonb NOT NULL,
	"sign_order" smallint NOT NULL,
	"seal_approval" smallint DEFAULT 0 NOT NULL,
	"approval_instance_id" integer,
	"link_days" smallint DEFAULT 7 NOT NULL,
	"draft_file_id" integer,
	"signed_file_id" integer,
	"archived_file_id" integer,
	"dismissed_file_id" integer,
	"sha256_before" text DEFAULT '' NOT NULL,
	"archived_sha256" text DEFAULT '' NOT NULL,
	"discard_reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"archived_at" timestamp with time zone,
	"discarded_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "contract_account_logs_once_idx" ON "contract_account_logs" USING btree ("tenant_id","contract_id","kind");--> statement-breakpoint
CREATE INDEX "contract_account_logs_list_idx" ON "contract_account_logs" USING btree ("tenant_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "contract_events_seq_idx" ON "contract_events" USING btree ("contract_id","seq");--> statement-breakpoint
CREATE INDEX "contract_seals_tenant_idx" ON "contract_seals" USING btree ("tenant_id","status");--> statement-breakpoint
CREATE INDEX "contract_signers_contract_idx" ON "contract_signers" USING btree ("tenant_id","contract_id");--> statement-breakpoint
CREATE UNIQUE INDEX "contract_signers_token_idx" ON "contract_signers" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "contract_templates_name_idx" ON "contract_templates" USING btree ("tenant_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "contracts_no_idx" ON "contracts" USING btree ("tenant_id","contract_no","version");--> statement-breakpoint
CREATE INDEX "contracts_list_idx" ON "contracts" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "contracts_order_idx" ON "contracts" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE INDEX "contracts_customer_idx" ON "contracts" USING btree ("tenant_id","customer_id");--> statement-breakpoint
CREATE INDEX "contracts_owner_idx" ON "contracts" USING btree ("tenant_id","owner_id","status");--> statement-breakpoint
CREATE INDEX "contracts_sha_idx" ON "contracts" USING btree ("archived_sha256");