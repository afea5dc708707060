import type { DbOrTx } from '../../db/client';
import { customerIdsWithContactNumber } from '../contacts/contacts.service';
import { customerIdsOfPhone, liveCustomersByIds } from '../customers/customers-for-calls';
import { staffNames } from '../staff/staff-lookup';

// The names a page of listed rows (禁拨 entries, dial refusals) shows, from their owners (issue 24:
// the staff and customers modules, not their tables): the staff's name, the live customer's name and
// place (owner, pool) for the customer-access policy.

export type ListedNames = {
  staffName: string | null;
  customerName: string | null;
  customerOwnerId: number | null;
  customerPoolId: number | null;
  /** the customer's id when he is a live customer of the company; null when none or deleted */
  customerFound: number | null;
};

type Listed = { staffId: number | null; customerId: number | null };

/** Looks the page's staff and customers up at once; returns the names of one row. */
export const listedNamesOf = async (db: DbOrTx, tenantId: number, rows: Listed[]): Promise<(r: Listed) => ListedNames> => {
  const staffIds = rows.flatMap((r) => (r.staffId === null ? [] : [r.staffId]));
  const [names, customers] = await Promise.all([
    staffNames(db, tenantId, staffIds),
    liveCustomersByIds(
      db,
      tenantId,
      rows.map((r) => r.customerId),
    ),
  ]);
  return (r) => {
    const c = r.customerId === null ? undefined : customers.get(r.customerId);
    return {
      staffName: r.staffId === null ? null : (names.get(r.staffId) ?? null),
      customerName: c?.name ?? null,
      customerOwnerId: c?.ownerId ?? null,
      customerPoolId: c?.poolId ?? null,
      customerFound: c ? r.customerId : null,
    };
  };
};

/**
 * The customer a number belongs to, whoever may see him (a template phone or a contact's number):
 * the staff's own customer first, else the oldest. Lists then mask it by that customer's rule.
 */
export const customerIdOfNumber = async (db: DbOrTx, tenantId: number, phone: string, staffId: number | null) => {
  const [byPhone, byContact] = await Promise.all([
    customerIdsOfPhone(db, tenantId, phone),
    customerIdsWithContactNumber(db, tenantId, phone),
  ]);
  const live = await liveCustomersByIds(db, tenantId, [...byPhone, ...byContact]);
  const ids = [...live.keys()].sort((a, b) => a - b);
  return ids.find((id) => staffId !== null && live.get(id)?.ownerId === staffId) ?? ids[0];
};
