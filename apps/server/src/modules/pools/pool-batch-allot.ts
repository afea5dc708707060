import type { BatchAllotBody, BatchAllotResult } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { deliver } from '../../lib/events/events';
import { customerRoom, viewerOf } from '../customers/customers.service';
import { countOwnedBy, transferChunk } from '../customers/customers-for-pools';
import { defineJob, enqueueJob, restoreActor, type StoredActor, storeActor } from '../jobs/jobs.service';
import { findStaffMember } from '../staff/staff-members';
import { publishMoved, requireReceiver } from './pool-moves.service';

/** Splits `total` as evenly as possible under per-receiver capacities (water filling). */
export const evenSplit = (total: number, caps: number[]): number[] => {
  const out = caps.map(() => 0);
  let left = total;
  let open = caps.map((_, i) => i).filter((i) => caps[i] > 0);
  while (left > 0 && open.length > 0) {
    const share = Math.max(1, Math.floor(left / open.length));
    for (const i of open) {
      if (left === 0) break;
      const give = Math.min(share, caps[i] - out[i], left);
      out[i] += give;
      left -= give;
    }
    open = open.filter((i) => out[i] < caps[i]);
  }
  return out;
};

const CHUNK = 10_000;

/** What a batch allocation stores: the caller and the request body, as plain JSON. */
type BatchAllotPayload = { actor: StoredActor; body: BatchAllotBody };

/**
 * What each committed chunk records with it: the counts so far (a BatchAllotResult, what the
 * job shows if it ends failed) and the plan, fixed at the start: total, per-receiver quotas and
 * what is still to move. A resumed attempt goes on from it, so no receiver gets more than its
 * share; a chunk only ever moves customers the source still owns, so nothing moves twice.
 */
type BatchAllotCheckpoint = BatchAllotResult & { plan: { total: number; quotas: number[]; remaining: number[] } };

/** The source and receivers of a batch allocation, checked against the caller's scope. */
const batchAllotParties = async (db: Db, actor: Actor, body: BatchAllotBody) => {
  const v = await viewerOf(db, actor);
  const from = await findStaffMember(db, actor.tenantId, body.fromCmSid, true);
  if (!from || (v.scope !== null && !v.scope.includes(from.id)))
    throw new AppError('ALLOT_TARGET_INVALID', '原负责人不存在或不在您的管理范围内');
  const receivers: NonNullable<Awaited<ReturnType<typeof findStaffMember>>>[] = [];
  for (const id of [...new Set(body.toCmSids)]) {
    if (id === from.id) throw new AppError('ALLOT_TARGET_INVALID', '接收人不能是原负责人');
    receivers.push(await requireReceiver(db, v, id));
  }
  return { from, receivers };
};

/**
 * batchallot (SPEC §7): every customer of one staff member goes to several, evenly (a leaver's
 * book), as a durable job with progress. Set-based: each chunk of 10,000 is one UPDATE plus its
 * history, committed with its checkpoint; after a crash the job resumes from the last one.
 */
export const startBatchAllot = async (db: Db, actor: Actor, body: BatchAllotBody): Promise<string> => {
  await batchAllotParties(db, actor, body);
  return enqueueJob(db, actor, 'allot', { actor: storeActor(actor), body } satisfies BatchAllotPayload);
};

defineJob<BatchAllotPayload>('allot', {
  onCrash: 'resume',
  run: async ({ db }, ctx, payload) => {
    const actor = restoreActor(payload.actor);
    const { body } = payload;
    const { from, receivers } = await batchAllotParties(db, actor, body);
    const saved = ctx.resume?.result as BatchAllotCheckpoint | null | undefined;
    let plan: BatchAllotCheckpoint['plan'];
    let moved = 0;
    if (saved?.plan?.quotas.length === receivers.length) {
      plan = { ...saved.plan, remaining: [...saved.plan.remaining] };
      moved = saved.moved;
    } else {
      // first attempt, or a crash before the first chunk committed (nothing moved yet)
      const total = await countOwnedBy(db, actor.tenantId, from.id);
      const caps: number[] = [];
      for (const r of receivers) caps.push(Math.min(total, (await customerRoom(db, actor.tenantId, r.id)).left));
      const quotas = evenSplit(total, caps);
      plan = { total, quotas, remaining: [...quotas] };
    }
    await ctx.setTotal(plan.total);
    const { total, quotas, remaining } = plan;
    const summary = (movedSoFar: number, left: number[]): BatchAllotResult => ({
      moved: movedSoFar,
      notAssigned: total - movedSoFar,
      perStaff: receivers.map((r, i) => ({ cmSid: r.id, name: r.name, count: quotas[i] - left[i] })),
    });
    const at = now();
    const nameOf = new Map(receivers.map((r) => [r.id, r.name]));
    for (;;) {
      const left = remaining.reduce((a, b) => a + b, 0);
      if (left === 0) break;
      const size = Math.min(CHUNK, left);
      // Split the chunk in proportion to what each receiver still has to get, so the totals end exactly at the quotas.
      const part = remaining.map((r) => Math.floor((r * size) / left));
      let extra = size - part.reduce((a, b) => a + b, 0);
      for (let i = 0; extra > 0 && i < part.length; i++) {
        if (part[i] < remaining[i]) {
          part[i] += 1;
          extra -= 1;
        }
      }
      let lo = 0;
      const ranges = receivers.flatMap((r, i) => {
        const range = { staffId: r.id, departmentId: r.departmentId, lo, hi: lo + part[i] };
        lo += part[i];
        return part[i] > 0 ? [range] : [];
      });
      const { n, eventId } = await db.transaction(async (tx) => {
        for (const r of [...receivers].sort((a, b) => a.id - b.id))
          await tx.execute(sql`select pg_advisory_xact_lock(${actor.tenantId}, ${r.id})`);
        const rows = await transferChunk(tx, {
          tenantId: actor.tenantId,
          fromStaffId: from.id,
          ranges,
          isStageReset: body.isNodeId === 1,
          at,
        });
        const count = rows.length;
        // one event per chunk: the follow-up history writes the chunk's 批量转移 records
        const id =
          count === 0
            ? null
            : await publishMoved(
                tx,
                actor.tenantId,
                'transfer',
                rows.map((r) => ({
                  ...r,
                  remark: `批量转移：${from.name} → ${nameOf.get(Number(r.owner_id))}`,
                  to_staff_id: r.owner_id,
                })),
                { staffId: actor.staffId, at },
              );
        // the plan and what is left, committed with the chunk: a resumed attempt goes on from here
        const after = count === 0 ? remaining : remaining.map((r, i) => r - part[i]);
        const next: BatchAllotCheckpoint = { ...summary(moved + count, after), plan: { total, quotas, remaining: after } };
        await ctx.checkpoint(tx, moved + count, next);
        return { n: count, eventId: id };
      });
      if (eventId !== null) await deliver(db, [eventId]);
      if (n === 0) break;
      for (let i = 0; i < part.length; i++) remaining[i] -= part[i];
      moved += n;
      await ctx.progress(moved);
    }
    const result = summary(moved, remaining);
    return { result };
  },
});
