/**
 * Every pool move in one call, inside the caller's transaction: the customers move (customers-for-pools)
 * and the pool facts follow (pool-moves.repo). Used by discard, a task's discard, recycling, claim and allot.
 */
import type { DbOrTx } from '../../db/client';
import { assignOwner, releaseToPool } from '../customers/customers-for-pools';
import { clearEntries, type Pooled, recordPooled } from './pool-moves.repo';

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
