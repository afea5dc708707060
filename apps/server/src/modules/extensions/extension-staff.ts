/** Extensions with their staff's name and account type, looked up in the staff module (extensions.repo reads only its own table). */
import type { DbOrTx } from '../../db/client';
import { staffAccountsByIds } from '../staff/staff-calls';
import type * as repo from './extensions.repo';

/** An extension with its staff's name and account type (merchantType 2: a bound phone), from the staff module. */
export type SipRow = { sip: repo.SipRecord; staffName: string | null; merchantType: number | null };

/** The extensions' staff (name, account type) looked up at once for rows of one company. */
export const withStaff = async (db: DbOrTx, tenantId: number, rows: repo.SipOnly[]): Promise<SipRow[]> => {
  const ids = rows.flatMap((r) => (r.sip.staffId === null ? [] : [r.sip.staffId]));
  const accounts = await staffAccountsByIds(db, tenantId, ids);
  return rows.map(({ sip }) => {
    const a = sip.staffId === null ? undefined : accounts.get(sip.staffId);
    return { sip, staffName: a?.name ?? null, merchantType: a?.merchantType ?? null };
  });
};

/** One extension (of any company) with its staff, or undefined. */
export const oneWithStaff = async (db: DbOrTx, row: repo.SipOnly | undefined): Promise<SipRow | undefined> =>
  row ? (await withStaff(db, row.sip.tenantId, [row]))[0] : undefined;
