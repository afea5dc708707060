/**
 * What other domains keep in a stage, registered by them (stages sit below customers and do not
 * import them): the customer count the settings page shows, the in-use check before a delete, and
 * letting go of a stage being deleted (in the delete's transaction).
 */
import type { DbOrTx } from '../../db/client';

export type StageUser = {
  /** entries per stage of the company (stages without any may be absent) */
  countsByStage: (db: DbOrTx, tenantId: number) => Promise<Map<number, number>>;
  /** live entries in one stage: a delete is refused while above 0 */
  countIn: (db: DbOrTx, tenantId: number, stageId: number) => Promise<number>;
  /** the stage is being deleted: rows still pointing at it let go */
  detach: (tx: DbOrTx, tenantId: number, stageId: number) => Promise<void>;
};

let user: StageUser | null = null;

/** Customers register here at startup (app.ts → registerCustomersEvents). */
export const registerStageUser = (u: StageUser) => {
  user = u;
};

export const stageUser = (): StageUser => {
  if (!user) throw new Error('stages: no stage user registered (registerCustomersEvents not called)');
  return user;
};
