/**
 * The customer lists' SQL: one page or one export batch with the stage, owner, creator and department
 * names joined in the same statement (allowed exception: at a million customers the list stays one
 * statement; the page's rows are taken first, then named), and the capped / time-boxed counts of a filter.
 */
import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { planEachTime } from '../../db/named-statements';
import { estimateRows } from '../../db/row-estimate';
import { customers, departments, staff, stages } from '../../db/schema';

export const SORT_COLUMNS = {
  createTime: sql`c.created_at`,
  followTime: sql`c.follow_at`,
  nextFollowTime: sql`c.next_follow_at`,
  allotTime: sql`c.allot_at`,
  lastContactTime: sql`c.last_contact_at`,
  contactNum: sql`c.contact_num`,
  name: sql`c.name`,
} as const;

export type ListRow = {
  id: number;
  name: string;
  vals: Record<string, string[]>;
  contact_name: string;
  contact_phone: string;
  owner_id: number | null;
  pool_id: number | null;
  stage_id: number | null;
  label_ids: number[];
  follow_at: Date | string | null;
  next_follow_at: Date | string | null;
  allot_at: Date | string | null;
  last_contact_at: Date | string | null;
  last_contact_status: number;
  contact_num: number;
  created_at: Date | string;
  stage_name: string | null;
  owner_name: string | null;
  creator_name: string | null;
  department_name: string | null;
};

/** The customer columns a ListRow carries, plus the keys its names are looked up by. */
const pageColumns = sql`c.id, c.name, c.vals, c.contact_name, c.contact_phone, c.owner_id, c.pool_id, c.stage_id, c.label_ids,
  c.follow_at, c.next_follow_at, c.allot_at, c.last_contact_at, c.last_contact_status, c.contact_num, c.created_at,
  c.creator_id, c.owner_department_id`;

/**
 * ListRows of the customers `page` selects (a subquery over `customers c` alone: filter, order, limit),
 * with the stage, owner, creator and department names looked up for those rows only. The page's rows
 * come first (issue 25): joining the names before the limit made the planner join every match (6,399 at
 * a million customers) before its top-N sort. A subquery with a limit is never flattened into the joins.
 */
const withNames = (page: SQL, orderBy: SQL) =>
  planEachTime(sql`select c.id, c.name, c.vals, c.contact_name, c.contact_phone, c.owner_id, c.pool_id, c.stage_id, c.label_ids,
  c.follow_at, c.next_follow_at, c.allot_at, c.last_contact_at, c.last_contact_status, c.contact_num, c.created_at,
  st.name as stage_name, o.name as owner_name, cr.name as creator_name, d.name as department_name
  from (${page}) c
  left join ${stages} st on st.id = c.stage_id
  left join ${staff} o on o.id = c.owner_id
  left join ${staff} cr on cr.id = c.creator_id
  left join ${departments} d on d.id = c.owner_department_id
  order by ${orderBy}`);

/** One page of customers matching `where` (built by the service from the filters), with names joined. */
export const listPage = (db: DbOrTx, where: SQL, orderBy: SQL, limit: number, offset: number) =>
  queryRows<ListRow>(
    db,
    withNames(
      sql`select ${pageColumns} from ${customers} c where ${where}
        order by ${orderBy}
        limit ${limit} offset ${offset}`,
      orderBy,
    ),
  );

/** Count of matches, capped so a filter over a million rows stays cheap (the pager shows N+). */
export const countCapped = async (db: DbOrTx, where: SQL, cap: number) => {
  const rows = await queryRows<{ n: number }>(
    db,
    planEachTime(sql`select count(*)::int as n from (select 1 from ${customers} c where ${where} limit ${cap}) t`),
  );
  return Number(rows[0]?.n ?? 0);
};

/** Below this planner estimate the exact count is always taken (no time budget). */
const EXACT_BELOW = 10_000;

/**
 * Count for the pager within a time budget: exact (capped) when it finishes in time,
 * otherwise the planner's estimate, so one broad filter never makes a list slow.
 * A small result (planner estimate under 10,000) is always worth its exact count; asking the
 * planner first means such a count never spends the budget on a timed attempt it would redo.
 */
export const countWithin = async (
  db: DbOrTx,
  where: SQL,
  cap: number,
  budgetMs: number,
): Promise<{ count: number; isEstimated: boolean }> => {
  const estimate = await estimateRows(db, sql`select 1 from ${customers} c where ${where}`);
  if (estimate < EXACT_BELOW) return { count: await countCapped(db, where, cap), isEstimated: false };
  try {
    const count = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = ${Math.max(1, Math.floor(budgetMs))}`));
      return countCapped(tx, where, cap);
    });
    return { count, isEstimated: false };
  } catch (err) {
    // 57014 = query_canceled (statement_timeout); drizzle wraps the driver's error in `cause`.
    const e = err as { code?: string; cause?: { code?: string } };
    if (e.code !== '57014' && e.cause?.code !== '57014') throw err;
    return { count: Math.min(estimate, cap), isEstimated: true };
  }
};

/** Streams matching rows in id batches (exports), never holding the whole set. */
export const listBatch = (db: DbOrTx, where: SQL, afterId: number, limit: number) =>
  queryRows<ListRow>(
    db,
    withNames(
      sql`select ${pageColumns} from ${customers} c where ${where} and c.id > ${afterId}
        order by c.id
        limit ${limit}`,
      sql`c.id`,
    ),
  );
