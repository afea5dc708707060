import { WORK_STATUS } from '@crm/contracts';
import { type SQL, sql } from 'drizzle-orm';

/**
 * The overdue rule of a work order, in one place: open (处理中) and its due time before the moment
 * (due exactly now is not yet overdue, a second ago is). `isWorkOverdue` is its TS form (the rows'
 * `overdue` flag), `workOverdueSql` its SQL form (the overdue tab, the counts, the SLA reminders);
 * workorders-overdue.api.test.ts checks both at both edges.
 */
export const isWorkOverdue = (w: { status: number; dueAt: Date }, at: Date) =>
  w.status === WORK_STATUS.open && w.dueAt.getTime() < at.getTime();

/** The rule on the work_orders row named `w` (an alias: sql`w`). */
export const workOverdueSql = (w: SQL, at: Date): SQL =>
  sql`${w}.status = ${WORK_STATUS.open} and ${w}.due_at < ${at.toISOString()}::timestamptz`;
