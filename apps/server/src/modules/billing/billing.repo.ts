import { and, asc, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import {
  billingAlerts,
  billingBalances,
  billingCallUsage,
  billingLedger,
  billingPlanAssignments,
  billingRatePlans,
  billingRecharges,
  billingRerates,
  billingReservations,
  billingSettings,
} from '../../db/schema';

// Billing's SQL (issue 27). Every row names its company; the balance row is the lock every money
// movement of a company takes, so the ledger and the balance move together.

const n = (v: unknown) => Number(v ?? 0);

// ---------- plans ----------

export const insertPlan = async (db: DbOrTx, name: string, rates: unknown) => {
  const [row] = await db
    .insert(billingRatePlans)
    .values({ name, rates })
    .onConflictDoNothing()
    .returning({ id: billingRatePlans.id });
  return row?.id;
};
export const listPlans = (db: DbOrTx) => db.select().from(billingRatePlans).orderBy(asc(billingRatePlans.id));
export const findPlan = async (db: DbOrTx, id: number) =>
  (await db.select().from(billingRatePlans).where(eq(billingRatePlans.id, id)))[0];
export const findPlanByName = async (db: DbOrTx, name: string) =>
  (await db.select().from(billingRatePlans).where(eq(billingRatePlans.name, name)))[0];

/** The plan in force for the company at `at` (the latest assignment started by then and not ended). */
export const planAt = async (db: DbOrTx, tenantId: number, at: Date) => {
  const [row] = await db
    .select({ id: billingRatePlans.id, name: billingRatePlans.name, rates: billingRatePlans.rates })
    .from(billingPlanAssignments)
    .innerJoin(billingRatePlans, eq(billingRatePlans.id, billingPlanAssignments.planId))
    .where(
      and(
        eq(billingPlanAssignments.tenantId, tenantId),
        lte(billingPlanAssignments.effectiveFrom, at),
        or(isNull(billingPlanAssignments.effectiveTo), gt(billingPlanAssignments.effectiveTo, at)),
      ),
    )
    .orderBy(desc(billingPlanAssignments.effectiveFrom), desc(billingPlanAssignments.id))
    .limit(1);
  return row;
};

/** Every assignment of the company with its plan's rates (the rating job picks per call). */
export const assignmentsOf = (db: DbOrTx, tenantId: number) =>
  db
    .select({
      planId: billingPlanAssignments.planId,
      effectiveFrom: billingPlanAssignments.effectiveFrom,
      effectiveTo: billingPlanAssignments.effectiveTo,
      rates: billingRatePlans.rates,
    })
    .from(billingPlanAssignments)
    .innerJoin(billingRatePlans, eq(billingRatePlans.id, billingPlanAssignments.planId))
    .where(eq(billingPlanAssignments.tenantId, tenantId))
    .orderBy(asc(billingPlanAssignments.id));

/** Ends the company's open assignments at `from` and starts the plan there. */
export const assignPlan = async (db: DbOrTx, tenantId: number, planId: number, from: Date, operator: string) => {
  await db
    .update(billingPlanAssignments)
    .set({ effectiveTo: from })
    .where(
      and(
        eq(billingPlanAssignments.tenantId, tenantId),
        or(isNull(billingPlanAssignments.effectiveTo), gt(billingPlanAssignments.effectiveTo, from)),
        lte(billingPlanAssignments.effectiveFrom, from),
      ),
    );
  await db.insert(billingPlanAssignments).values({ tenantId, planId, effectiveFrom: from, operator });
};

// ---------- the balance (the company's lock) ----------

export type BalanceRow = { balance: number; reserved: number };

/** Locks the company's balance row (created at 0 on first use) and reads it. */
export const lockBalance = async (db: DbOrTx, tenantId: number): Promise<BalanceRow> => {
  const [row] = await queryRows<{ balance: unknown; reserved: unknown }>(
    db,
    sql`insert into billing_balances (tenant_id) values (${tenantId})
        on conflict (tenant_id) do update set tenant_id = excluded.tenant_id
        returning balance, reserved`,
  );
  return { balance: n(row.balance), reserved: n(row.reserved) };
};

export const readBalance = async (db: DbOrTx, tenantId: number): Promise<BalanceRow> => {
  const [row] = await db.select().from(billingBalances).where(eq(billingBalances.tenantId, tenantId));
  return { balance: n(row?.balance), reserved: n(row?.reserved) };
};

export const setBalance = (db: DbOrTx, tenantId: number, b: BalanceRow) =>
  db
    .update(billingBalances)
    .set({ balance: b.balance, reserved: b.reserved, updatedAt: sql`now()` })
    .where(eq(billingBalances.tenantId, tenantId));

/**
 * The dial's reservation in one statement under the row lock: holds min(available, cap) when at
 * least `min` is available; answers the amount held, or null (no credit).
 */
export const reserveCredit = async (db: DbOrTx, tenantId: number, min: number, cap: number): Promise<number | null> => {
  const [row] = await queryRows<{ amount: unknown }>(
    db,
    sql`with cur as (select balance, reserved from billing_balances where tenant_id = ${tenantId} for update)
        update billing_balances b set reserved = b.reserved + least(cur.balance - cur.reserved, ${cap}::bigint), updated_at = now()
        from cur where b.tenant_id = ${tenantId} and cur.balance - cur.reserved >= ${min}::bigint
        returning least(cur.balance - cur.reserved, ${cap}::bigint) as amount`,
  );
  return row ? n(row.amount) : null;
};

export const insertReservation = (
  db: DbOrTx,
  r: { callUuid: string; tenantId: number; amount: number; kind: string; planId: number; maxSeconds: number },
) => db.insert(billingReservations).values(r);

/** Removes the reservations of these calls; answers each one's amount. */
export const takeReservations = async (db: DbOrTx, tenantId: number, uuids: string[]) => {
  if (uuids.length === 0) return new Map<string, number>();
  const rows = await db
    .delete(billingReservations)
    .where(and(eq(billingReservations.tenantId, tenantId), inArray(billingReservations.callUuid, uuids)))
    .returning({ callUuid: billingReservations.callUuid, amount: billingReservations.amount });
  return new Map(rows.map((r) => [r.callUuid, n(r.amount)]));
};

export const reservationsOf = (db: DbOrTx, tenantId: number) =>
  db.select().from(billingReservations).where(eq(billingReservations.tenantId, tenantId));

// ---------- the ledger ----------

export type LedgerInsert = typeof billingLedger.$inferInsert;

/** Inserts ledger rows in one statement (the rows as one JSON parameter); answers their ids by idempotency key. */
export const insertLedgerRows = async (db: DbOrTx, rows: LedgerInsert[]) => {
  if (rows.length === 0) return [] as { id: number; idemKey: string }[];
  const json = JSON.stringify(
    rows.map((r) => ({
      tenant_id: r.tenantId,
      type: r.type,
      charge_kind: r.chargeKind ?? '',
      amount: r.amount,
      balance_after: r.balanceAfter,
      source_kind: r.sourceKind,
      source_id: r.sourceId,
      idem_key: r.idemKey,
      staff_id: r.staffId ?? null,
      operator: r.operator ?? '',
      remark: r.remark ?? '',
      created_at: r.createdAt instanceof Date ? r.createdAt.toISOString() : null,
    })),
  );
  const inserted = await queryRows<{ id: unknown; idem_key: string }>(
    db,
    sql`insert into billing_ledger (tenant_id, type, charge_kind, amount, balance_after, source_kind, source_id, idem_key, staff_id, operator, remark, created_at)
        select v.tenant_id, v.type, v.charge_kind, v.amount, v.balance_after, v.source_kind, v.source_id, v.idem_key, v.staff_id, v.operator,
               v.remark, coalesce(v.created_at, now())
        from json_to_recordset(${json}::json) as v(tenant_id int, type text, charge_kind text, amount bigint, balance_after bigint,
             source_kind text, source_id text, idem_key text, staff_id int, operator text, remark text, created_at timestamptz)
        returning id, idem_key`,
  );
  return inserted.map((r) => ({ id: n(r.id), idemKey: r.idem_key }));
};

export const findLedgerByKey = async (db: DbOrTx, tenantId: number, idemKey: string) =>
  (
    await db
      .select()
      .from(billingLedger)
      .where(and(eq(billingLedger.tenantId, tenantId), eq(billingLedger.idemKey, idemKey)))
  )[0];

export const ledgerSum = async (db: DbOrTx, tenantId: number) => {
  const [row] = await queryRows<{ s: unknown; c: unknown }>(
    db,
    sql`select coalesce(sum(amount), 0) as s, count(*) as c from billing_ledger where tenant_id = ${tenantId}`,
  );
  return { sum: n(row.s), count: n(row.c) };
};

// ---------- call usage (rating) ----------

export type UsageInsert = typeof billingCallUsage.$inferInsert;
export type UsageRow = typeof billingCallUsage.$inferSelect;

export const insertPendingUsage = (db: DbOrTx, row: UsageInsert) => db.insert(billingCallUsage).values(row).onConflictDoNothing();

/** Companies with calls waiting to be rated, oldest first. */
export const pendingTenants = async (db: DbOrTx, limit: number) =>
  (
    await queryRows<{ tenant_id: number }>(
      db,
      sql`select tenant_id from billing_call_usage where status = 0 group by tenant_id order by min(created_at) limit ${limit}`,
    )
  ).map((r) => Number(r.tenant_id));

/** The figures of a call's rating (re-rating writes them anew). */
export type UsageRated = {
  billedSeconds: number;
  firstBlock: number;
  increment: number;
  rate: number;
  connectFee: number;
  cost: number;
  amount: number;
  planId: number | null;
};

export const usageOfCalls = (db: DbOrTx, tenantId: number, uuids: string[]) =>
  uuids.length === 0
    ? Promise.resolve([] as UsageRow[])
    : db
        .select()
        .from(billingCallUsage)
        .where(
          and(eq(billingCallUsage.tenantId, tenantId), inArray(billingCallUsage.callUuid, uuids), eq(billingCallUsage.status, 1)),
        );

/** Rated calls of a company that started in [from, to) (re-rating). */
export const ratedCallsBetween = (db: DbOrTx, tenantId: number, from: Date, to: Date) =>
  db
    .select()
    .from(billingCallUsage)
    .where(
      and(
        eq(billingCallUsage.tenantId, tenantId),
        eq(billingCallUsage.status, 1),
        sql`${billingCallUsage.startAt} >= ${from} and ${billingCallUsage.startAt} < ${to}`,
      ),
    )
    .orderBy(asc(billingCallUsage.startAt))
    .for('update');

export const updateUsageCost = (db: DbOrTx, tenantId: number, uuid: string, v: UsageRated) =>
  db
    .update(billingCallUsage)
    .set(v)
    .where(and(eq(billingCallUsage.tenantId, tenantId), eq(billingCallUsage.callUuid, uuid)));

// ---------- recharges, settings, alerts, audits ----------

export const findRechargeByRef = async (db: DbOrTx, tenantId: number, ref: string) =>
  (
    await db
      .select()
      .from(billingRecharges)
      .where(and(eq(billingRecharges.tenantId, tenantId), eq(billingRecharges.ref, ref)))
  )[0];
export const insertRecharge = async (db: DbOrTx, row: typeof billingRecharges.$inferInsert) =>
  (await db.insert(billingRecharges).values(row).returning({ id: billingRecharges.id }))[0].id;

export const thresholdsOf = async (db: DbOrTx, tenantId: number): Promise<number[]> =>
  ((await db.select().from(billingSettings).where(eq(billingSettings.tenantId, tenantId)))[0]?.thresholds ?? []).map(Number);
export const saveThresholds = (db: DbOrTx, tenantId: number, thresholds: number[]) =>
  db
    .insert(billingSettings)
    .values({ tenantId, thresholds })
    .onConflictDoUpdate({ target: billingSettings.tenantId, set: { thresholds, updatedAt: sql`now()` } });

export const insertAlerts = async (db: DbOrTx, rows: (typeof billingAlerts.$inferInsert)[]) =>
  rows.length === 0 ? [] : db.insert(billingAlerts).values(rows).returning();
export const alertsOf = (db: DbOrTx, tenantId: number, limit: number) =>
  db.select().from(billingAlerts).where(eq(billingAlerts.tenantId, tenantId)).orderBy(desc(billingAlerts.id)).limit(limit);
export const unreadAlerts = async (db: DbOrTx, tenantId: number) => {
  const [row] = await queryRows<{ c: unknown }>(
    db,
    sql`select count(*) as c from billing_alerts where tenant_id = ${tenantId} and not is_read`,
  );
  return n(row.c);
};
export const markAlertsRead = (db: DbOrTx, tenantId: number) =>
  db
    .update(billingAlerts)
    .set({ isRead: true })
    .where(and(eq(billingAlerts.tenantId, tenantId), eq(billingAlerts.isRead, false)));

export const insertRerate = async (db: DbOrTx, row: typeof billingRerates.$inferInsert) =>
  (await db.insert(billingRerates).values(row).returning({ id: billingRerates.id }))[0].id;

export const finishRerate = (db: DbOrTx, tenantId: number, id: number, adjusted: number, delta: number) =>
  db
    .update(billingRerates)
    .set({ adjusted, delta })
    .where(and(eq(billingRerates.tenantId, tenantId), eq(billingRerates.id, id)));
