import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { CALL_STATUS, CALL_TYPE, HANGUP_CAUSE, type HangupCause } from '@crm/contracts';
import type { Tx } from '../../db/client';
import { now } from '../../lib/clock';
import { type DomainEventMap, deliver, publish } from '../../lib/events/events';
import { normalisePhone } from '../../lib/phone';
import { formatDateTime, yearMonthOf } from '../../lib/time';
import type { ControlEvent } from '../../telephony/control';
import type { HangupSideValue } from '../../telephony/provider';
import { findVisibleCustomerByPhone } from '../customers/customers.service';
import { findDefaultSip, findStaffMember, setCallState } from '../extensions/extensions.service';
import { storeGeneratedFile } from '../uploads/uploads.service';
import { ownerActor, systemActor } from './call-actors';
import type { CallRuntime } from './call-bus';
import * as legs from './call-legs.repo';
import { finishCall, markAnswered, markRinging } from './call-states';
import * as repo from './calls.repo';
import { publishProgress } from './calls-publish';

// What the call-control line reports, into the database (issue 12): each leg event moves its leg
// row and is published as a `call.leg` domain event in the same transaction; the customer leg moves
// the call record (ringing, answered), an agent leg rings and joins its agent, and when the last leg
// of a call ends the call ends through finishCall (billsec, recording, the `call.ended` event).

const { CALL_STATE } = repo;

/** A leg to the customer's number: placed for an agent (customer) or for the AI bot (bot), or offered inbound. */
const isCustomerSide = (role: string) => role === 'customer' || role === 'bot';

type LegEventPayload = Omit<DomainEventMap['call.leg'], 'legId' | 'callUuid' | 'role'>;

/** Moves a leg and records its event in one transaction, then delivers the event. */
const moveLeg = async (
  rt: CallRuntime,
  legId: string,
  payload: LegEventPayload,
  change: (tx: Tx) => Promise<legs.CallLeg | undefined>,
) => {
  const result = await rt.db.transaction(async (tx) => {
    const leg = await change(tx);
    if (!leg) return undefined;
    const eventId = await publish(tx, leg.tenantId, 'call.leg', { ...payload, legId, callUuid: leg.callUuid, role: leg.role });
    return { leg, eventId };
  });
  if (!result) return undefined;
  await deliver(rt.db, [result.eventId]);
  return result.leg;
};

export type LegEnding = { at: Date; side: HangupSideValue; cause: HangupCause; recording?: Buffer };

/** Hangs up the other legs of a call: wired in by call-control.ts (it routes to their owners). */
type HangupOther = (rt: CallRuntime, legId: string, side: HangupSideValue, cause: HangupCause) => Promise<unknown>;
let hangupOther: HangupOther = async () => undefined;
export const setHangupOther = (fn: HangupOther) => {
  hangupOther = fn;
};

/**
 * A leg ended (the line said so, or the line no longer holds it): the leg row with its cause and
 * recording; an agent who never answered stops ringing; the customer's leaving ends every leg, a
 * bridged leg's ending ends its partner; the last leg's end ends the call.
 */
