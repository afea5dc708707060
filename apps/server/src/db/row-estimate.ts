import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from './client';
import { planEachTime } from './named-statements';

/**
 * The planner's row estimate of a query (`explain`, no rows are read): what a list's pager shows
 * ("约 N 条") when counting every match would take longer than the page itself.
 */
export const estimateRows = async (db: DbOrTx, query: SQL) => {
  const plan = await queryRows<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    db,
    planEachTime(sql`explain (format json) ${query}`),
  );
  return Math.round(plan[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
};
