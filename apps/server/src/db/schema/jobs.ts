import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** A long task (export, import, batch allocation) with progress the web polls. */
export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    staffId: integer('staff_id').notNull(),
    kind: text('kind').notNull(),
    status: text('status').notNull().default('running'),
    processed: integer('processed').notNull().default(0),
    total: integer('total').notNull().default(0),
    result: jsonb('result'),
    fileId: integer('file_id'),
    error: text('error').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('jobs_staff_idx').on(t.tenantId, t.staffId, t.createdAt)],
);
