/**
 * Every pool move in one call, inside the caller's transaction: the customers move (customers-for-pools)
 * and the pool facts follow (pool-moves.repo). Used by discard, a task's discard, recycling, claim and allot.
 */
import type { DbOrTx } from '../../db/client';
import { assignOwner, pooledAmong, releaseToPool } from '../customers/customers-for-pools';
import { type ClaimCandidate, clearEntries, entryFacts, type Pooled, recordPooled } from './pool-moves.repo';

/** Private customers among `ids` (owned by someone in `ownerScope`, null = anyone) go into pool `poolId` with a reason. */
export const moveIntoPool = async (
  tx: DbOrTx,
  p: {
    tenantId: number;
    ids: number[];
    ownerScope: number[] | null;
    poolId: number;
    reasonId: number;
    reason: string;
    /** who discarded them; null = the system (recycling) */
    discardedBy: number | null;
    at: Date;
  },
): Promise<Pooled[]> => {
  const released = await releaseToPool(tx, p);
  return recordPooled(tx, p, released);
};

/** Customers go to a staff member (claim: only pooled ones; allot: any); their pool entries go. By id. */
export const assignToStaff = async (tx: DbOrTx, p: Parameters<typeof assignOwner>[1]) => {
  const moved = await assignOwner(tx, p);
  await clearEntries(
    tx,
    p.tenantId,
    moved.map((m) => Number(m.id)),
  );
  return moved;
};

/** Pool customers among `ids` that sit in one of `poolIds` (null = any pool), with their entry facts, by id. */
export const claimCandidates = async (
  tx: DbOrTx,
  tenantId: number,
  ids: number[],
  poolIds: number[] | null,
): Promise<ClaimCandidate[]> => {
  const pooled = await pooledAmong(tx, tenantId, ids, poolIds);
  const facts = await entryFacts(
    tx,
    tenantId,
    pooled.map((c) => Number(c.id)),
  );
  return pooled.map((c) => {
    const e = facts.get(Number(c.id));
    return { ...c, last_owner_id: e?.last_owner_id ?? null, pooled_at: e?.pooled_at ?? null };
  });
};
