/** Customers as sales documents (orders, receipts, approvals) see them: their names by id. */
import type { DbOrTx } from '../../db/client';
import * as repo from './customers.repo';

/** The names of customers of the tenant by id (deleted ones included: documents keep naming them). */
export const customerNamesOf = (db: DbOrTx, tenantId: number, ids: number[]) =>
  repo.customerNames(db, tenantId, [...new Set(ids)]);