export const legEnded = async (rt: CallRuntime, legId: string, ending: LegEnding): Promise<void> => {
  const before = await legs.findLeg(rt.db, legId);
  if (!before || before.state === CALL_STATE.ended) return;
  const call = await repo.findCall(rt.db, before.callUuid);
  if (!call) return;
  let stored: { id: number; url: string } | undefined;
  if (ending.recording && before.answerAt) {
    const recording = ending.recording;
    const stamp = formatDateTime(call.startAt).replace(/[-: ]/g, '');
    stored = await storeGeneratedFile(
      rt.db,
      rt.config.dataDir,
      ownerActor({ ...call, staffId: before.staffId ?? call.staffId }),
      { originalName: `录音_${stamp}_${before.role}.wav`, ext: 'wav', scene: 'recording' },
      (fullPath) => fs.promises.writeFile(fullPath, recording),
    );
  }
  const endAt = new Date(Math.max(ending.at.getTime(), (before.answerAt ?? before.createdAt).getTime()));
  rt.control.autoAnswer?.delete(legId);
  const leg = await moveLeg(rt, legId, { kind: 'ended', at: endAt.toISOString(), side: ending.side, cause: ending.cause }, (tx) =>
    legs.advanceLeg(tx, before.tenantId, legId, CALL_STATE.ended, {
      endAt,
      hangupSide: ending.side,
      hangupCause: ending.cause,
      recordFile: stored?.url ?? '',
      recordFileId: stored?.id ?? null,
    }),
  );
  if (!leg) return;
  if (leg.role === 'agent' && !leg.answerAt && leg.staffId) {
    const sip = await findDefaultSip(rt.db, leg.tenantId, leg.staffId);
    if (sip) await setCallState(rt.db, leg.tenantId, sip.sip.id, { callStatus: CALL_STATUS.none });
    const fresh = await repo.findCall(rt.db, leg.callUuid);
    if (fresh) await publishProgress(rt, fresh, 'ended', leg.staffId);
  }
  const all = await legs.legsOfCall(rt.db, leg.callUuid);
  for (const other of all) {
    if (other.id === leg.id || other.state === CALL_STATE.ended) continue;
    const isPartner = other.id === leg.bridgedWith || other.bridgedWith === leg.id;
    if (isCustomerSide(leg.role) || isPartner) await hangupOther(rt, other.id, ending.side, HANGUP_CAUSE.normal);
  }
  const after = await legs.legsOfCall(rt.db, leg.callUuid);
  if (after.some((l) => l.state !== CALL_STATE.ended)) return;
  const customer = after.find((l) => isCustomerSide(l.role)) ?? leg;
  await finishCall(rt, leg.callUuid, {
    at: customer.endAt ?? endAt,
    side: customer.hangupSide as HangupSideValue,
    cause: customer.hangupCause as HangupCause,
    stored: customer.recordFileId ? { id: customer.recordFileId, url: customer.recordFile } : undefined,
  });
};

/** A trunk call offered to the app: its company's record and leg, or refused when no company takes it. */
const legOffered = async (rt: CallRuntime, e: Extract<ControlEvent, { kind: 'offered' }>) => {
  const route = await rt.control.inboundRoute?.({ from: e.from, to: e.to, legId: e.legId });
  if (!route) {
    // not awaited: the leg's ended event queues behind this one (events of a leg run in order)
    void rt.line.hangup(e.legId, HANGUP_CAUSE.rejected).catch(() => undefined);
    return;
  }
  const phone = normalisePhone(e.from)?.phone ?? e.from.replace(/\D/g, '');
  const customer = phone ? await findVisibleCustomerByPhone(rt.db, systemActor(route.tenantId), phone) : undefined;
  const uuid = randomUUID();
  const at = e.at;
  await moveLeg(rt, e.legId, { kind: 'offered', at: at.toISOString() }, async (tx) => {
    await repo.insertCall(tx, {
      uuid,
      yearMonth: yearMonthOf(at),
      tenantId: route.tenantId,
      staffId: null,
      // the number the caller rang (an AI接待 number) is the call's callee until an agent takes it (issue 22)
      sipUser: e.to.replace(/\D/g, ''),
      callType: CALL_TYPE.inbound,
      caller: phone,
      calledNumber: phone,
      customerId: customer?.id ?? null,
      state: CALL_STATE.ringing,
      startAt: at,
      ringAt: at,
      origin: repo.ORIGIN_SERVER,
    });
    const row: legs.CallLegInsert = {
      id: e.legId,
      callUuid: uuid,
      tenantId: route.tenantId,
      role: 'customer',
      targetKind: 'number',
      target: phone,
      state: CALL_STATE.ringing,
      createdAt: at,
      ringAt: at,
      ownerInstance: rt.instanceId,
    };
    await legs.insertLeg(tx, row);
    return legs.findLeg(tx, e.legId);
  });
};

