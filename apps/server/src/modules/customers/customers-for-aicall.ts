import type { DbOrTx } from '../../db/client';
import * as repo from './customers.repo';

// What the AI calls read of customers (issue 24: aicall reaches customers through this file, not its
// tables): the live customers a page of AI calls names, with their place (owner, pool) for the
// customer-access policy.

export type CustomerPlaceRow = { name: string; ownerId: number | null; poolId: number | null };

/** Live (not deleted) customers of the company by id; unknown or deleted ids are left out. */
export const customerPlacesByIds = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map<number, CustomerPlaceRow>();
  const rows = await repo.findCustomers(db, tenantId, unique);
  return new Map<number, CustomerPlaceRow>(rows.map((c) => [c.id, { name: c.name, ownerId: c.ownerId, poolId: c.poolId }]));
};
