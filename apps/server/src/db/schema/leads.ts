import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

/**
 * The company registry of lead search (issue 28). One table, two kinds of rows:
 * - `tenant_id` null: the platform registry, one row per 统一社会信用代码 (GB 32100 checksum
 *   checked before insert), filled from the data provider's answers (cached with a TTL) and, in
 *   development, from the fictional demo seed. Every company searches these.
 * - `tenant_id` set: a row of that company's own imported list (`list_id`), seen only by it; its
 *   credit code is optional (validated when given).
 * Registered capital is an integer of 万元; coordinates WGS-84; `geo_cell` is the 0.1° grid cell
 * of (lat, lng) that the map search's bounding box reads through a btree index.
 */
export const leadCompanies = pgTable(
  'lead_companies',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id'),
    listId: integer('list_id'),
    creditCode: varchar('credit_code', { length: 18 }),
    name: text('name').notNull(),
    /** the name normalized for matching: half-width brackets, no spaces, 有限责任公司 → 有限公司, lower case */
    nameNorm: text('name_norm').notNull(),
    /** distinct 2-character pieces of name_norm (crm_bigrams): a GIN index serves fuzzy name lookup on PGlite and PostgreSQL */
    nameGrams: text('name_grams').array().generatedAlwaysAs(sql`crm_bigrams(name_norm)`),
    legalRep: text('legal_rep').notNull().default(''),
    /** LEAD_STATUS: 1 存续, 2 注销, 3 吊销 */
    status: smallint('status').notNull().default(1),
    provinceCode: integer('province_code'),
    cityCode: integer('city_code'),
    districtCode: integer('district_code'),
    /** GB/T 4754 门类 letter and 大类 2 digits */
    industrySection: varchar('industry_section', { length: 1 }).notNull().default(''),
    industryCode: varchar('industry_code', { length: 2 }).notNull().default(''),
    capitalWan: integer('capital_wan').notNull().default(0),
    foundedOn: date('founded_on'),
    address: text('address').notNull().default(''),
    scope: text('scope').notNull().default(''),
    phones: text('phones').array().notNull().default(sql`'{}'::text[]`),
    hasPhone: boolean('has_phone').notNull().default(false),
    hasMobile: boolean('has_mobile').notNull().default(false),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    geoCell: integer('geo_cell'),
    /** the provider's own key of the company (KeyNo) */
    providerKey: text('provider_key').notNull().default(''),
    /** LEAD_SOURCE: provider, seed, import */
    source: varchar('source', { length: 12 }).notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
    /** when the provider's details (capital, address, scope, phones) were last fetched; null: search fields only */
    detailFetchedAt: timestamp('detail_fetched_at', { withTimezone: true }),
    raw: jsonb('raw').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    uniqueIndex('lead_companies_credit_uq').on(t.creditCode).where(sql`${t.tenantId} is null`),
    index('lead_companies_own_idx').on(t.tenantId, t.listId).where(sql`${t.tenantId} is not null`),
    index('lead_companies_name_grams_gin').using('gin', t.nameGrams),
    // the batch lookup's exact step answers from the index alone (name, visibility, id, credit code)
    index('lead_companies_name_norm_idx').on(t.nameNorm, t.tenantId, t.id, t.creditCode),
    // 找线索 by province and industry answered from the index alone (bench/leads.ts): the order of
    // the default sort (founding date, newest first) after the equality columns, then what the
    // other filters and the visibility test read, so the count is an index-only scan and the page
    // visits the heap only for its own rows
    index('lead_companies_adv_code_idx').on(
      t.provinceCode,
      t.industryCode,
      t.hasPhone,
      t.foundedOn.desc().nullsLast(),
      t.id.desc().nullsFirst(),
      t.capitalWan,
      t.tenantId,
      t.status,
      t.hasMobile,
    ),
    index('lead_companies_adv_section_idx').on(
      t.provinceCode,
      t.industrySection,
      t.hasPhone,
      t.foundedOn.desc().nullsLast(),
      t.id.desc().nullsFirst(),
      t.capitalWan,
      t.tenantId,
      t.status,
      t.hasMobile,
    ),
    index('lead_companies_city_idx').on(t.cityCode, t.foundedOn),
    index('lead_companies_district_idx').on(t.districtCode),
    index('lead_companies_founded_idx').on(t.foundedOn),
    index('lead_companies_capital_idx').on(t.capitalWan),
    // the map: the grid cell, then the coordinates and the filter columns, so counting and
    // clustering a dense box (and listing a sparse one's ids) is an index-only scan
    index('lead_companies_map_idx').on(
      t.geoCell,
      t.lat,
      t.lng,
      t.tenantId,
      t.status,
      t.industrySection,
      t.industryCode,
      t.hasPhone,
      t.hasMobile,
      t.capitalWan,
      t.id,
    ),
  ],
);

