CREATE TABLE "company_modules" (
	"tenant_id" integer PRIMARY KEY NOT NULL,
	"order_on" boolean DEFAULT true NOT NULL,
	"receipt_on" boolean DEFAULT true NOT NULL,
	"work_on" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "company_modules" ADD CONSTRAINT "company_modules_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;