import { DELETED_KEEP_DAYS, FOLLOW_SOURCE, type RecycleResult, type RecycleSoon } from '@crm/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, type DbOrTx, queryRows } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { deliver, publish } from '../../lib/events/events';
import { formatDateTime } from '../../lib/time';
import { purgeDeletedBefore } from '../customers/customers-for-pools';
import { getStrategy } from '../strategy/strategy.service';
import { dropFactsOf } from './pool-bin.repo';
import type { Pooled } from './pool-moves.repo';
import * as recycle from './pool-recycle.repo';
import { moveIntoPool } from './pool-transfers';
import { listPools } from './pools.repo';

/** One sweep at a time across every server instance (transaction-scoped advisory lock). */
const RECYCLE_LOCK = 7_231_005;
/** The reason the history shows for a customer the system took back. */
export const RECYCLE_REASON = '系统回收';

/**
 * The recycle rules of a company's enabled pools, in pool order (the first pool whose rule is due takes
 * the customer); the pools come from the settings cache (every customer list reads these rules).
 */
const rulesOf = async (db: DbOrTx, tenantId: number): Promise<recycle.RecycleRule[]> => {
  const rows = await listPools(db, tenantId, 0);
  return rows
    .filter((p) => p.rules.recycle.isOn === 1 && (p.rules.recycle.noFollowDays > 0 || p.rules.recycle.noDealDays > 0))
    .map((p) => ({
      poolId: p.id,
      departmentIds: p.useDepartmentIds,
      noFollowDays: p.rules.recycle.noFollowDays,
      noDealDays: p.rules.recycle.noDealDays,
      logic: p.rules.recycle.logic,
      stageIds: p.rules.recycle.cmNids,
      labelIds: p.rules.recycle.cmClids,
    }));
};

/**
 * The recycling sweep: for every company (or one), every due private customer returns to its
 * pool. Set-based SQL per pool rule; idempotent (a moved customer is no longer private);
 * skipped when another instance holds the lock. Time comes from the business clock.
 */
export const runRecycle = async (db: Db, tenantId?: number): Promise<RecycleResult> => {
  const at = now();
  const events: number[] = [];
  const result = await db.transaction(async (tx) => {
    const [lock] = await queryRows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${RECYCLE_LOCK}) as ok`);
    if (!lock?.ok) return { recycled: 0, ranAt: formatDateTime(at), isSkipped: true };
    const tenants = tenantId === undefined ? await recycle.tenantsWithRecycling(tx) : [tenantId];
    let recycled = 0;
    for (const t of tenants) {
      for (const rule of await rulesOf(tx, t)) {
        const due = await recycle.lockDue(tx, t, rule, at);
        const moved =
          due.length === 0
            ? []
            : await moveIntoPool(tx, {
                tenantId: t,
                ids: due,
                ownerScope: null,
                poolId: rule.poolId,
                reasonId: 0,
                reason: RECYCLE_REASON,
                discardedBy: null,
                at,
              });
        recycled += moved.length;
        if (moved.length > 0) events.push(await publishPooled(tx, t, moved, { staffId: null, reason: RECYCLE_REASON, at }));
      }
    }
    return { recycled, ranAt: formatDateTime(at), isSkipped: false };
  });
  await deliver(db, events);
  return result;
};

/**
 * Customers went into a pool: the event (in the move's transaction) lets the follow-up history
 * write its 丢弃/回收 records (lib/events). Returns the event id to deliver after the commit.
 */
export const publishPooled = (
  tx: DbOrTx,
  tenantId: number,
  moved: Pooled[],
  p: { staffId: number | null; reason: string; at: Date },
) =>
  publish(tx, tenantId, 'customers.pooled', {
    moved: moved.map((m) => [m.id, m.stage_id]),
    staffId: p.staffId,
    sourceType: p.staffId === null ? FOLLOW_SOURCE.system : FOLLOW_SOURCE.crm,
    reason: p.reason,
    at: p.at.toISOString(),
  });

/**
 * 即将回收: the caller's customers that the sweep will take within recycleRemind days,
 * computed with the same rules and expressions as the sweep; the earliest pool wins.
 */
export const recycleSoon = async (
  db: Db,
  actor: Actor,
  limit = 50,
): Promise<{ list: RecycleSoon[]; count: number; days: number }> => {
  const { recycleRemind } = await getStrategy(db, actor.tenantId);
  const at = now();
  const until = new Date(at.getTime() + recycleRemind * 86_400_000);
  const rules = await rulesOf(db, actor.tenantId);
  const names = new Map((await listPools(db, actor.tenantId)).map((p) => [p.id, p.name]));
  const best = new Map<number, RecycleSoon & { at: number }>();
  for (const rule of rules) {
    for (const r of await recycle.dueBefore(db, actor.tenantId, rule, until, actor.staffId, 500)) {
      const due = new Date(r.due_at).getTime();
      const id = Number(r.id);
      const seen = best.get(id);
      if (seen && seen.at <= due) continue;
      best.set(id, {
        cmCtid: id,
        name: r.name,
        cmHsidName: names.get(rule.poolId) ?? '',
        recycleTime: formatDateTime(new Date(due)),
        at: due,
      });
    }
  }
  const all = [...best.values()].sort((a, b) => a.at - b.at);
  return { list: all.slice(0, limit).map(({ at: _, ...rest }) => rest), count: all.length, days: recycleRemind };
};

// ---------- 预计回收时间 on the private lists (read by the customers service) ----------

/**
 * When the sweep would take each of these customers back (the earliest due time over the
 * enabled pools' rules that cover it), with 即将回收 when it falls within recycleRemind days.
 * Customers no rule covers are absent. One query for the whole page.
 */
export const exRecoveryTimes = async (
  db: DbOrTx,
  tenantId: number,
  ids: number[],
): Promise<Map<number, { time: string; isSoon: boolean }>> => {
  const out = new Map<number, { time: string; isSoon: boolean }>();
  if (ids.length === 0) return out;
  const rules = await rulesOf(db, tenantId);
  if (rules.length === 0) return out;
  const { recycleRemind } = await getStrategy(db, tenantId);
  const until = now().getTime() + recycleRemind * 86_400_000;
  for (const r of await recycle.dueTimesOf(db, tenantId, rules, ids)) {
    if (r.due_at === null) continue;
    const due = new Date(r.due_at);
    out.set(Number(r.id), { time: formatDateTime(due), isSoon: due.getTime() <= until });
  }
  return out;
};

/** The expected recovery time as an SQL expression over a list query's `c`; null when no rule is on. */
export const exRecoveryExpr = async (db: DbOrTx, tenantId: number): Promise<SQL | null> => {
  const rules = await rulesOf(db, tenantId);
  return rules.length === 0 ? null : recycle.dueTimeOfListed(tenantId, rules);
};

// ---------- purge of long-deleted customers ----------

const PURGE_BATCH = 5_000;

/** Deletes for good the customers soft-deleted more than DELETED_KEEP_DAYS ago (business clock), in batches. */
export const purgeDeleted = async (db: Db): Promise<number> => {
  const before = new Date(now().getTime() - DELETED_KEEP_DAYS * 86_400_000);
  let purged = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const ids = await purgeDeletedBefore(tx, before, PURGE_BATCH);
      await dropFactsOf(tx, ids);
      return ids.length;
    });
    purged += n;
    if (n < PURGE_BATCH) return purged;
  }
};