/** A company's own imported list (its rows are lead_companies with this list_id and its tenant_id). */
export const leadLists = pgTable(
  'lead_lists',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    name: text('name').notNull(),
    rowCount: integer('row_count').notNull().default(0),
    staffId: integer('staff_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('lead_lists_tenant_idx').on(t.tenantId, t.createdAt)],
);

/** Industry templates: saved filters. `tenant_id` null: the starter set every company sees (read-only). */
export const leadTemplates = pgTable(
  'lead_templates',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id'),
    name: text('name').notNull(),
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull(),
    staffId: integer('staff_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('lead_templates_starter_uq').on(t.name).where(sql`${t.tenantId} is null`),
    uniqueIndex('lead_templates_tenant_name_uq').on(t.tenantId, t.name).where(sql`${t.tenantId} is not null`),
  ],
);

/** A company's lead-search settings: its provider keys (never answered in full), quota, template mapping. */
export const leadSettings = pgTable('lead_settings', {
  tenantId: integer('tenant_id').primaryKey(),
  providerKey: text('provider_key').notNull().default(''),
  providerSecret: text('provider_secret').notNull().default(''),
  /** 转为客户 per user per day */
  dailyQuota: integer('daily_quota').notNull().default(10),
  /** registry field → customer template control id */
  mapping: jsonb('mapping').$type<Record<string, number>>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every paid provider call (search or details), with its outcome: the audit and billing trail. */
export const leadLookups = pgTable(
  'lead_lookups',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    staffId: integer('staff_id').notNull(),
    /** 'search' | 'detail' */
    kind: varchar('kind', { length: 8 }).notNull(),
    query: text('query').notNull(),
    isOk: boolean('is_ok').notNull(),
    /** what the lookup costs in 分 (integer) */
    costFen: integer('cost_fen').notNull().default(0),
    error: text('error').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('lead_lookups_tenant_idx').on(t.tenantId, t.createdAt)],
);

/** Provider answers to a name search, cached platform-wide for the TTL (the same query costs once). */
export const leadSearchCache = pgTable('lead_search_cache', {
  queryNorm: text('query_norm').primaryKey(),
  companyIds: integer('company_ids').array().notNull(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
});

/** 转为客户: which registry record became which customer, by whom and on which business day (the quota). */
export const leadConversions = pgTable(
  'lead_conversions',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    staffId: integer('staff_id').notNull(),
    companyId: integer('company_id').notNull(),
    customerId: integer('customer_id').notNull(),
    day: date('day').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('lead_conversions_quota_idx').on(t.tenantId, t.staffId, t.day),
    index('lead_conversions_company_idx').on(t.tenantId, t.companyId),
  ],
);

/** A batch lookup's answers, one per input line, written chunk by chunk with the job's checkpoint. */
export const leadBatchRows = pgTable(
  'lead_batch_rows',
  {
    jobId: text('job_id').notNull(),
    tenantId: integer('tenant_id').notNull(),
    row: integer('row').notNull(),
    input: text('input').notNull(),
    /** LEAD_MATCH */
    match: varchar('match', { length: 5 }).notNull(),
    score: smallint('score').notNull(),
    companyId: integer('company_id'),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.row] }), index('lead_batch_rows_match_idx').on(t.jobId, t.match, t.row)],
);
