DROP INDEX "customers_vals_gin";--> statement-breakpoint
DROP INDEX "customers_name_grams_gin";--> statement-breakpoint
CREATE INDEX "customers_grams_vals_gin" ON "customers" USING gin ("name_grams","vals" jsonb_path_ops);