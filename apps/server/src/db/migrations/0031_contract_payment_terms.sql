ALTER TABLE "contracts" ADD COLUMN "payment_terms" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "contracts" ADD COLUMN "receipt_plan_ids" jsonb;