import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Product categories (issue 13): a tree by pid (0 = top), at most PRODUCT_LIMITS.categoryDepth deep. */
export const productCategories = pgTable(
  'product_categories',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    pid: integer('pid').notNull().default(0),
    name: text('name').notNull(),
    sortNum: integer('sort_num').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('product_categories_name_uq').on(t.tenantId, t.pid, t.name)],
);

/** A product of the catalogue (SPEC §3). Money in 1/1000 yuan. Deleted products stay for old orders. */
export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    categoryId: integer('category_id').notNull().default(0),
    name: text('name').notNull(),
    code: text('code').notNull().default(''),
    remark: text('remark').notNull().default(''),
    price: integer('price').notNull().default(0),
    cost: integer('cost').notNull().default(0),
    minimumPrice: integer('minimum_price').notNull().default(0),
    /** 1 上架, 0 下架 */
    status: smallint('status').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('products_tenant_idx').on(t.tenantId, t.categoryId).where(sql`${t.deletedAt} is null`),
    uniqueIndex('products_code_uq').on(t.tenantId, t.code).where(sql`${t.deletedAt} is null and ${t.code} <> ''`),
  ],
);

/** A specification of a product (版本, 年限 …) in its order. */
export const productSpecs = pgTable(
  'product_specs',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    productId: integer('product_id').notNull(),
    name: text('name').notNull(),
    sortNum: integer('sort_num').notNull().default(0),
  },
  (t) => [index('product_specs_product_idx').on(t.productId)],
);

/** A value of a specification (基础版, 专业版, 1年 …). */
export const productSpecValues = pgTable(
  'product_spec_values',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    productId: integer('product_id').notNull(),
    specId: integer('spec_id').notNull(),
    name: text('name').notNull(),
    sortNum: integer('sort_num').notNull().default(0),
  },
  (t) => [index('product_spec_values_product_idx').on(t.productId)],
);

/** A variant (SKU): one value of each specification, its own prices (SPEC §3 detailed). */
export const productVariants = pgTable(
  'product_variants',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    productId: integer('product_id').notNull(),
    /** spec value ids, in the order of the product's specifications */
    valueIds: integer('value_ids').array().notNull(),
    price: integer('price').notNull().default(0),
    cost: integer('cost').notNull().default(0),
    minimumPrice: integer('minimum_price').notNull().default(0),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('product_variants_product_idx').on(t.productId)],
);
