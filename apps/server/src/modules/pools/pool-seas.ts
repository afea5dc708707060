/** The pool list (seaslist) and its export: customers of the caller's pools with their pool facts. */
import type { SeasListBody, SeasRowExtra } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { listCustomers } from '../customers/customers.service';
import { startCustomerExport } from '../customers/customers-export';
import { seasFilters } from '../customers/customers-filters';
import { staffNames } from '../staff/staff-lookup';
import * as repo from './pools.repo';

/** seaslist: customers of the pools the caller may use, numbers masked per seaPhoneEncryp. */
export const listSeas = async (db: Db, actor: Actor, f: SeasListBody) => {
  const data = await listCustomers(db, actor, 'seas', f, seasFilters(f));
  const entries = new Map(
    (
      await repo.entriesOf(
        db,
        actor.tenantId,
        data.list.map((r) => r.cmCtid),
      )
    ).map((e) => [Number(e.customer_id), e]),
  );
  const lastOwners = await staffNames(
    db,
    actor.tenantId,
    [...entries.values()].flatMap((e) => (e.last_owner_id === null ? [] : [Number(e.last_owner_id)])),
  );
  return {
    ...data,
    list: data.list.map((r) => {
      const e = entries.get(r.cmCtid);
      const extra: SeasRowExtra = {
        cmHsid: e ? Number(e.pool_id) : null,
        cmHsidName: e?.pool_name ?? '',
        cmCdid: e ? Number(e.reason_id) : null,
        discardReason: e?.reason ?? '',
        discardTime: e ? formatDateTime(e.pooled_at) : '',
        lastOwnerName: (e?.last_owner_id != null && lastOwners.get(Number(e.last_owner_id))) || '',
      };
      return { ...r, ...extra };
    }),
  };
};

/** seasexportlist: the pool list as a durable export job (its pool/reason filters are rebuilt from the stored body). */
export const exportSeas = (db: Db, actor: Actor, f: SeasListBody) => startCustomerExport(db, actor, 'seas', f);
