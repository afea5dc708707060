import { index, integer, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/** Sales stage (cmNid), /set/node. */
export const stages = pgTable(
  'stages',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    name: text('name').notNull(),
    sortNum: integer('sort_num').notNull().default(0),
    actionState: smallint('action_state').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('stages_tenant_idx').on(t.tenantId, t.sortNum)],
);

/** Tag group (pid = 0) or tag (pid = group id), cmClid, /set/label. */
export const labels = pgTable(
  'labels',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    pid: integer('pid').notNull().default(0),
    name: text('name').notNull(),
    sortNum: integer('sort_num').notNull().default(0),
    actionState: smallint('action_state').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('labels_tenant_idx').on(t.tenantId, t.pid, t.sortNum)],
);

/** Company-wide customer strategy (/set/strategy, SPEC §3 Strategy). */
export const strategies = pgTable('strategies', {
  tenantId: integer('tenant_id').primaryKey(),
  recycleRemind: integer('recycle_remind').notNull().default(3),
  /** max private customers per staff; 0 = 不限制 */
  maxCustomer: integer('max_customer').notNull().default(0),
  mustCustomerName: smallint('must_customer_name').notNull().default(0),
  repeatCustomerName: smallint('repeat_customer_name').notNull().default(0),
  seaPhoneEncryp: smallint('sea_phone_encryp').notNull().default(1),
  phoneEncryp: smallint('phone_encryp').notNull().default(0),
  /** reveals per staff per day; 0 = 不限制 */
  decryptPhoneNum: integer('decrypt_phone_num').notNull().default(20),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
