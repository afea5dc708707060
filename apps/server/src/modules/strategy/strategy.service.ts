import type { Strategy, StrategySetBody } from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import * as repo from './strategy.repo';

/** The product's strategy until an admin saves one (SPEC §3 Strategy); tests and the schema's column defaults say the same. */
export const STRATEGY_DEFAULTS: Readonly<Strategy> = {
  recycleRemind: 3,
  maxCustomer: 0,
  mustCustomerName: 0,
  repeatCustomerName: 0,
  seaPhoneEncryp: 1,
  phoneEncryp: 0,
  decryptPhoneNum: 20,
};

/** The company's strategy; defaults until an admin saves one. */
export const getStrategy = async (db: DbOrTx, tenantId: number): Promise<Strategy> => {
  const row = await repo.findStrategy(db, tenantId);
  if (!row) return { ...STRATEGY_DEFAULTS };
  return {
    recycleRemind: row.recycleRemind,
    maxCustomer: row.maxCustomer,
    mustCustomerName: row.mustCustomerName,
    repeatCustomerName: row.repeatCustomerName,
    seaPhoneEncryp: row.seaPhoneEncryp,
    phoneEncryp: row.phoneEncryp,
    decryptPhoneNum: row.decryptPhoneNum,
  };
};

export const setStrategy = async (db: Db, actor: Actor, body: StrategySetBody): Promise<void> => {
  await repo.upsertStrategy(db, actor.tenantId, body);
};
