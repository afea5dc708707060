import { HANGUP_CAUSE, HANGUP_SIDE, type HangupCause } from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import type { AudioFrame, BridgeMode, PlayResult } from '../../telephony/control';
import { SAMPLE_RATE } from '../../telephony/control';
import type { HangupSideValue } from '../../telephony/provider';
import type { CallRuntime, InboundRoute } from './call-bus';
import { endByHandle, legEnded, setHangupOther } from './call-control-events';
import { type ControlOp, decodeSamples, encodeSamples, InstanceUnreachable, sendCommand } from './call-control-remote';
import * as legs from './call-legs.repo';
import { placeAgentLeg } from './call-originate';
import * as repo from './calls.repo';
import { callSettingsOf } from './dial-policy';

// the placing of legs (call-originate.ts), as the other modules know it from here
export { AGENT_RING_SECONDS, type OriginateCustomerRequest, originateCustomerLeg } from './call-originate';

// Call control (issue 12): the server places (call-originate.ts), answers, bridges, plays into,
// listens to and hangs up call legs. Every customer leg passes the dial policy first; the call
// record (origin 1, no agent yet) and the leg row are written in one transaction before the line
// moves. A command for a leg goes to the instance whose line holds it (call-control-remote.ts); the
// line's events come back through call-control-events.ts.

const { CALL_STATE } = repo;

/** The leg's hang-up on this instance: through the line, or on its row alone when the line lost it. */
const hangupLocal = async (rt: CallRuntime, legId: string, side: HangupSideValue, cause: HangupCause) => {
  rt.control.sides.set(legId, side);
  if (await rt.line.hangup(legId, cause)) return true;
  rt.control.sides.delete(legId);
  await legEnded(rt, legId, { at: now(), side, cause });
  return true;
};

/** The commands another instance may send (call-control-remote.ts), run on this instance's line. */
export const executeLocal = async (rt: CallRuntime, op: ControlOp, args: unknown[]): Promise<unknown> => {
  const legId = String(args[0]);
  switch (op) {
    case 'answer':
      if (!rt.line.isActive(legId)) throw new AppError('CALL_LEG_NOT_FOUND');
      await rt.line.answer(legId);
      return null;
    case 'bridge':
      return placeAgentLeg(rt, legId, Number(args[1]), args[2] === 'forward' ? 'forward' : '3pcc', args[3] === true);
    case 'play':
      return rt.line.play(legId, typeof args[1] === 'string' ? decodeSamples(args[1]) : (args[1] as Int16Array));
    case 'stopPlay':
      rt.line.stopPlay(legId);
      return null;
    case 'hangup':
      return hangupLocal(rt, legId, Number(args[1]) as HangupSideValue, String(args[2]) as HangupCause);
  }
};

/** The leg (not ended), or CALL_LEG_NOT_FOUND. */
const liveLeg = async (rt: CallRuntime, legId: string) => {
  const leg = await legs.findLeg(rt.db, legId);
  if (!leg || leg.state === CALL_STATE.ended) throw new AppError('CALL_LEG_NOT_FOUND');
  return leg;
};

/** Runs a command where the leg lives: here, or on its owner instance over the pub/sub. */
const onOwner = async (rt: CallRuntime, legId: string, op: ControlOp, args: unknown[], waitMs?: number) => {
  const leg = await liveLeg(rt, legId);
  if (leg.ownerInstance === rt.instanceId) return executeLocal(rt, op, args);
  return sendCommand(rt, leg.ownerInstance, op, args, waitMs);
};

export const answerLeg = async (rt: CallRuntime, legId: string) => {
  await onOwner(rt, legId, 'answer', [legId]);
};

/**
 * Joins an agent to a customer leg: his default extension rings (his screen pops the customer);
 * resolves to the agent leg id. `mode`: third-party call control (media stays in rtpengine), or
 * RTP forwarding in the app (the fallback a trunk may need); none given: the company's 外呼设置
 * (call_settings.bridge_mode, 3pcc by default). `autoAnswer`: his phone answers by itself
 * (the group dialer's put-through to an agent in work mode, issue 23): the frames say so.
 */
