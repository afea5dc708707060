import { type AllotBody, DISCARD_OTHER, type FollowDownBody, type MoveResult } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { type DomainEventMap, deliver, publish } from '../../lib/events/events';
import { formatDateTime } from '../../lib/time';
import { customerRoom, requireDetailFlag, type Viewer, viewerOf, visibleSql } from '../customers/customers.service';
import { allotableAmong } from '../customers/customers-for-pools';
import { staffNames } from '../staff/staff-lookup';
import { findStaffMember } from '../staff/staff-members';
import { claimCooldowns } from './claim-cooldown';
import * as moves from './pool-moves.repo';
import { assignToStaff, claimCandidates, moveIntoPool } from './pool-transfers';
import * as repo from './pools.repo';
import { requireEnabledReason, requireUsablePool } from './pools.service';
import { publishPooled } from './pools-recycle';

/** Moves of customers between owners and pools: discard (followdown), claim (followup), allot, a task's discard. */

const shanghaiDay = (at: Date) => formatDateTime(at).slice(0, 10);

/**
 * Customers changed owner: the event (in the move's transaction) lets the follow-up history write
 * its records (lib/events), grouped by receiver and text. Returns the event id to deliver after the commit.
 */
export const publishMoved = (
  tx: DbOrTx,
  tenantId: number,
  kind: DomainEventMap['customers.moved']['kind'],
  rows: (moves.Moved & { to_staff_id: number })[],
  p: { staffId: number; at: Date },
) => {
  const groups = new Map<string, DomainEventMap['customers.moved']['groups'][number]>();
  for (const r of rows) {
    const toStaffId = Number(r.to_staff_id);
    const key = `${toStaffId}\u0000${r.remark}`;
    const g = groups.get(key) ?? { toStaffId, reason: r.remark, moved: [] };
    g.moved.push([Number(r.id), r.stage_id === null ? null : Number(r.stage_id)]);
    groups.set(key, g);
  }
  return publish(tx, tenantId, 'customers.moved', {
    kind,
    staffId: p.staffId,
    groups: [...groups.values()],
    at: p.at.toISOString(),
  });
};

/** Names of the pools moved customers came from (the claim and allot history texts). */
const namesOfPools = async (db: DbOrTx, tenantId: number, moved: readonly { pool_id: number | null }[]) => {
  const ids = [...new Set(moved.flatMap((m) => (m.pool_id === null ? [] : [Number(m.pool_id)])))];
  return new Map((await repo.findPools(db, tenantId, ids)).map((p) => [p.id, p.name]));
};

// ---------- discard (followdown) ----------

/** followdown (SPEC §5): the caller's visible private customers go into a pool he may use, with a reason. */
export const discardCustomers = async (db: Db, actor: Actor, body: FollowDownBody): Promise<number> => {
  requireDetailFlag(actor, 'discard');
  const pool = await requireUsablePool(db, actor, body.cmHsid);
  let reason = body.reason.trim();
  if (body.cmCdid === DISCARD_OTHER) {
    if (!reason) throw new AppError('DISCARD_REASON_TEXT_REQUIRED');
  } else {
    reason = (await requireEnabledReason(db, actor.tenantId, body.cmCdid)).name;
  }
  const v = await viewerOf(db, actor);
  const at = now();
  const { moved, eventId } = await db.transaction(async (tx) => {
    const rows = await moveIntoPool(tx, {
      tenantId: actor.tenantId,
      ids: body.cmCtids,
      ownerScope: v.scope,
      poolId: pool.id,
      reasonId: body.cmCdid,
      reason,
      discardedBy: actor.staffId,
      at,
    });
    const id = rows.length === 0 ? null : await publishPooled(tx, actor.tenantId, rows, { staffId: actor.staffId, reason, at });
    return { moved: rows, eventId: id };
  });
  if (eventId !== null) await deliver(db, [eventId]);
  if (moved.length === 0) throw new AppError('DISCARD_NONE', '所选客户已不在您的客户中（可能已被丢弃或转移）');
  return moved.length;
};

// ---------- claim (followup) ----------

type Refusal = { key: 'CLAIM_COOLDOWN' | 'CLAIM_DAILY_LIMIT' | 'CUSTOMER_LIMIT' | 'CLAIM_NONE'; msg: string; n: number };

