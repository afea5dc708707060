import type { DbOrTx } from '../../db/client';
import { getStrategy } from '../strategy/strategy.service';
import * as repo from './customers.repo';

/**
 * SPEC §3 Strategy maxCustomer (0 = 不限制): how many more customers a staff member may own.
 * Creation, import, claim, allot and batch allot all ask here; callers serialise per staff
 * (advisory lock on tenant + staff) so the count cannot be raced.
 */
export const customerRoom = async (tx: DbOrTx, tenantId: number, staffId: number) => {
  const { maxCustomer } = await getStrategy(tx, tenantId);
  if (maxCustomer === 0) return { maxCustomer, owned: 0, left: Number.POSITIVE_INFINITY, message: '' };
  const owned = await repo.countOwned(tx, tenantId, staffId);
  return {
    maxCustomer,
    owned,
    left: Math.max(0, maxCustomer - owned),
    message: `客户数量已达上限（${maxCustomer}个），当前已有${owned}个，请先处理已有客户`,
  };
};
