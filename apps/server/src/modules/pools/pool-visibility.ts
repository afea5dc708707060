import { DATA_SCOPE } from '@crm/contracts';
import type { DbOrTx } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { poolIdsForDepartment } from './pools.repo';

/**
 * The shared pools whose customers the caller may see and claim: the enabled pools open to his
 * department (useCmDids, empty = every department), or null (every pool) for a company-wide role.
 * Kept apart from pools.service so the customers service can read it without an import cycle.
 */
export const visiblePoolIds = async (db: DbOrTx, actor: Actor): Promise<number[] | null> => {
  if (actor.isSystemRole || actor.dataScope === DATA_SCOPE.all) return null;
  return poolIdsForDepartment(db, actor.tenantId, actor.departmentId);
};
