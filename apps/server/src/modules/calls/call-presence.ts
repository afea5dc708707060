import { CALL_LIMITS } from '@crm/contracts';
import { and, desc, eq, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { intArray, textArray } from '../../db/int-array';
import { callPresence } from '../../db/schema';

// Who is at his desk (issue 22): an agent is reachable while his call socket /ws/call is logged in
// and heartbeating. The socket writes its row at login, moves `seen_at` at each heartbeat (30 s)
// and deletes it when it closes; a process that dies (kill -9) deletes nothing, so a row counts only
// while seen recently, and a restarted instance (or the cluster sweep, for an instance that stays
// dead) removes the rows of its previous life at once. Work mode is bound to the socket the agent
// started working from (call_task_agents.work_conn_id): a new socket — reconnect, reload, restart —
// works only after the agent joins again, so no dialer counts an agent whose page is gone.
//
// Times here are real time (like sessions), never the business clock tests move.

/** A socket not heard from for this long is gone (two missed heartbeats and some slack). */
export const PRESENCE_FRESH_MS = CALL_LIMITS.heartbeatMs * 2 + 15_000;

const freshSince = () => new Date(Date.now() - PRESENCE_FRESH_MS);

export type PresenceRow = { connId: string; tenantId: number; staffId: number; instanceId: string };

/** The socket logged in. */
export const presenceLogin = async (db: DbOrTx, row: PresenceRow) => {
  const at = new Date();
  await db
    .insert(callPresence)
    .values({ ...row, loggedInAt: at, seenAt: at })
    .onConflictDoUpdate({ target: callPresence.connId, set: { tenantId: row.tenantId, staffId: row.staffId, seenAt: at } });
};

/** Heartbeats are written at most this late, all of a process's in one statement. */
const BEAT_FLUSH_MS = 1_000;
type Beats = { pending: Map<string, number>; timer: NodeJS.Timeout | undefined };
/** per database handle (tests run several apps, each on its own database, in one process) */
const beatsOf = new WeakMap<object, Beats>();

const flushBeats = async (db: DbOrTx, beats: Beats) => {
  beats.timer = undefined;
  const rows = [...beats.pending];
  beats.pending.clear();
  if (rows.length === 0) return;
  const connIds = rows.map(([connId]) => connId);
  const tenantIds = rows.map(([, tenantId]) => tenantId);
  await db
    .execute(
      sql`update ${callPresence} p set seen_at = ${new Date()}
          from unnest(${textArray(connIds)}, ${intArray(tenantIds)}) as b(conn_id, tenant_id)
          where p.conn_id = b.conn_id and p.tenant_id = b.tenant_id`,
    )
    // a lost beat is made good by the next one (a socket counts while seen in the last PRESENCE_FRESH_MS)
    .catch(() => undefined);
};

/**
 * A heartbeat of the socket (of the company it logged in to). Written within a second together with
 * the process's other sockets' beats (issue 25: 200 sockets each beating alone were as many commits a
 * second); the freshness window (PRESENCE_FRESH_MS) is over a minute, so the second does not matter.
 */
export const presenceBeat = (db: DbOrTx, tenantId: number, connId: string) => {
  let beats = beatsOf.get(db);
  if (!beats) {
    beats = { pending: new Map(), timer: undefined };
    beatsOf.set(db, beats);
  }
  beats.pending.set(connId, tenantId);
  if (!beats.timer) {
    const b = beats;
    b.timer = setTimeout(() => void flushBeats(db, b), BEAT_FLUSH_MS);
    b.timer.unref();
  }
};

/** The socket closed (any reason). */
export const presenceGone = async (db: DbOrTx, tenantId: number, connId: string) => {
  await db.delete(callPresence).where(and(eq(callPresence.tenantId, tenantId), eq(callPresence.connId, connId)));
};

/** The sockets an instance held: gone with its previous life (restart) or its death (cluster sweep). */
export const clearInstancePresence = async (db: DbOrTx, instanceId: string) => {
  await db.delete(callPresence).where(eq(callPresence.instanceId, instanceId));
};

/** The staff's live call socket (the latest seen), if any. */
export const liveSocketOf = async (db: DbOrTx, tenantId: number, staffId: number) => {
  const [row] = await db
    .select({ connId: callPresence.connId })
    .from(callPresence)
    .where(and(eq(callPresence.tenantId, tenantId), eq(callPresence.staffId, staffId), gt(callPresence.seenAt, freshSince())))
    .orderBy(desc(callPresence.seenAt))
    .limit(1);
  return row?.connId;
};

/** Which of these staff have a live call socket (转人工 targets). */
export const staffWithLiveSocket = async (db: DbOrTx, tenantId: number, staffIds: number[]) => {
  if (staffIds.length === 0) return new Set<number>();
  const rows = await db
    .selectDistinct({ staffId: callPresence.staffId })
    .from(callPresence)
    .where(
      and(eq(callPresence.tenantId, tenantId), inArray(callPresence.staffId, staffIds), gt(callPresence.seenAt, freshSince())),
    );
  return new Set(rows.map((r) => Number(r.staffId)));
};

/**
 * SQL: the call_task_agents row `a` is working now — in work mode, and the socket he started
 * working from is alive. Every dialer and every "is he working" answer uses this, never is_working alone.
 */
export const isWorkingLiveSql = (a: string): SQL =>
  sql`(${sql.raw(a)}.is_working and exists (select 1 from ${callPresence} p
        where p.tenant_id = ${sql.raw(a)}.tenant_id and p.conn_id = ${sql.raw(a)}.work_conn_id
          and p.seen_at > ${freshSince()}))`;