/** An agent leg answered: the call becomes his (staff, extension), his screen shows the customer. */
const agentAnswered = async (rt: CallRuntime, leg: legs.CallLeg) => {
  if (!leg.staffId) return;
  const member = await findStaffMember(rt.db, leg.tenantId, leg.staffId);
  const sip = await findDefaultSip(rt.db, leg.tenantId, leg.staffId);
  const call = await rt.db.transaction(async (tx) => {
    const row = await legs.attachAgent(tx, leg.tenantId, leg.callUuid, {
      staffId: leg.staffId as number,
      departmentId: member?.departmentId ?? null,
      sipId: sip?.sip.id ?? null,
      sipUser: sip?.sip.user ?? leg.target,
    });
    if (row && sip) await setCallState(tx, leg.tenantId, sip.sip.id, { callStatus: CALL_STATUS.talking });
    return row;
  });
  if (call) await publishProgress(rt, call, 'answered');
};

/** Line events of this instance → legs, calls and domain events. Events of one leg come in order. */
export const handleControlEvent = async (rt: CallRuntime, e: ControlEvent): Promise<void> => {
  const at = e.at.toISOString();
  if (e.kind === 'offered') return legOffered(rt, e);
  if (e.kind === 'ended') {
    const side = rt.control.sides.get(e.legId) ?? e.side;
    rt.control.sides.delete(e.legId);
    await legEnded(rt, e.legId, { at: e.at, side, cause: e.cause, recording: e.recording });
    return;
  }
  // the leg's company: every write names it (a leg this line does not know is left alone)
  const tenantId = (await legs.findLeg(rt.db, e.legId))?.tenantId;
  if (tenantId === undefined) return;
  switch (e.kind) {
    case 'ringing': {
      const leg = await moveLeg(rt, e.legId, { kind: 'ringing', at }, (tx) =>
        legs.advanceLeg(tx, tenantId, e.legId, CALL_STATE.ringing, { ringAt: e.at }),
      );
      if (!leg) return;
      if (isCustomerSide(leg.role)) await markRinging(rt, leg.tenantId, leg.callUuid, e.at);
      if (leg.role === 'agent' && leg.staffId) {
        const call = await repo.findCall(rt.db, leg.callUuid);
        const autoAnswer = rt.control.autoAnswer?.has(leg.id) === true;
        if (call) await publishProgress(rt, call, 'ringing', leg.staffId, { autoAnswer });
      }
      return;
    }
    case 'answered': {
      const leg = await moveLeg(rt, e.legId, { kind: 'answered', at }, (tx) =>
        legs.advanceLeg(tx, tenantId, e.legId, CALL_STATE.answered, { answerAt: e.at }),
      );
      if (!leg) return;
      if (isCustomerSide(leg.role)) await markAnswered(rt, leg.tenantId, leg.callUuid, e.at);
      if (leg.role === 'agent') await agentAnswered(rt, leg);
      return;
    }
    case 'digit':
      await moveLeg(rt, e.legId, { kind: 'digit', at, digit: e.digit }, (tx) => legs.appendDigit(tx, tenantId, e.legId, e.digit));
      return;
    case 'bridged':
      await moveLeg(rt, e.legId, { kind: 'bridged', at, otherLegId: e.otherLegId }, (tx) =>
        legs.setBridged(tx, tenantId, e.legId, e.otherLegId),
      );
      return;
    case 'handle':
      await legs.setLineHandle(rt.db, tenantId, e.legId, e.handle);
      return;
  }
};

/**
 * Ends on the line, from its stored handle, a leg whose owner is gone (sip: the dialog may outlive
 * the process that held it); false when the line cannot or there was nothing left.
 */
export const endByHandle = async (rt: CallRuntime, leg: legs.CallLeg, cause: HangupCause) => {
  if (!leg.lineHandle || !rt.line.endByHandle) return false;
  return rt.line.endByHandle(leg.lineHandle, cause).catch(() => false);
};

/** A restarted instance ends the legs its previous life held (their media died with it). */
export const endOrphanedLegs = async (rt: CallRuntime): Promise<number> => {
  const orphans = await legs.activeLegsOwnedBy(rt.db, rt.instanceId);
  let n = 0;
  for (const leg of orphans) {
    if (rt.line.isActive(leg.id)) continue;
    await endByHandle(rt, leg, HANGUP_CAUSE.instanceRestart);
    await legEnded(rt, leg.id, { at: now(), side: 3, cause: HANGUP_CAUSE.instanceRestart });
    n++;
  }
  return n;
};
