CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX "customers_owner_grams_vals_gin" ON "customers" USING gin ("owner_id","name_grams","vals" jsonb_path_ops);--> statement-breakpoint
DROP INDEX "customers_grams_vals_gin";