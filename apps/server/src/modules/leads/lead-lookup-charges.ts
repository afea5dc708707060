/**
 * The hook that charges a paid provider lookup. Lead search sits below no billing module yet:
 * when one exists it registers its charge function here at startup (app.ts), and every logged
 * lookup calls it in the same transaction as the log line. Until then lookups are only logged.
 */
import type { DbOrTx } from '../../db/client';

export type LookupCharge = {
  tenantId: number;
  staffId: number;
  /** 'search' | 'detail' */
  kind: string;
  query: string;
  costFen: number;
};
type ChargeFn = (tx: DbOrTx, charge: LookupCharge) => Promise<void>;

let charge: ChargeFn | null = null;

/** Billing registers how a lookup is charged (once, at startup). */
export const registerLookupCharge = (fn: ChargeFn) => {
  charge = fn;
};

export const chargeLookup = async (tx: DbOrTx, c: LookupCharge) => {
  if (charge && c.costFen > 0) await charge(tx, c);
};
