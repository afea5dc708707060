import {
  CALL_LIMITS,
  CALL_TYPE,
  HANGUP_CAUSE,
  HANGUP_SIDE,
  type HangupBody,
  type HangupCause,
  hangupRefusal,
} from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import type { HangupSideValue } from '../../telephony/provider';
import { findSipById } from '../extensions/extensions.service';
import type { CallRuntime } from './call-bus';
import { answerLeg, hangupCallLegs, hangupLeg, ringingAgentLeg } from './call-control';
import { finishCall } from './call-states';
import * as repo from './calls.repo';
import { sendDevice } from './calls-publish';

// A call's life after it is placed, from above: the agent answers or hangs up, the server ends
// what nobody can (sweeps, a lost socket, a second login). The record's moves: call-states.ts.

const { CALL_STATE, CHANNEL } = repo;

/** A call nobody closed (lost device, crashed browser) is ended by the sweep after this long. */
const FORGOTTEN_CALL_MS = 4 * 60 * 60 * 1000;

/** Ends a call from the server side: through the line while it holds the leg, else on the record alone. */
export const endCall = async (rt: CallRuntime, call: repo.CallRecord, side: HangupSideValue, cause: HangupCause) => {
  // a server call ends with its legs (the last leg's end finishes the record)
  if (call.origin === repo.ORIGIN_SERVER && (await hangupCallLegs(rt, call.uuid, side, cause)) > 0) return;
  if (call.channel === CHANNEL.sip && (await rt.provider.hangup(call.uuid, side, cause))) return;
  if (call.channel === CHANNEL.device && call.sipId) {
    const sip = await findSipById(rt.db, call.tenantId, call.sipId);
    if (sip?.sip.imei) await sendDevice(rt, sip.sip.imei, { kind: 'command', frame: { type: 'hangup', uuid: call.uuid } });
  }
  const effective = call.answerAt === null && cause === HANGUP_CAUSE.normal ? HANGUP_CAUSE.cancelled : cause;
  await finishCall(rt, call.uuid, { at: now(), side, cause: effective });
};

/** The agent's leg of a server call of his company, still ringing him. */
const ringingAgentLegOf = async (rt: CallRuntime, actor: Actor, uuid: string) => {
  const call = await repo.findTenantCall(rt.db, actor.tenantId, uuid);
  if (call?.origin !== repo.ORIGIN_SERVER || call.state === CALL_STATE.ended) return undefined;
  return ringingAgentLeg(rt, actor, uuid);
};

const requireOwnCall = async (rt: CallRuntime, actor: Actor, uuid: string) => {
  const call = await repo.findTenantCall(rt.db, actor.tenantId, uuid);
  if (!call || call.staffId !== actor.staffId) throw new AppError('CALL_NOT_FOUND');
  return call;
};

/** hangup (both paths): not within 2 s of the dial ('{n}s 后进行挂断', SPEC §5); an ended call stays ended. */
export const hangup = async (rt: CallRuntime, actor: Actor, body: HangupBody): Promise<void> => {
  // a server call ringing the agent: he declines it (the customer stays for another agent or the bot)
  const ringing = await ringingAgentLegOf(rt, actor, body.uuid);
  if (ringing) {
    await hangupLeg(rt, ringing.id, HANGUP_SIDE.agent, HANGUP_CAUSE.rejected);
    return;
  }
  const call = await requireOwnCall(rt, actor, body.uuid);
  if (call.state === CALL_STATE.ended) return;
  // the countdown the browser shows first (packages/contracts/src/rules.ts)
  const early = hangupRefusal(call.startAt.getTime(), now().getTime());
  if (early) throw new AppError('HANGUP_TOO_EARLY', early);
  if (call.channel === CHANNEL.device) {
    // The call runs on the phone: only the phone can end it (SPEC §5).
    const sip = call.sipId ? await findSipById(rt.db, call.tenantId, call.sipId) : undefined;
    if (!sip?.sip.imei || sip.sip.deviceOnline !== 1) throw new AppError('HANGUP_ON_PHONE');
    await sendDevice(rt, sip.sip.imei, { kind: 'command', frame: { type: 'hangup', uuid: call.uuid } });
    return;
  }
  await endCall(rt, call, HANGUP_SIDE.agent, HANGUP_CAUSE.normal);
};

/** answer: the agent takes an incoming call that is ringing. */
export const answer = async (rt: CallRuntime, actor: Actor, body: HangupBody): Promise<void> => {
  // a server call ringing the agent (call control): his leg answers and joins the customer
  const ringing = await ringingAgentLegOf(rt, actor, body.uuid);
  if (ringing) {
    await answerLeg(rt, ringing.id);
    return;
  }
  const call = await requireOwnCall(rt, actor, body.uuid);
  const isRinging = call.callType === CALL_TYPE.inbound && call.state < CALL_STATE.answered;
  if (!isRinging || !rt.provider.isActive(call.uuid)) throw new AppError('CALL_NOT_RINGING');
  await rt.provider.answer(call.uuid);
};

/** Every call in progress of a staff is hung up by the system (second login: 请勿多端登录). */
export const hangupActiveCallsOf = async (rt: CallRuntime, staffId: number, cause: HangupCause) => {
  for (const call of await repo.activeCallsOf(rt.db, staffId)) await endCall(rt, call, HANGUP_SIDE.system, cause);
};

/**
 * The staff's call socket was lost (page reloaded or closed, network): nobody could end his calls
 * in progress any more, so the server ends them as his hang-up, on every line (sim, sip, device),
 * as the sip line's page-leave does; the socket's 'ended' frame lets the next page say so.
 */
export const endCallsOfLostSocket = async (rt: CallRuntime, staffId: number) => {
  for (const call of await repo.activeCallsOf(rt.db, staffId)) await endCall(rt, call, HANGUP_SIDE.agent, HANGUP_CAUSE.normal);
};

/** Ends calls past the 60 s set-up timeout (呼叫超时!, SPEC §9) and calls nobody closed. */
export const sweepCalls = async (rt: CallRuntime): Promise<number> => {
  const t = now().getTime();
  const unanswered = await repo.activeCallsStartedBefore(rt.db, new Date(t - CALL_LIMITS.setupTimeoutSeconds * 1000), true);
  const forgotten = await repo.activeCallsStartedBefore(rt.db, new Date(t - FORGOTTEN_CALL_MS), false);
  let n = 0;
  for (const call of unanswered) {
    await endCall(rt, call, HANGUP_SIDE.system, HANGUP_CAUSE.timeout);
    n++;
  }
  for (const call of forgotten) {
    if (call.answerAt === null) continue;
    await endCall(rt, call, HANGUP_SIDE.system, HANGUP_CAUSE.lockExpired);
    n++;
  }
  return n;
};
