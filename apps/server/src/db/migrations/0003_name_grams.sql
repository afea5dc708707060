-- 2-character pieces of a name, for a GIN index that serves '%华信%' searches (pg_trgm cannot for 2-char CJK).
CREATE OR REPLACE FUNCTION crm_bigrams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT g), '{}'::text[])
  FROM (SELECT substr(lower(t), i, 2) AS g FROM generate_series(1, char_length(t) - 1) AS i) s
$$;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "name_grams" text[] GENERATED ALWAYS AS (crm_bigrams(name)) STORED;--> statement-breakpoint
CREATE INDEX "customers_name_grams_gin" ON "customers" USING gin ("name_grams");--> statement-breakpoint
CREATE INDEX "customers_stage_idx" ON "customers" USING btree ("tenant_id","stage_id") WHERE "customers"."deleted_at" is null;