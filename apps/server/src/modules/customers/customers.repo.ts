import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type DbOrTx, queryRows } from '../../db/client';
import { customerPhones, customers, departments, staff, stages } from '../../db/schema';

export type CustomerInsert = typeof customers.$inferInsert;
export type CustomerRecord = typeof customers.$inferSelect;

const owner = alias(staff, 'owner');
const creator = alias(staff, 'creator');

export const insertCustomer = async (db: DbOrTx, row: CustomerInsert) => {
  const [created] = await db.insert(customers).values(row).returning({ id: customers.id });
  return created.id;
};

export const updateCustomer = async (db: DbOrTx, tenantId: number, id: number, values: Partial<CustomerInsert>) => {
  await db
    .update(customers)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, id)));
};

export const replacePhones = async (
  db: DbOrTx,
  tenantId: number,
  customerId: number,
  phones: { controlId: number; phone: string }[],
) => {
  await db
    .delete(customerPhones)
    .where(and(eq(customerPhones.tenantId, tenantId), eq(customerPhones.customerId, customerId)));
  if (phones.length > 0) await db.insert(customerPhones).values(phones.map((p) => ({ tenantId, customerId, ...p })));
};

export const findCustomer = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select()
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, id), isNull(customers.deletedAt)))
    .limit(1);
  return rows[0];
};

export const findCustomers = (db: DbOrTx, tenantId: number, ids: number[]) =>
  db
    .select()
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), inArray(customers.id, ids), isNull(customers.deletedAt)));

/** Another live customer of the company holding this normalised phone (isJudge on phone kinds). */
export const findByPhone = async (db: DbOrTx, tenantId: number, phone: string, controlId: number, exceptId: number) => {
  const rows = await db
    .select({
      id: customers.id,
      name: customers.name,
      ownerId: customers.ownerId,
      poolId: customers.poolId,
      ownerName: owner.name,
    })
    .from(customerPhones)
    .innerJoin(customers, eq(customers.id, customerPhones.customerId))
    .leftJoin(owner, eq(owner.id, customers.ownerId))
    .where(
      and(
        eq(customerPhones.tenantId, tenantId),
        eq(customerPhones.phone, phone),
        eq(customerPhones.controlId, controlId),
        sql`${customers.id} <> ${exceptId}`,
        isNull(customers.deletedAt),
      ),
    )
    .limit(1);
  return rows[0];
};

/** Another live customer holding this value of a control (isJudge on text and number kinds). */
export const findByValue = async (db: DbOrTx, tenantId: number, controlId: number, value: string, exceptId: number) => {
  const rows = await db
    .select({
      id: customers.id,
      name: customers.name,
      ownerId: customers.ownerId,
      poolId: customers.poolId,
      ownerName: owner.name,
    })
    .from(customers)
    .leftJoin(owner, eq(owner.id, customers.ownerId))
    .where(
      and(
        eq(customers.tenantId, tenantId),
        sql`${customers.vals} @> ${JSON.stringify({ [String(controlId)]: [value] })}::jsonb`,
        sql`${customers.id} <> ${exceptId}`,
        isNull(customers.deletedAt),
      ),
    )
    .limit(1);
  return rows[0];
};

export const findByName = async (db: DbOrTx, tenantId: number, name: string, exceptId: number) => {
  const rows = await db
    .select({ id: customers.id, ownerId: customers.ownerId, poolId: customers.poolId, ownerName: owner.name })
    .from(customers)
    .leftJoin(owner, eq(owner.id, customers.ownerId))
    .where(
      and(
        eq(customers.tenantId, tenantId),
        eq(customers.name, name),
        sql`${customers.id} <> ${exceptId}`,
        isNull(customers.deletedAt),
      ),
    )
    .limit(1);
  return rows[0];
};

export const countOwned = async (db: DbOrTx, tenantId: number, ownerId: number) => {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), eq(customers.ownerId, ownerId), isNull(customers.deletedAt)));
  return rows[0]?.n ?? 0;
};

export const softDelete = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  if (ids.length === 0) return 0;
  const rows = await db
    .update(customers)
    .set({ deletedAt: new Date() })
    .where(and(eq(customers.tenantId, tenantId), inArray(customers.id, ids), isNull(customers.deletedAt)))
    .returning({ id: customers.id });
  return rows.length;
};

// ---------- lists ----------

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

/** One page of customers matching `where` (built by the service from the filters), with names joined. */
export const listPage = (db: DbOrTx, where: SQL, orderBy: SQL, limit: number, offset: number) =>
  queryRows<ListRow>(
    db,
    sql`select c.id, c.name, c.vals, c.contact_name, c.contact_phone, c.owner_id, c.pool_id, c.stage_id, c.label_ids,
          c.follow_at, c.next_follow_at, c.allot_at, c.last_contact_at, c.last_contact_status, c.contact_num, c.created_at,
          st.name as stage_name, o.name as owner_name, cr.name as creator_name, d.name as department_name
        from ${customers} c
        left join ${stages} st on st.id = c.stage_id
        left join ${staff} o on o.id = c.owner_id
        left join ${staff} cr on cr.id = c.creator_id
        left join ${departments} d on d.id = c.owner_department_id
        where ${where}
        order by ${orderBy}
        limit ${limit} offset ${offset}`,
  );

