import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * A deal order (SPEC §3). Amount in 1/1000 yuan, computed by the server from the catalogue.
 * verify_status -1 待提交 (no instance yet), else the instance's status (0/1/2/3).
 */
export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    customerId: integer('customer_id').notNull(),
    ownerId: integer('owner_id').notNull(),
    creatorId: integer('creator_id').notNull(),
    contactPhone: text('contact_phone').notNull().default(''),
    /** the dynamic attributes {"<attr id>": value} */
    attr: jsonb('attr').$type<Record<string, string | number | string[] | null>>().notNull().default({}),
    amount: integer('amount').notNull().default(0),
    /** 1 when a line's deal price is below its minimum price */
    isBelowMin: smallint('is_below_min').notNull().default(0),
    remark: text('remark').notNull().default(''),
    /** upload ids of the attached images */
    imageIds: integer('image_ids').array().notNull().default(sql`'{}'::integer[]`),
    productNames: text('product_names').notNull().default(''),
    /** distinct lower-case 2-character pieces of the product names: a GIN index for the keyword filter */
    productGrams: text('product_grams').array().generatedAlwaysAs(sql`crm_bigrams(product_names)`),
    verifyStatus: smallint('verify_status').notNull().default(-1),
    instanceId: integer('instance_id'),
    dealAt: timestamp('deal_at', { withTimezone: true }),
    startAt: timestamp('start_at', { withTimezone: true }),
    endAt: timestamp('end_at', { withTimezone: true }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('orders_tenant_created_idx').on(t.tenantId, t.createdAt.desc(), t.id.desc()),
    index('orders_owner_idx').on(t.tenantId, t.ownerId, t.createdAt.desc()),
    index('orders_customer_idx').on(t.tenantId, t.customerId, t.createdAt.desc()),
    index('orders_status_idx').on(t.tenantId, t.verifyStatus, t.createdAt.desc()),
    index('orders_product_grams_gin').using('gin', t.productGrams),
  ],
);

/** An order line: the product and variant as they were at the time, deal price and totals. */
export const orderLines = pgTable(
  'order_lines',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    orderId: integer('order_id').notNull(),
    productId: integer('product_id').notNull(),
    variantId: integer('variant_id'),
    productName: text('product_name').notNull(),
    specName: text('spec_name').notNull().default(''),
    dealPrice: integer('deal_price').notNull(),
    cost: integer('cost').notNull().default(0),
    minimumPrice: integer('minimum_price').notNull().default(0),
    qty: integer('qty').notNull(),
    total: integer('total').notNull(),
    isBelowMin: smallint('is_below_min').notNull().default(0),
  },
  (t) => [index('order_lines_order_idx').on(t.orderId, t.id)],
);

/** Staff collaborating on an order (协同人): they see it like its owner. */
export const orderCooperators = pgTable(
  'order_cooperators',
  {
    tenantId: integer('tenant_id').notNull(),
    orderId: integer('order_id').notNull(),
    staffId: integer('staff_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.staffId] }), index('order_cooperators_staff_idx').on(t.tenantId, t.staffId)],
);
