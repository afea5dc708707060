import type { DbOrTx } from '../../db/client';
import * as repo from './customers.repo';

// What the calling modules (compliance's lists) read of customers by id (issue 24: through this
// file, not the customers tables): the live customers a page of rows names, with their place
// (owner, pool) for the customer-access policy.

export type CustomerNameAndPlace = { name: string; ownerId: number | null; poolId: number | null };

/** Live (not deleted) customers of the company by id; unknown or deleted ids are left out. */
export const liveCustomersByIds = async (db: DbOrTx, tenantId: number, ids: (number | null)[]) => {
  const unique = [...new Set(ids.filter((id): id is number => id !== null))];
  if (unique.length === 0) return new Map<number, CustomerNameAndPlace>();
  const rows = await repo.findCustomers(db, tenantId, unique);
  return new Map<number, CustomerNameAndPlace>(rows.map((c) => [c.id, { name: c.name, ownerId: c.ownerId, poolId: c.poolId }]));
};

/** Live customers of the company holding this normalised number in a phone control (the oldest 20 by id). */
export const customerIdsOfPhone = (db: DbOrTx, tenantId: number, phone: string) => repo.findIdsByPhone(db, tenantId, phone);
