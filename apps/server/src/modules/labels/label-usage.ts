/**
 * What other domains keep in a label, registered by them (labels sit below customers and do not
 * import them): the customer count the settings page shows, the in-use check before a delete, and
 * letting go of a tag being deleted (in the delete's transaction).
 */
import type { DbOrTx } from '../../db/client';

export type LabelUser = {
  /** live entries carrying each of these labels (ids without any may be absent) */
  countsByLabel: (db: DbOrTx, tenantId: number, labelIds: number[]) => Promise<Map<number, number>>;
  /** live entries holding the tag anywhere: a delete is refused while above 0 */
  countIn: (db: DbOrTx, tenantId: number, labelId: number) => Promise<number>;
  /** the tag is being deleted: rows still holding it let go */
  detach: (tx: DbOrTx, tenantId: number, labelId: number) => Promise<void>;
};

let user: LabelUser | null = null;

/** Customers register here at startup (app.ts → registerCustomersEvents). */
export const registerLabelUser = (u: LabelUser) => {
  user = u;
};

export const labelUser = (): LabelUser => {
  if (!user) throw new Error('labels: no label user registered (registerCustomersEvents not called)');
  return user;
};