/** Count of matches, capped so a filter over a million rows stays cheap (the pager shows N+). */
export const countCapped = async (db: DbOrTx, where: SQL, cap: number) => {
  const rows = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from (select 1 from ${customers} c where ${where} limit ${cap}) t`,
  );
  return Number(rows[0]?.n ?? 0);
};

/** The planner's row estimate for `where` (no rows are read). */
const estimateRows = async (db: DbOrTx, where: SQL) => {
  const plan = await queryRows<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
    db,
    sql`explain (format json) select 1 from ${customers} c where ${where}`,
  );
  return Math.round(plan[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0);
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
  const estimate = await estimateRows(db, where);
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
    sql`select c.id, c.name, c.vals, c.contact_name, c.contact_phone, c.owner_id, c.pool_id, c.stage_id, c.label_ids,
          c.follow_at, c.next_follow_at, c.allot_at, c.last_contact_at, c.last_contact_status, c.contact_num, c.created_at,
          st.name as stage_name, o.name as owner_name, cr.name as creator_name, d.name as department_name
        from ${customers} c
        left join ${stages} st on st.id = c.stage_id
        left join ${staff} o on o.id = c.owner_id
        left join ${staff} cr on cr.id = c.creator_id
        left join ${departments} d on d.id = c.owner_department_id
        where ${where} and c.id > ${afterId}
        order by c.id
        limit ${limit}`,
  );

export const customerNames = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db
    .select({ id: customers.id, name: customers.name })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), inArray(customers.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
};

export const findDetailNames = async (db: DbOrTx, c: CustomerRecord) => {
  const rows = await db
    .select({ stageName: stages.name, ownerName: owner.name, creatorName: creator.name, departmentName: departments.name })
    .from(customers)
    .leftJoin(stages, eq(stages.id, customers.stageId))
    .leftJoin(owner, eq(owner.id, customers.ownerId))
    .leftJoin(creator, eq(creator.id, customers.creatorId))
    .leftJoin(departments, eq(departments.id, customers.ownerDepartmentId))
    .where(eq(customers.id, c.id));
  return rows[0];
};

export const ownerFigures = async (
  db: DbOrTx,
  tenantId: number,
  ownerId: number,
  t: { today: Date; tomorrow: Date; weekStart: Date },
) => {
  const rows = await queryRows<{ mine: number; appointments: number; new_this_week: number; never: number }>(
    db,
    sql`select count(*)::int as mine,
          count(*) filter (where c.next_follow_at >= ${t.today} and c.next_follow_at < ${t.tomorrow})::int as appointments,
          count(*) filter (where c.created_at >= ${t.weekStart})::int as new_this_week,
          count(*) filter (where c.contact_num = 0 and c.follow_at is null)::int as never
        from ${customers} c
        where c.tenant_id = ${tenantId} and c.owner_id = ${ownerId} and c.deleted_at is null`,
  );
  const r = rows[0];
  return {
    myCustomers: Number(r?.mine ?? 0),
    todayAppointments: Number(r?.appointments ?? 0),
    newThisWeek: Number(r?.new_this_week ?? 0),
    neverContacted: Number(r?.never ?? 0),
  };
};

/** Customers the staff member created per Shanghai day since a date. */
export const createdPerDay = async (db: DbOrTx, tenantId: number, creatorId: number, since: Date) =>
  (
    await queryRows<{ day: string; n: number }>(
      db,
      sql`select to_char(c.created_at at time zone 'Asia/Shanghai', 'YYYY-MM-DD') as day, count(*)::int as n
          from ${customers} c
          where c.tenant_id = ${tenantId} and c.creator_id = ${creatorId} and c.created_at >= ${since} and c.deleted_at is null
          group by 1`,
    )
  ).map((r) => ({ day: r.day, n: Number(r.n) }));

/** Live customers of the company holding this normalised phone in any phone control (calls: who is this number?). */
export const findIdsByPhone = async (db: DbOrTx, tenantId: number, phone: string) => {
  const rows = await db
    .selectDistinct({ id: customers.id })
    .from(customerPhones)
    .innerJoin(customers, eq(customers.id, customerPhones.customerId))
    .where(and(eq(customerPhones.tenantId, tenantId), eq(customerPhones.phone, phone), isNull(customers.deletedAt)))
    .orderBy(customers.id)
    .limit(20);
  return rows.map((r) => r.id);
};

/** One more contact (a call): last contact time and status (1 connected, 2 unanswered). */
export const addContact = async (db: DbOrTx, tenantId: number, id: number, at: Date, status: number) => {
  await db
    .update(customers)
    .set({ lastContactAt: at, lastContactStatus: status, contactNum: sql`${customers.contactNum} + 1`, updatedAt: new Date() })
    .where(and(eq(customers.tenantId, tenantId), eq(customers.id, id)));
};

/** Customers (deleted ones too) holding `value` in one of these controls: the owners of an attached file. */
export const findHoldersOfValue = async (db: DbOrTx, tenantId: number, controlIds: number[], value: string) => {
  if (controlIds.length === 0) return [];
  const held = controlIds.map((id) => sql`${customers.vals} @> ${JSON.stringify({ [String(id)]: [value] })}::jsonb`);
  return db
    .select({ ownerId: customers.ownerId, poolId: customers.poolId })
    .from(customers)
    .where(and(eq(customers.tenantId, tenantId), sql`(${sql.join(held, sql` or `)})`))
    .limit(50);
};