/**
 * followup (SPEC §7): the caller takes customers out of the pools he may use. Rules: each
 * pool's previous-owner cooldown and daily cap, and the company's maxCustomer. One staff
 * member's claims are serialised (advisory lock), and the update re-checks `owner_id is null`
 * on the locked row, so of two staff claiming the same customer at once exactly one gets it.
 */
export const claimCustomers = async (db: Db, actor: Actor, ids: number[]): Promise<MoveResult> => {
  const v = await viewerOf(db, actor);
  const at = now();
  const day = shanghaiDay(at);
  const wanted = [...new Set(ids)];
  const { result, eventId } = await db.transaction(async (tx) => {
    // Same key as customer creation: claims and creations of one person cannot race maxCustomer.
    await tx.execute(sql`select pg_advisory_xact_lock(${actor.tenantId}, ${actor.staffId})`);
    const candidates = await claimCandidates(tx, actor.tenantId, wanted, v.poolIds);
    const refusals: Refusal[] = [];
    const refuse = (key: Refusal['key'], msg: string, n: number) => {
      if (n > 0) refusals.push({ key, msg, n });
    };
    refuse('CLAIM_NONE', '客户已被他人领取或不在您可用的公海中', wanted.length - candidates.length);

    const poolsById = new Map(
      (await repo.findPools(tx, actor.tenantId, [...new Set(candidates.map((c) => Number(c.pool_id)))])).map((p) => [p.id, p]),
    );
    // Previous-owner cooldown (per pool).
    const cooldowns = await claimCooldowns(tx, actor, candidates, at);
    const cooling = cooldowns.size;
    const coolUntil = Math.max(0, ...[...cooldowns.values()].map((d) => d.getTime()));
    const afterCooldown = candidates.filter((c) => !cooldowns.has(Number(c.id)));
    if (cooling > 0)
      refuse(
        'CLAIM_COOLDOWN',
        `您是原负责人，${formatDateTime(new Date(coolUntil)).slice(0, 16)} 之前不能重新领取${cooling > 1 ? `（${cooling}个客户）` : ''}`,
        cooling,
      );

    // Daily cap (per pool).
    const today = await moves.claimsToday(tx, actor.tenantId, actor.staffId, day);
    const taking = new Map<number, number>();
    const afterCap = afterCooldown.filter((c) => {
      const poolId = Number(c.pool_id);
      const cap = poolsById.get(poolId)?.rules.claim.dailyMax ?? 0;
      const n = taking.get(poolId) ?? 0;
      if (cap > 0 && (today.get(poolId) ?? 0) + n >= cap) {
        refuse('CLAIM_DAILY_LIMIT', `今日从「${poolsById.get(poolId)?.name}」领取已达上限（每天${cap}个）`, 1);
        return false;
      }
      taking.set(poolId, n + 1);
      return true;
    });

    // maxCustomer (SPEC §3 Strategy, 0 = 不限制).
    let chosen = afterCap;
    const room = await customerRoom(tx, actor.tenantId, actor.staffId);
    if (chosen.length > room.left) {
      refuse('CUSTOMER_LIMIT', room.message, chosen.length - room.left);
      chosen = chosen.slice(0, room.left);
    }

    const assigned =
      chosen.length === 0
        ? []
        : await assignToStaff(tx, {
            tenantId: actor.tenantId,
            ids: chosen.map((c) => Number(c.id)),
            toStaffId: actor.staffId,
            toDepartmentId: actor.departmentId,
            isStageReset: false,
            onlyPooled: true,
            at,
          });
    // the history text of a claim: the pool it came from
    const poolNames = await namesOfPools(tx, actor.tenantId, assigned);
    const moved = assigned.map((m) => ({ ...m, remark: (m.pool_id !== null && poolNames.get(Number(m.pool_id))) || '' }));
    refuse('CLAIM_NONE', '客户已被他人领取', chosen.length - moved.length);
    if (moved.length === 0) {
      // Nothing moved: the one most telling reason is the error.
      const first = refusals.find((r) => r.key !== 'CLAIM_NONE') ?? refusals[0];
      throw new AppError(first?.key ?? 'CLAIM_NONE', first?.msg);
    }
    const perPool = new Map<number, number>();
    for (const m of moved) perPool.set(Number(m.pool_id), (perPool.get(Number(m.pool_id)) ?? 0) + 1);
    await moves.addClaims(tx, actor.tenantId, actor.staffId, day, perPool);
    const id = await publishMoved(
      tx,
      actor.tenantId,
      'claim',
      moved.map((m) => ({ ...m, to_staff_id: actor.staffId })),
      { staffId: actor.staffId, at },
    );
    const result: MoveResult = { count: moved.length, failed: wanted.length - moved.length, reasons: refusals.map((r) => r.msg) };
    return { result, eventId: id };
  });
  await deliver(db, [eventId]);
  return result;
};

