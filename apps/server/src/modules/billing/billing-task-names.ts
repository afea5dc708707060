import type { DbOrTx } from '../../db/client';

/**
 * The names of call tasks, for the 消费明细 rows' 任务 column: tasks sit above billing, so they
 * hand their lookup over at startup (`registerTaskNames` from the calltasks plugin). None
 * registered (a build without tasks): the column stays empty.
 */
export type TaskNames = (db: DbOrTx, tenantId: number, ids: number[]) => Promise<Map<number, string>>;

let lookup: TaskNames | null = null;

export const registerTaskNames = (fn: TaskNames) => {
  lookup = fn;
};

export const taskNamesOf: TaskNames = async (db, tenantId, ids) =>
  ids.length === 0 || !lookup ? new Map() : lookup(db, tenantId, ids);
