import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { takesPartInApproval } from '../approvals/approvals-lists';
import { scopeStaffIds } from '../staff/staff.service';
import * as repo from './contract.repo';

/** Who sees a contract: its owner within the caller's data scope, or a participant of its seal-use approval. */

export const SEAL_DOC_TYPE = 'contract_seal';

export const canReadContract = async (db: Db, actor: Actor, c: repo.ContractRecord) => {
  const scope = await scopeStaffIds(db, actor);
  if (scope === null || scope.includes(c.ownerId)) return true;
  return takesPartInApproval(db, actor.tenantId, SEAL_DOC_TYPE, c.id, actor.staffId);
};

/** The contract, or 合同不存在 for another company's id or one outside the caller's scope. */
export const requireContract = async (db: Db, actor: Actor, id: number) => {
  const c = await repo.findContract(db, actor.tenantId, id);
  if (!c || !(await canReadContract(db, actor, c))) throw new AppError('CONTRACT_NOT_FOUND');
  return c;
};
