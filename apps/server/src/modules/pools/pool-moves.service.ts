import {
  type AllotBody,
  DEL_CONFIRM_TEXT,
  DEL_TYPE,
  DELETED_KEEP_DAYS,
  type DelAllBody,
  type DeletedCustomer,
  type DeletedListQuery,
  DISCARD_OTHER,
  type FollowDownBody,
  type ListData,
  type MoveResult,
  type SeasListBody,
  type SeasRowExtra,
} from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { type DomainEventMap, deliver, publish } from '../../lib/events/events';
import { formatDateTime } from '../../lib/time';
import {
  customerRoom,
  listCustomers,
  requireDetailFlag,
  type Viewer,
  viewerOf,
  visibleSql,
} from '../customers/customers.service';
import { startCustomerExport } from '../customers/customers-export';
import { seasFilters } from '../customers/customers-filters';
import { claimCooldowns } from './claim-cooldown';
import * as moves from './pool-moves.repo';
import * as repo from './pools.repo';
import { intArray } from './pools.repo';
import { requireEnabledReason, requireUsablePool } from './pools.service';
import { publishPooled } from './pools-recycle';

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
    const rows = await moves.discardToPool(tx, {
      tenantId: actor.tenantId,
      ids: body.cmCtids,
      ownerScope: v.scope,
      poolId: pool.id,
      reasonId: body.cmCdid,
      reason,
      staffId: actor.staffId,
      at,
    });
    const id = rows.length === 0 ? null : await publishPooled(tx, actor.tenantId, rows, { staffId: actor.staffId, reason, at });
    return { moved: rows, eventId: id };
  });
  if (eventId !== null) await deliver(db, [eventId]);
  if (moved.length === 0) throw new AppError('DISCARD_NONE', '所选客户已不在您的客户中（可能已被丢弃或转移）');
  return moved.length;
};

// ---------- the pool list (seaslist / seasexportlist) ----------

/** seaslist: customers of the pools the caller may use, numbers masked per seaPhoneEncryp. */
export const listSeas = async (db: Db, actor: Actor, f: SeasListBody) => {
  const data = await listCustomers(db, actor, 'seas', f, seasFilters(f));
  const entries = new Map(
    (
      await repo.entriesOf(
        db,
        actor.tenantId,
        data.list.map((r) => r.cmCtid),
      )
    ).map((e) => [Number(e.customer_id), e]),
  );
  return {
    ...data,
    list: data.list.map((r) => {
      const e = entries.get(r.cmCtid);
      const extra: SeasRowExtra = {
        cmHsid: e ? Number(e.pool_id) : null,
        cmHsidName: e?.pool_name ?? '',
        cmCdid: e ? Number(e.reason_id) : null,
        discardReason: e?.reason ?? '',
        discardTime: e ? formatDateTime(e.pooled_at) : '',
        lastOwnerName: e?.last_owner_name ?? '',
      };
      return { ...r, ...extra };
    }),
  };
};

