import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from './org';

/** One customer template per company (cmAtid). */
export const customerTemplates = pgTable(
  'customer_templates',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id),
    isMustName: smallint('is_must_name').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('customer_templates_tenant_uq').on(t.tenantId)],
);

/** A control of the customer template (cbTacid); group controls hold children through pid. */
export const templateControls = pgTable(
  'template_controls',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    templateId: integer('template_id')
      .notNull()
      .references(() => customerTemplates.id),
    pid: integer('pid').notNull().default(0),
    name: text('name').notNull(),
    dmType: smallint('dm_type').notNull(),
    dmDesc: text('dm_desc').notNull().default(''),
    /** option texts (select kinds) */
    options: jsonb('options').$type<string[]>().notNull().default([]),
    /** option tree (cascader kinds) */
    tree: jsonb('tree').$type<{ value: string; label: string; children?: unknown[] }[]>().notNull().default([]),
    staticText: text('static_text').notNull().default(''),
    dmMust: smallint('dm_must').notNull().default(0),
    isJudge: smallint('is_judge').notNull().default(0),
    isFollowShow: smallint('is_follow_show').notNull().default(0),
    isSearch: smallint('is_search').notNull().default(0),
    sortNum: integer('sort_num').notNull().default(0),
    actionState: smallint('action_state').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('template_controls_tpl_idx').on(t.templateId, t.sortNum)],
);

/**
 * A customer (cmCtid). Control values live in `vals` as {"<cbTacid>": ["v", ...]} so list
 * filters are JSONB containment on a GIN index; phone numbers are also normalised into
 * customer_phones for exact lookup and duplicate checks.
 */
export const customers = pgTable(
  'customers',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    templateId: integer('template_id').notNull(),
    name: text('name').notNull().default(''),
    /** distinct lower-case 2-character pieces of the name: a GIN index that serves '%华信%' (pg_trgm cannot for 2-char CJK) */
    nameGrams: text('name_grams').array().generatedAlwaysAs(sql`crm_bigrams(name)`),
    vals: jsonb('vals').$type<Record<string, string[]>>().notNull().default({}),
    contactName: text('contact_name').notNull().default(''),
    contactPhone: text('contact_phone').notNull().default(''),
    /** null while the customer sits in a shared pool */
    ownerId: integer('owner_id'),
    ownerDepartmentId: integer('owner_department_id'),
    creatorId: integer('creator_id').notNull(),
    creatorDepartmentId: integer('creator_department_id'),
    poolId: integer('pool_id'),
    stageId: integer('stage_id'),
    labelIds: integer('label_ids').array().notNull().default(sql`'{}'::integer[]`),
    followAt: timestamp('follow_at', { withTimezone: true }),
    followerId: integer('follower_id'),
    nextFollowAt: timestamp('next_follow_at', { withTimezone: true }),
    allotAt: timestamp('allot_at', { withTimezone: true }),
    lastContactAt: timestamp('last_contact_at', { withTimezone: true }),
    lastContactStatus: smallint('last_contact_status').notNull().default(0),
    contactNum: integer('contact_num').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** soft delete: recoverable for 30 days */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('customers_owner_created_idx').on(t.tenantId, t.ownerId, t.createdAt.desc()).where(sql`${t.deletedAt} is null`),
    index('customers_tenant_created_idx').on(t.tenantId, t.createdAt.desc()).where(sql`${t.deletedAt} is null`),
    index('customers_owner_next_idx').on(t.tenantId, t.ownerId, t.nextFollowAt).where(sql`${t.deletedAt} is null`),
    // one GIN over the owner, the name's bigrams and the values (issue 25, bench/README.md): "name contains
    // + control value" is one index scan intersecting them inside the index (6,399 rows at 1M) instead of a
    // BitmapAnd of a 50,198-row and a 124,763-row bitmap, and a salesperson's own list intersects his rows
    // there too (1,235 of his 200,283) instead of ANDing a bitmap of his whole book; any subset of the
    // three still uses it (GIN keys are per column). The owner's `=` is btree_gin's.
    index('customers_owner_grams_vals_gin').using('gin', t.ownerId, t.nameGrams, sql`${t.vals} jsonb_path_ops`),
    index('customers_labels_gin').using('gin', t.labelIds),
    index('customers_stage_idx').on(t.tenantId, t.stageId).where(sql`${t.deletedAt} is null`),
    // bench/README.md: stage + tag + created-range lists count from this index alone (no heap reads)
    index('customers_stage_created_idx')
      .on(t.tenantId, t.stageId, t.createdAt.desc().nullsLast(), t.ownerId, t.poolId, t.labelIds)
      .where(sql`${t.deletedAt} is null`),
  ],
);

export const customerPhones = pgTable(
  'customer_phones',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    controlId: integer('control_id').notNull(),
    phone: text('phone').notNull(),
  },
  (t) => [index('customer_phones_lookup_idx').on(t.tenantId, t.phone), index('customer_phones_customer_idx').on(t.customerId)],
);
