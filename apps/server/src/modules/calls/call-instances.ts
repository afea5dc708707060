import { HANGUP_CAUSE, HANGUP_SIDE } from '@crm/contracts';
import { and, eq, lt, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { appInstances, callRecords } from '../../db/schema';
import { now } from '../../lib/clock';
import type { CallRuntime } from './call-bus';
import { endByHandle, legEnded } from './call-control-events';
import * as legs from './call-legs.repo';
import { clearInstancePresence } from './call-presence';
import * as repo from './calls.repo';
import { endCall } from './calls-lifecycle';

// What an instance that died leaves behind (issue 22): the calls its line held (an agent's call
// records it placed or took, `call_records.owner_instance`; server calls through their legs,
// `call_legs.owner_instance`) and its call sockets (call_presence). Nobody can end those calls any
// more and nobody sits behind those sockets, so they are ended and removed at once: by the instance
// itself when it starts again (same INSTANCE_ID), and, for an instance that does not come back, by
// the cluster sweep once its heartbeat row (app_instances, real time) has been silent too long.
// The calls end as system hang-ups with cause instance_restart (服务重启挂断): the extension is
// free again and the task number is settled from the ended call (calltasks-outcome.ts gives it back).

/** How often an instance says it is alive. */
export const INSTANCE_BEAT_MS = 5_000;
/** An instance silent for this long is dead. */
export const INSTANCE_DEAD_MS = 30_000;

const activeCallsOwnedBy = (db: DbOrTx, instanceId: string) =>
  db
    .select()
    .from(callRecords)
    .where(and(eq(callRecords.ownerInstance, instanceId), lt(callRecords.state, repo.CALL_STATE.ended)))
    .limit(1000);

/**
 * Ends the legs and calls an instance held and removes its sockets; resolves to how many legs and
 * calls were ended. On the instance itself (a restart) its line holds none of them any more.
 */
export const endWhatInstanceHeld = async (rt: CallRuntime, instanceId: string) => {
  let n = 0;
  const cause = HANGUP_CAUSE.instanceRestart;
  for (const leg of await legs.activeLegsOwnedBy(rt.db, instanceId)) {
    if (instanceId === rt.instanceId && rt.line.isActive(leg.id)) continue;
    await endByHandle(rt, leg, cause);
    await legEnded(rt, leg.id, { at: now(), side: HANGUP_SIDE.system, cause });
    n++;
  }
  for (const call of await activeCallsOwnedBy(rt.db, instanceId)) {
    if (instanceId === rt.instanceId && rt.provider.isActive(call.uuid)) continue;
    // server calls ended with their legs above; an agent's call through its line (sip: Kamailio
    // ends the dialog from any instance), else on its record
    const fresh = await repo.findCall(rt.db, call.uuid);
    if (!fresh || fresh.state === repo.CALL_STATE.ended) continue;
    await endCall(rt, fresh, HANGUP_SIDE.system, cause);
    n++;
  }
  await clearInstancePresence(rt.db, instanceId);
  return n;
};

/** This instance is alive (its row, moved each INSTANCE_BEAT_MS). */
export const beatInstance = async (db: DbOrTx, instanceId: string, startedAt: Date) => {
  const at = new Date();
  await db
    .insert(appInstances)
    .values({ instanceId, startedAt, seenAt: at })
    .onConflictDoUpdate({ target: appInstances.instanceId, set: { seenAt: at } });
};

/** A closing instance leaves the cluster cleanly (its sockets closed with it). */
export const leaveCluster = async (db: DbOrTx, instanceId: string) => {
  await clearInstancePresence(db, instanceId);
  await db.delete(appInstances).where(eq(appInstances.instanceId, instanceId));
};

/** The cluster sweep: every instance silent for INSTANCE_DEAD_MS has its calls ended and its row removed. */
export const sweepDeadInstances = async (rt: CallRuntime) => {
  const dead = await rt.db
    .select({ instanceId: appInstances.instanceId })
    .from(appInstances)
    .where(and(lt(appInstances.seenAt, new Date(Date.now() - INSTANCE_DEAD_MS)), ne(appInstances.instanceId, rt.instanceId)));
  let n = 0;
  for (const { instanceId } of dead) {
    n += await endWhatInstanceHeld(rt, instanceId);
    await rt.db.delete(appInstances).where(eq(appInstances.instanceId, instanceId));
  }
  return n;
};
