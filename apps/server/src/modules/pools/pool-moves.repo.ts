import { sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { intArray } from '../../db/int-array';
import { poolClaimCounts, poolEntries } from '../../db/schema';
import type { Released } from '../customers/customers-for-pools';

/**
 * The pool facts of customer moves (the customers themselves move through customers-for-pools, in
 * the same transaction): who went into which pool and why, today's claims. Set-based: one
 * statement per move however many customers; the follow history reacts to the move's event.
 */

/** A customer that changed owner: its stage after the move and its history text (customers.moved). */
export type Moved = { id: number; stage_id: number | null; remark: string };
/** A customer that went into a pool, with its stage (the follow-up history reacts: customers.pooled). */
export type Pooled = { id: number; stage_id: number | null };

/** Customers released into pool `poolId`: their entries (reason, who discarded, last owner) replace any earlier one. */
export const recordPooled = async (
  tx: DbOrTx,
  p: { tenantId: number; poolId: number; reasonId: number; reason: string; discardedBy: number | null; at: Date },
  released: readonly Released[],
): Promise<Pooled[]> => {
  if (released.length === 0) return [];
  await tx.execute(
    sql`insert into ${poolEntries} (customer_id, tenant_id, pool_id, reason_id, reason, discarded_by, last_owner_id, pooled_at)
        select u.id, ${p.tenantId}, ${p.poolId}, ${p.reasonId}, ${p.reason}, ${p.discardedBy}::int, u.owner_id, ${p.at}
        from unnest(${intArray(released.map((r) => Number(r.id)))}, ${intArray(released.map((r) => Number(r.owner_id)))}) as u(id, owner_id)
        on conflict (customer_id) do update set pool_id = excluded.pool_id, reason_id = excluded.reason_id,
          reason = excluded.reason, discarded_by = excluded.discarded_by, last_owner_id = excluded.last_owner_id,
          pooled_at = excluded.pooled_at`,
  );
  return released.map((r) => ({ id: r.id, stage_id: r.stage_id }));
};

/** Customers that left their pool (claimed, allotted): their entries go. */
export const clearEntries = async (tx: DbOrTx, tenantId: number, customerIds: readonly number[]) => {
  if (customerIds.length === 0) return;
  await tx.execute(sql`delete from ${poolEntries} where tenant_id = ${tenantId} and customer_id = any(${intArray(customerIds)})`);
};

export type ClaimCandidate = { id: number; pool_id: number; last_owner_id: number | null; pooled_at: Date | string | null };

/** The pool entries of these customers: who owned each last and when it went into its pool. */
export const entryFacts = async (tx: DbOrTx, tenantId: number, customerIds: readonly number[]) => {
  if (customerIds.length === 0) return new Map<number, { last_owner_id: number | null; pooled_at: Date | string }>();
  const rows = await queryRows<{ customer_id: number; last_owner_id: number | null; pooled_at: Date | string }>(
    tx,
    sql`select customer_id, last_owner_id, pooled_at from ${poolEntries}
        where tenant_id = ${tenantId} and customer_id = any(${intArray(customerIds)})`,
  );
  return new Map(rows.map((r) => [Number(r.customer_id), r]));
};

/** Today's claims of a staff member per pool. */
export const claimsToday = async (tx: DbOrTx, tenantId: number, staffId: number, day: string) => {
  const rows = await queryRows<{ pool_id: number; n: number }>(
    tx,
    sql`select pool_id, n from ${poolClaimCounts} where tenant_id = ${tenantId} and staff_id = ${staffId} and day = ${day}`,
  );
  return new Map(rows.map((r) => [Number(r.pool_id), Number(r.n)]));
};

export const addClaims = async (tx: DbOrTx, tenantId: number, staffId: number, day: string, perPool: Map<number, number>) => {
  for (const [poolId, n] of perPool) {
    await tx.execute(
      sql`insert into ${poolClaimCounts} (tenant_id, staff_id, pool_id, day, n) values (${tenantId}, ${staffId}, ${poolId}, ${day}, ${n})
          on conflict (tenant_id, staff_id, pool_id, day) do update set n = ${poolClaimCounts}.n + excluded.n`,
    );
  }
};
