/**
 * "Who uses my rows": a lower module (stages, departments, roles) shows how many rows of a higher
 * one point at each of its entries and refuses to delete one in use, without importing that higher
 * module. The user registers its counters at startup; the owner asks through the registry.
 */
import type { DbOrTx } from '../db/client';

export type Usage = {
  /** users per entry of the company (entries without any may be absent) */
  countsBy: (db: DbOrTx, tenantId: number) => Promise<Map<number, number>>;
  /** users of one entry: a delete is refused while above 0 */
  countIn: (db: DbOrTx, tenantId: number, id: number) => Promise<number>;
  /** the entry is being deleted: rows still pointing at it let go (in the delete's transaction) */
  detach?: (tx: DbOrTx, tenantId: number, id: number) => Promise<void>;
};

export const usageRegistry = (what: string) => {
  let usage: Usage | null = null;
  return {
    register: (u: Usage) => {
      usage = u;
    },
    /** The registered user; a missing registration is a wiring bug, never "not in use". */
    get: (): Usage => {
      if (!usage) throw new Error(`${what}: no user registered`);
      return usage;
    },
  };
};