export const bridgeLegs = async (
  rt: CallRuntime,
  customerLegId: string,
  agentStaffId: number,
  mode?: BridgeMode,
  options: { autoAnswer?: boolean } = {},
) => {
  const leg = await liveLeg(rt, customerLegId);
  const chosen = mode ?? (await callSettingsOf(rt.db, leg.tenantId)).bridgeMode;
  return String(await onOwner(rt, customerLegId, 'bridge', [customerLegId, agentStaffId, chosen, options.autoAnswer === true]));
};

/** Plays 8 kHz samples into a leg (they end up in its recording); resolves when played, stopped or ended. */
export const playInto = async (rt: CallRuntime, legId: string, samples: Int16Array): Promise<PlayResult> => {
  const leg = await liveLeg(rt, legId);
  if (leg.ownerInstance === rt.instanceId) return rt.line.play(legId, samples);
  const waitMs = (samples.length * 1000) / SAMPLE_RATE + 5_000;
  return (await sendCommand(rt, leg.ownerInstance, 'play', [legId, encodeSamples(samples)], waitMs)) as PlayResult;
};

export const stopPlay = async (rt: CallRuntime, legId: string) => {
  await onOwner(rt, legId, 'stopPlay', [legId]);
};

/**
 * A leg's incoming audio as 20 ms frames (voice detection, recognition). Audio stays in the process
 * whose line holds the leg: listen on its owner instance (where the bot or dialer placed it).
 */
export const listen = async (rt: CallRuntime, legId: string, onFrame: (frame: AudioFrame) => void) => {
  const leg = await liveLeg(rt, legId);
  if (leg.ownerInstance !== rt.instanceId || !rt.line.isActive(legId)) throw new AppError('CALL_LEG_NOT_FOUND');
  return rt.line.listen(legId, onFrame);
};

/**
 * Ends a leg; resolves once its end is recorded. A leg already ended is left alone (false). When
 * its owner instance does not answer, the leg is ended on its row (its media died with the owner).
 */
export const hangupLeg = async (
  rt: CallRuntime,
  legId: string,
  side: HangupSideValue = HANGUP_SIDE.system,
  cause: HangupCause = HANGUP_CAUSE.normal,
): Promise<boolean> => {
  const leg = await legs.findLeg(rt.db, legId);
  if (!leg || leg.state === CALL_STATE.ended) return false;
  if (leg.ownerInstance === rt.instanceId) return hangupLocal(rt, legId, side, cause);
  try {
    await sendCommand(rt, leg.ownerInstance, 'hangup', [legId, side, cause]);
  } catch (err) {
    if (!(err instanceof InstanceUnreachable)) throw err;
    // the owner is gone: the line ends what may outlive it (sip dialog), the row records the end
    await endByHandle(rt, leg, cause);
    await legEnded(rt, legId, { at: now(), side, cause });
  }
  return true;
};

/** Ends every leg of a call still in progress; resolves to how many there were. */
export const hangupCallLegs = async (rt: CallRuntime, callUuid: string, side: HangupSideValue, cause: HangupCause) => {
  let n = 0;
  for (const leg of await legs.legsOfCall(rt.db, callUuid)) {
    if (leg.state === CALL_STATE.ended) continue;
    if (await hangupLeg(rt, leg.id, side, cause)) n++;
  }
  return n;
};

/** The agent answers (call/answer) or declines (call/hangup) a server call ringing him: his leg of it. */
export const ringingAgentLeg = async (rt: CallRuntime, actor: Actor, callUuid: string) => {
  const all = await legs.legsOfCall(rt.db, callUuid);
  return all.find((l) => l.role === 'agent' && l.staffId === actor.staffId && l.state < CALL_STATE.answered);
};

/** Wires the routing of hang-ups into the event handling (a leg's end ends its partner's, on any instance). */
export const wireCallControl = () => setHangupOther(hangupLeg);

/** Where trunk calls offered to the app go (AI reception sets it); none: they are refused. */
export const setInboundRoute = (rt: CallRuntime, route: InboundRoute | undefined) => {
  rt.control.inboundRoute = route;
};
