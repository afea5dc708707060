import type { PubSub } from './pubsub';

/**
 * A company's settings that almost every request reads (issue 25: at 200 clients the time went to the
 * number of SQL statements, and 6 of a customer list's 10 were these): its strategy, module switches,
 * customer template and controls, pools and labels. Each is kept per process, per database and per
 * company for at most TTL_MS, and dropped the moment its repo writes it:
 *
 * - the repo that writes a setting calls `invalidate(tenantId)`; every process hears it on the pub/sub
 *   bus (Redis between processes) and drops its copy;
 * - a write inside a transaction is not committed yet when it invalidates, so for SETTLE_MS after an
 *   invalidation the setting is read from the database and not kept (a reader between the write and
 *   the commit would otherwise keep the old value);
 * - only reads on a database's root handle are cached (`registerSettingsRoot`); a transaction reads
 *   the table itself, and sees its own writes;
 * - values are frozen: a caller that changed a cached object would change it for everybody.
 */

const TTL_MS = 30_000;
const SETTLE_MS = 2_000;
const CHANNEL = 'settings-cache';

type Entry = { value: Promise<unknown>; at: number };

/** one store per open database (tests open many in one process; tenant ids repeat across them) */
const stores = new Map<object, Map<string, Entry>>();
/** `kind:tenantId` → until when reads go to the database */
const unsettled = new Map<string, number>();
/** `kind:tenantId` → when this process last heard it dropped (settingsVersion) */
const droppedAt = new Map<string, number>();
const buses = new Set<PubSub>();

const keyOf = (kind: string, tenantId: number) => `${kind}:${tenantId}`;

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object' && !Object.isFrozen(value) && !(value instanceof Date)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
};

const dropLocal = (key: string) => {
  const now = Date.now();
  droppedAt.set(key, now);
  unsettled.set(key, now + SETTLE_MS);
  for (const store of stores.values()) store.delete(key);
};

/** Caches settings read through this database handle (its root, not a transaction); returns a forget function. */
export const registerSettingsRoot = (db: object) => {
  stores.set(db, new Map());
  return () => {
    stores.delete(db);
  };
};

/** Hears and publishes invalidations on the app's bus; returns the function that disconnects it. */
export const connectSettingsCache = async (bus: PubSub) => {
  const unsubscribe = await bus.subscribe(CHANNEL, (message) => {
    const key = (message as { key?: unknown }).key;
    if (typeof key === 'string') dropLocal(key);
  });
  buses.add(bus);
  return () => {
    buses.delete(bus);
    unsubscribe();
  };
};

const isSettling = (key: string, now: number) => {
  const until = unsettled.get(key);
  if (until !== undefined && until <= now) unsettled.delete(key);
  return until !== undefined && until > now;
};

const publishDrop = (key: string) => {
  dropLocal(key);
  for (const bus of buses) void bus.publish(CHANNEL, { key }).catch(() => undefined);
};

/** One cached setting: `load` reads it from the database for a company. */
export const settingsCache = <Db extends object, T>(kind: string, load: (db: Db, tenantId: number) => Promise<T>) => ({
  get: (db: Db, tenantId: number): Promise<T> => {
    const store = stores.get(db);
    const key = keyOf(kind, tenantId);
    const now = Date.now();
    if (!store || isSettling(key, now)) return load(db, tenantId);
    const hit = store.get(key);
    if (hit && now - hit.at < TTL_MS) return hit.value as Promise<T>;
    const value = load(db, tenantId).then(deepFreeze);
    store.set(key, { value, at: now });
    value.catch(() => {
      if (store.get(key)?.value === value) store.delete(key);
    });
    return value;
  },
  /** the setting was written: every process reads it afresh */
  invalidate: (tenantId: number) => publishDrop(keyOf(kind, tenantId)),
});

/**
 * For values a cache keeps under another key than the company (a session, by its token) but derives
 * from the company's rows: `isCurrent(tenantId, readAt)` says whether a value read from the database
 * at `readAt` still holds, that is no process dropped the company's `kind` since, and no drop is
 * settling (as above: a writer's transaction may not have committed yet). `invalidate` is the writer's.
 */
export const settingsVersion = (kind: string) => ({
  isCurrent: (tenantId: number, readAt: number): boolean => {
    const key = keyOf(kind, tenantId);
    if (isSettling(key, Date.now())) return false;
    const dropped = droppedAt.get(key);
    return dropped === undefined || dropped < readAt;
  },
  invalidate: (tenantId: number) => publishDrop(keyOf(kind, tenantId)),
});

/**
 * What the auth hook keeps of a session (modules/auth/session-actors.ts): the session, its staff
 * member, his role and company. Every write that changes who a session's holder is or may do drops the
 * company's: staff, roles and departments edited or removed, sessions ended.
 */
export const sessionActorsVersion = settingsVersion('session-actors');

/**
 * A company's names by id as one cached setting (`load` reads its id and name rows): `names` answers
 * the names of some ids (unknown ids are left out), `invalidate` is the writer's, as above.
 */
export const namesCache = <Db extends object>(
  kind: string,
  load: (db: Db, tenantId: number) => Promise<{ id: number; name: string }[]>,
) => {
  const cache = settingsCache(
    kind,
    async (db: Db, tenantId: number) => new Map((await load(db, tenantId)).map((r) => [r.id, r.name])),
  );
  return {
    names: async (db: Db, tenantId: number, ids: number[]) => {
      if (ids.length === 0) return new Map<number, string>();
      const all = await cache.get(db, tenantId);
      return new Map(ids.flatMap((id) => (all.has(id) ? [[id, all.get(id) as string] as const] : [])));
    },
    invalidate: cache.invalidate,
  };
};