// ---------- allocation (allot / batchallot) ----------

/** A receiver: an active staff member inside the caller's data scope. */
export const requireReceiver = async (db: Db, v: Viewer, id: number) => {
  const s = await findStaffMember(db, v.actor.tenantId, id);
  if (!s?.isActive || (v.scope !== null && !v.scope.includes(id))) throw new AppError('ALLOT_TARGET_INVALID');
  return s;
};

/** allot (SPEC §7): selected customers (private in scope, or pooled) go to one staff member; maxCustomer respected. */
export const allotCustomers = async (db: Db, actor: Actor, body: AllotBody): Promise<MoveResult> => {
  const v = await viewerOf(db, actor);
  const target = await requireReceiver(db, v, body.cmSid);
  const at = now();
  const { result, eventId } = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${actor.tenantId}, ${target.id})`);
    let ids = await allotableAmong(tx, actor.tenantId, body.cmCtids, target.id, visibleSql(v).any);
    const reasons: string[] = [];
    const skipped = body.cmCtids.length - ids.length;
    if (skipped > 0) reasons.push(`${skipped}个客户已属于${target.name}或不在您的管理范围内`);
    const room = await customerRoom(tx, actor.tenantId, target.id);
    if (ids.length > room.left) {
      reasons.push(`${target.name}的客户数量将超过上限（${room.maxCustomer}个），${ids.length - room.left}个客户未分配`);
      ids = ids.slice(0, room.left);
    }
    if (ids.length === 0) throw new AppError('CUSTOMER_LIMIT', reasons.join('；') || undefined);
    const assigned = await assignToStaff(tx, {
      tenantId: actor.tenantId,
      ids,
      toStaffId: target.id,
      toDepartmentId: target.departmentId,
      isStageReset: body.isNodeId === 1,
      onlyPooled: false,
      at,
    });
    // the history text of an allocation: the previous owner, or else the pool it came from
    const [ownerNames, poolNames] = await Promise.all([
      staffNames(
        tx,
        actor.tenantId,
        assigned.flatMap((m) => (m.old_owner_id === null ? [] : [Number(m.old_owner_id)])),
      ),
      namesOfPools(tx, actor.tenantId, assigned),
    ]);
    const moved = assigned.map((m) => {
      const owner = m.old_owner_id === null ? undefined : ownerNames.get(Number(m.old_owner_id));
      const from =
        owner !== undefined
          ? `（原负责人：${owner}）`
          : `（来自公海「${(m.pool_id !== null && poolNames.get(Number(m.pool_id))) || ''}」）`;
      return { ...m, remark: `分配给${target.name}${from}` };
    });
    const id =
      moved.length === 0
        ? null
        : await publishMoved(
            tx,
            actor.tenantId,
            'allot',
            moved.map((m) => ({ ...m, to_staff_id: target.id })),
            { staffId: actor.staffId, at },
          );
    const result: MoveResult = { count: moved.length, failed: body.cmCtids.length - moved.length, reasons };
    return { result, eventId: id };
  });
  if (eventId !== null) await deliver(db, [eventId]);
  return result;
};

// ---------- discards a seat task makes (issue 15) ----------

/**
 * A seat task discards customers in its own transaction (blacklisted: reason 黑名单; not connected
 * after the last attempt: the task's reason) into `poolId`, or the company's first enabled pool
 * when 0. Returns the customers.pooled event id to deliver after the commit (null: none moved).
 */
export const discardForTask = async (
  tx: DbOrTx,
  p: { tenantId: number; customerIds: number[]; poolId: number; reasonId: number; reason: string; staffId: number; at: Date },
): Promise<number | null> => {
  const poolId = p.poolId || (await repo.listPools(tx, p.tenantId, 0))[0]?.id;
  if (!poolId || p.customerIds.length === 0) return null;
  const rows = await moveIntoPool(tx, { ...p, ids: p.customerIds, ownerScope: null, poolId, discardedBy: p.staffId });
  if (rows.length === 0) return null;
  return publishPooled(tx, p.tenantId, rows, { staffId: p.staffId, reason: p.reason, at: p.at });
};
