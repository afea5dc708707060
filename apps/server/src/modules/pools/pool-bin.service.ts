/** Bulk delete (delall) and the 回收站: deleted customers of the caller's scope, restorable for DELETED_KEEP_DAYS. */
import {
  DEL_CONFIRM_TEXT,
  DEL_TYPE,
  DELETED_KEEP_DAYS,
  type DelAllBody,
  type DeletedCustomer,
  type DeletedListQuery,
  type ListData,
} from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import { type Viewer, viewerOf, visibleSql } from '../customers/customers.service';
import { deletedAmong, deletedPage, restoreDeleted, softDeleteWhere } from '../customers/customers-for-pools';
import { staffNames } from '../staff/staff-lookup';
import * as repo from './pools.repo';

/** delall: soft-deletes a whole scope (DEL_TYPE) after the typed confirmation; recoverable for 30 days. */
export const deleteAll = async (db: Db, actor: Actor, body: DelAllBody): Promise<number> => {
  if (body.confirmText.trim() !== DEL_CONFIRM_TEXT) throw new AppError('DELALL_CONFIRM');
  const { pooled, own } = deleteScopes(await viewerOf(db, actor));
  const scope = body.delType === DEL_TYPE.pools ? pooled : body.delType === DEL_TYPE.private ? own : sql`(${own} or ${pooled})`;
  return db.transaction((tx) => softDeleteWhere(tx, actor.tenantId, scope, now()));
};

/** The customers an admin may bulk-delete (and restore): pool customers of usable pools, private ones in the data scope. */
const deleteScopes = (v: Viewer) => visibleSql(v);

// ---------- 回收站: deleted customers, restorable for DELETED_KEEP_DAYS ----------

const KEEP_MS = DELETED_KEEP_DAYS * 86_400_000;
const keptSince = () => new Date(now().getTime() - KEEP_MS);

/** deletedlist: customers of the caller's scope deleted within the last 30 days, newest first. */
export const listDeleted = async (db: Db, actor: Actor, q: DeletedListQuery): Promise<ListData<DeletedCustomer>> => {
  const { pooled, own } = deleteScopes(await viewerOf(db, actor));
  const { rows, count } = await deletedPage(db, {
    tenantId: actor.tenantId,
    scope: sql`(${own} or ${pooled})`,
    since: keptSince(),
    name: q.name,
    limit: q.limit,
    offset: (q.page - 1) * q.limit,
  });
  const ids = (column: 'owner_id' | 'pool_id') => [
    ...new Set(rows.flatMap((r) => (r[column] === null ? [] : [Number(r[column])]))),
  ];
  const [owners, pools] = await Promise.all([
    staffNames(db, actor.tenantId, ids('owner_id')),
    repo.findPools(db, actor.tenantId, ids('pool_id')),
  ]);
  const poolNames = new Map(pools.map((p) => [p.id, p.name]));
  return {
    list: rows.map((r) => {
      const at = new Date(r.deleted_at);
      const ownerName = (r.owner_id !== null && owners.get(Number(r.owner_id))) || '';
      return {
        cmCtid: Number(r.id),
        name: r.name,
        ownerName,
        cmHsidName: ownerName ? '' : (r.pool_id !== null && poolNames.get(Number(r.pool_id))) || '',
        deleteTime: formatDateTime(at),
        expireTime: formatDateTime(new Date(at.getTime() + KEEP_MS)),
      };
    }),
    count,
  };
};

/** restore: clears deleted_at; refused (the whole request) when any chosen customer was deleted more than 30 days ago. */
export const restoreCustomers = async (db: Db, actor: Actor, ids: number[]): Promise<number> => {
  const { pooled, own } = deleteScopes(await viewerOf(db, actor));
  const since = keptSince();
  const found = await deletedAmong(db, actor.tenantId, ids, sql`(${own} or ${pooled})`);
  if (found.length === 0) throw new AppError('CUSTOMER_NOT_FOUND');
  if (found.some((r) => new Date(r.deleted_at).getTime() < since.getTime())) throw new AppError('RESTORE_EXPIRED');
  return db.transaction((tx) =>
    restoreDeleted(
      tx,
      actor.tenantId,
      found.map((r) => Number(r.id)),
      since,
      now(),
    ),
  );
};
