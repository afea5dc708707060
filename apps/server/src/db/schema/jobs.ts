import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
    /** What a durable kind needs to run (and resume) the job in any process; null only on rows of the former in-process jobs. */
    payload: jsonb('payload'),
    /** Runs so far: a queue delivery claims the row only for the next attempt (no double runs). */
    attempt: integer('attempt').notNull().default(0),
    /** Written every few seconds while a process runs the job; a stale one means the runner died. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('jobs_staff_idx').on(t.tenantId, t.staffId, t.createdAt), index('jobs_status_idx').on(t.status, t.heartbeatAt)],
);

/**
 * The outbox of domain events (DESIGN §1): written in the transaction of the change it reports,
 * delivered to the owning domain's handler after the commit, and by the queue's relay when the
 * process died before that. `deliveredAt` is set in the handler's own transaction (once only).
 */
export const domainEvents = pgTable(
  'domain_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tenantId: integer('tenant_id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    attempts: integer('attempts').notNull().default(0),
    error: text('error').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [index('domain_events_pending_idx').on(t.deliveredAt, t.id)],
);
