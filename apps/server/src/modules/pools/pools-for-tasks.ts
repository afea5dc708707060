import type { DbOrTx } from '../../db/client';
import * as repo from './pools.repo';

/** What the call tasks need of the pools module: the SQL int array helper and a discard reason's name. */

/** `ids` as one SQL int[] parameter (for `= any(...)`). */
export const intArray = repo.intArray;

/** The name of a discard reason of the company (enabled or not), undefined when there is none. */
export const reasonName = async (db: DbOrTx, tenantId: number, id: number) => (await repo.findReason(db, tenantId, id))?.name;
