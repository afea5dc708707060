ALTER TABLE "receipt_plans" ADD COLUMN "repaid_amount" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "receipt_plans_open_idx" ON "receipt_plans" USING btree ("tenant_id","plan_at","id") WHERE repaid_amount < amount;--> statement-breakpoint
-- backfill: each plan's received sum from its counted receipts (no approval needed -1, or approved 1)
UPDATE "receipt_plans" p SET "repaid_amount" = s.amount
FROM (SELECT "plan_id", sum("amount")::int AS amount FROM "receipts" WHERE "verify_status" IN (-1, 1) GROUP BY "plan_id") s
WHERE s."plan_id" = p."id";
