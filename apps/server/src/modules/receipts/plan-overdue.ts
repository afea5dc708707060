import { PLAN_STATUS, planStatusOf } from '@crm/contracts';
import { type SQL, sql } from 'drizzle-orm';

/**
 * The overdue rule of a receipt plan, in one place: an open plan is overdue when its date is before
 * the business day (due today is not overdue, due yesterday is). Its TS form is `planStatusOf`
 * (contracts: the status shown on every plan row and reminder); `planOverdueSql` is the same rule for
 * the SQL filters and figures. receipts-overdue.api.test.ts checks both forms at both edges.
 */
export const isPlanOverdue = (planAt: string, today: string) => planStatusOf(1, 0, planAt, today) === PLAN_STATUS.overdue;

/** The rule as a condition on a plan-date expression (`p.plan_at`), for an open plan. */
export const planOverdueSql = (planAt: SQL, today: string): SQL => sql`${planAt} < ${today}::date`;
