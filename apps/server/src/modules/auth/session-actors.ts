import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { sessionActorsVersion } from '../../lib/settings-cache';
import * as repo from './auth.repo';

/**
 * The sessions the auth hook has just looked up, kept per process and per database by token hash
 * (issue 25: the session lookup was the one statement every request of every endpoint ran).
 *
 * - An entry is used for at most TTL_MS after it was read: a change made behind the app's back (a
 *   hand-written UPDATE) takes effect within that.
 * - Every write the app makes to who a session's holder is or what he may do drops the company's
 *   entries on every process at once (`sessionActorsVersion`: staff and roles edited or removed,
 *   departments removed, sessions ended), and for 2 s after it lookups go to the database (a writer's
 *   transaction may commit later than it invalidated).
 * - An entry read before a drop is never used after it: the read's time is compared with the drop's.
 * - Unknown tokens are not kept (a stranger cannot fill the cache). Each read drops the expired
 *   entries (they are the oldest, at the front), so a process holds only the sessions of the last
 *   5 s, and at most MAX_ENTRIES.
 */

const TTL_MS = 5_000;
const MAX_ENTRIES = 20_000;

export type SessionRow = NonNullable<Awaited<ReturnType<typeof repo.findSessionActor>>>;
type Entry = { row: SessionRow; actor: Actor; readAt: number };

const stores = new WeakMap<Db, Map<string, Entry>>();

const storeOf = (db: Db) => {
  let store = stores.get(db);
  if (!store) {
    store = new Map();
    stores.set(db, store);
  }
  return store;
};

const toActor = (row: SessionRow): Actor =>
  Object.freeze({
    sessionId: row.sessionId,
    staffId: row.staffId,
    tenantId: row.tenantId,
    departmentId: row.departmentId,
    roleId: row.roleId ?? 0,
    dataScope: row.dataScope,
    isSystemRole: row.isSystem,
    menuIds: new Set(row.menuIds),
    actions: new Set(row.actions),
    name: row.name,
  });

/** The session of a token hash as this process last read it, if that still holds. */
export const keptSession = (db: Db, tokenHash: string): Entry | undefined => {
  const store = stores.get(db);
  const hit = store?.get(tokenHash);
  if (!store || !hit) return undefined;
  if (Date.now() - hit.readAt >= TTL_MS || !sessionActorsVersion.isCurrent(hit.row.tenantId, hit.readAt)) {
    store.delete(tokenHash);
    return undefined;
  }
  return hit;
};

/** Reads the session of a token hash from the database, and keeps it unless a drop came meanwhile. */
export const readSession = async (db: Db, tokenHash: string): Promise<Entry | undefined> => {
  const readAt = Date.now();
  const row = await repo.findSessionActor(db, tokenHash);
  if (!row) return undefined;
  const entry = { row, actor: toActor(row), readAt };
  if (sessionActorsVersion.isCurrent(row.tenantId, readAt)) {
    const store = storeOf(db);
    store.delete(tokenHash);
    // entries are in the order they were read: the expired ones are at the front
    for (const [key, kept] of store) {
      if (readAt - kept.readAt < TTL_MS && store.size < MAX_ENTRIES) break;
      store.delete(key);
    }
    store.set(tokenHash, entry);
  }
  return entry;
};

/** The session was marked seen at `at`: the kept copy says so too. */
export const sessionSeen = (db: Db, tokenHash: string, at: Date) => {
  const store = stores.get(db);
  const hit = store?.get(tokenHash);
  if (store && hit) store.set(tokenHash, { ...hit, row: { ...hit.row, lastSeenAt: at } });
};

/**
 * Forgets every session kept for a database: for a write made behind the app's back that must count
 * at once (tests that age or remove a session by hand; an operator's own UPDATE waits TTL_MS instead).
 */
export const forgetKeptSessions = (db: Db) => {
  stores.delete(db);
};

/** How many sessions this process keeps for a database (tests: the copy holds only the last 5 s). */
export const keptSessionCount = (db: Db) => stores.get(db)?.size ?? 0;
