/**
 * What customers need to know about the shared pools (公海) without importing them: pools sit
 * above customers (they move customers), so pools hand their rules over at startup
 * (`registerPoolRules` from pools.events) and customers ask through here.
 */
import type { SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { Actor } from '../../lib/auth-context';

export type PoolRules = {
  /** the pools whose customers the viewer may see; null = every pool */
  visiblePoolIds: (db: DbOrTx, actor: Actor) => Promise<number[] | null>;
  /** when the recycling sweep would take each of these customers back (预计回收时间, 即将回收) */
  exRecoveryTimes: (db: DbOrTx, tenantId: number, ids: number[]) => Promise<Map<number, { time: string; isSoon: boolean }>>;
  /** the same as an SQL expression over a list query's `c`; null when no rule is on */
  exRecoveryExpr: (db: DbOrTx, tenantId: number) => Promise<SQL | null>;
  /** when a pool customer becomes claimable for the viewer (his cooldown), null when he may claim now */
  claimBlockedUntil: (db: DbOrTx, actor: Actor, customerId: number, at: Date) => Promise<Date | null>;
};

let rules: PoolRules | null = null;

export const registerPoolRules = (r: PoolRules) => {
  rules = r;
};

/** The registered pool rules; a missing registration is a wiring bug, never "no pools". */
export const poolRules = (): PoolRules => {
  if (!rules) throw new Error('customers: pool rules not registered');
  return rules;
};