/** seasexportlist: the pool list as a durable export job (its pool/reason filters are rebuilt from the stored body). */
export const exportSeas = (db: Db, actor: Actor, f: SeasListBody) => startCustomerExport(db, actor, 'seas', f);

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
    const candidates = await moves.claimCandidates(tx, actor.tenantId, wanted, v.poolIds);
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

    const moved =
      chosen.length === 0
        ? []
        : await moves.assignCustomers(tx, {
            tenantId: actor.tenantId,
            ids: chosen.map((c) => Number(c.id)),
            toStaffId: actor.staffId,
            toDepartmentId: actor.departmentId,
            isStageReset: false,
            onlyPooled: true,
            remark: sql`coalesce(pl.name, '')`,
            at,
          });
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
  const s = await repo.findStaffMember(db, v.actor.tenantId, id);
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
    const rows = await tx.execute(
      sql`select c.id from customers c
          where c.tenant_id = ${actor.tenantId} and c.id = any(${intArray(body.cmCtids)}) and c.deleted_at is null
            and c.owner_id is distinct from ${target.id} and ${visibleSql(v).any}
          order by c.id`,
    );
    let ids = (rows as unknown as { rows: { id: number }[] }).rows.map((r) => Number(r.id));
    const reasons: string[] = [];
    const skipped = body.cmCtids.length - ids.length;
    if (skipped > 0) reasons.push(`${skipped}个客户已属于${target.name}或不在您的管理范围内`);
    const room = await customerRoom(tx, actor.tenantId, target.id);
    if (ids.length > room.left) {
      reasons.push(`${target.name}的客户数量将超过上限（${room.maxCustomer}个），${ids.length - room.left}个客户未分配`);
      ids = ids.slice(0, room.left);
    }
    if (ids.length === 0) throw new AppError('CUSTOMER_LIMIT', reasons.join('；') || undefined);
    const moved = await moves.assignCustomers(tx, {
      tenantId: actor.tenantId,
      ids,
      toStaffId: target.id,
      toDepartmentId: target.departmentId,
      isStageReset: body.isNodeId === 1,
      onlyPooled: false,
      remark: sql`'分配给' || ${target.name} || case when s.name is not null then '（原负责人：' || s.name || '）' else '（来自公海「' || coalesce(pl.name, '') || '」）' end`,
      at,
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

// ---------- delall ----------

/** delall: soft-deletes a whole scope (DEL_TYPE) after the typed confirmation; recoverable for 30 days. */
export const deleteAll = async (db: Db, actor: Actor, body: DelAllBody): Promise<number> => {
  if (body.confirmText.trim() !== DEL_CONFIRM_TEXT) throw new AppError('DELALL_CONFIRM');
  const { pooled, own } = deleteScopes(await viewerOf(db, actor));
  const scope = body.delType === DEL_TYPE.pools ? pooled : body.delType === DEL_TYPE.private ? own : sql`(${own} or ${pooled})`;
  return db.transaction((tx) => moves.softDeleteScope(tx, actor.tenantId, scope, now()));
};

/** The customers an admin may bulk-delete (and restore): pool customers of usable pools, private ones in the data scope. */
const deleteScopes = (v: Viewer) => visibleSql(v);

// ---------- 回收站: deleted customers, restorable for DELETED_KEEP_DAYS ----------

const KEEP_MS = DELETED_KEEP_DAYS * 86_400_000;
const keptSince = () => new Date(now().getTime() - KEEP_MS);

/** deletedlist: customers of the caller's scope deleted within the last 30 days, newest first. */
export const listDeleted = async (db: Db, actor: Actor, q: DeletedListQuery): Promise<ListData<DeletedCustomer>> => {
  const { pooled, own } = deleteScopes(await viewerOf(db, actor));
  const { rows, count } = await moves.deletedPage(db, {
    tenantId: actor.tenantId,
    scope: sql`(${own} or ${pooled})`,
    since: keptSince(),
    name: q.name,
    limit: q.limit,
    offset: (q.page - 1) * q.limit,
  });
  return {
    list: rows.map((r) => {
      const at = new Date(r.deleted_at);
      return {
        cmCtid: Number(r.id),
        name: r.name,
        ownerName: r.owner_name ?? '',
        cmHsidName: r.owner_name ? '' : (r.pool_name ?? ''),
        deleteTime: formatDateTime(at),
        expireTime: formatDateTime(new Date(at.getTime() + KEEP_MS)),
      };
    }),
    count,
  };
};

/** restore: clears deleted_at; refused (the whole request) when any chosen customer was deleted more than 30 days ago. */
export const restoreCustomers = async (db: Db, actor: Actor, ids: number[]): Promise<number> => {
  const { pooled, own } = deleteScopes(await viewerOf(db, actor));
  const since = keptSince();
  const found = await moves.deletedAmong(db, actor.tenantId, ids, sql`(${own} or ${pooled})`);
  if (found.length === 0) throw new AppError('CUSTOMER_NOT_FOUND');
  if (found.some((r) => new Date(r.deleted_at).getTime() < since.getTime())) throw new AppError('RESTORE_EXPIRED');
  return db.transaction((tx) =>
    moves.restoreDeleted(
      tx,
      actor.tenantId,
      found.map((r) => Number(r.id)),
      since,
      now(),
    ),
  );
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
  const poolId = p.poolId || (await repo.listPools(tx, p.tenantId, 0))[0]?.pool.id;
  if (!poolId || p.customerIds.length === 0) return null;
  const rows = await moves.discardToPool(tx, { ...p, ids: p.customerIds, ownerScope: null, poolId });
  if (rows.length === 0) return null;
  return publishPooled(tx, p.tenantId, rows, { staffId: p.staffId, reason: p.reason, at: p.at });
};
