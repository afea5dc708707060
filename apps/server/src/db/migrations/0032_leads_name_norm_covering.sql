DROP INDEX "lead_companies_name_norm_idx";--> statement-breakpoint
CREATE INDEX "lead_companies_name_norm_idx" ON "lead_companies" USING btree ("name_norm","tenant_id","id","credit_code");