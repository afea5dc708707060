import { GROUPCALL_ABANDON_TEXT, GROUPCALL_AGENT_WAIT_MS, HANGUP_CAUSE, HANGUP_SIDE } from '@crm/contracts';
import { now } from '../../lib/clock';
import type { DomainEvent } from '../../lib/events/events';
import { SAMPLE_RATE } from '../../telephony/control';
import type { Speech } from '../../telephony/tts';
import type { CallRuntime } from '../calls/call-bus';
import { bridgeLegs, hangupLeg, playInto } from '../calls/call-control';
import { isLegLive as isLegLiveIn } from '../calls/calls-for-tasks';
import * as repo from './groupcall.repo';
import { agentsOfTask, type GroupAgent } from './groupcall-agents';
import type { GroupDialerState, PlacedLeg } from './groupcall-state';

// An answered group-call customer (issue 15): the free agent idle longest is rung (his extension
// leg joins the customer, 3pcc; his screen pops the customer through the normal call frames); when
// no agent is free within 2 s of the answer, or the agent rung does not take the call, the customer
// hears the short abandon message and the call is hung up and logged abandoned. The Pacer is told
// each outcome. Driven by the `call.leg` events of the legs the dialer placed.

const POLL_MS = 100;
const TONE_SECONDS = 1;

export type GroupDeps = { rt: CallRuntime; speech: Speech; state: GroupDialerState; onChange: (leg: PlacedLeg) => void };

/** A 440 Hz tone: what the customer hears when speech synthesis is unavailable. */
const tone = () => {
  const s = new Int16Array(SAMPLE_RATE * TONE_SECONDS);
  for (let i = 0; i < s.length; i++) s[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / SAMPLE_RATE));
  return s;
};

let prompt: Promise<Int16Array> | undefined;
/** The abandon message, synthesized once (a tone when speech is unavailable or fails). */
export const abandonPrompt = (speech: Speech) => {
  prompt ??= speech.isAvailable ? speech.synthesize(GROUPCALL_ABANDON_TEXT).catch(() => tone()) : Promise.resolve(tone());
  return prompt;
};

const isLegLive = (rt: CallRuntime, legId: string) => isLegLiveIn(rt.db, legId);

/** The customer found no agent: the message, the hang-up, the call logged abandoned. */
const abandon = async (d: GroupDeps, leg: PlacedLeg) => {
  if (leg.isAbandoned || leg.isConnected) return;
  leg.isAbandoned = true;
  leg.staffId = null;
  await repo.setAbandoned(d.rt.db, leg.tenantId, leg.callUuid, now());
  d.state.pacers.get(leg.taskId)?.abandoned(now().getTime());
  d.onChange(leg);
  const samples = await abandonPrompt(d.speech);
  const result = await playInto(d.rt, leg.legId, samples).catch(() => 'ended' as const);
  if (result !== 'ended') await hangupLeg(d.rt, leg.legId, HANGUP_SIDE.system, HANGUP_CAUSE.normal);
};

/** The free agents of a task now: working, no call, wrap-up over, not being joined to a customer. */
export const freeAgentsOf = (d: GroupDeps, agents: GroupAgent[], at: Date) =>
  agents.filter(
    (a) =>
      a.is_working &&
      !a.in_call &&
      !d.state.joining.has(Number(a.staff_id)) &&
      (a.next_dial_at === null || new Date(a.next_dial_at) <= at),
  );

/** Rings the longest-idle free agent of the task for the customer; false when none was free or his line refused. */
const tryAgent = async (d: GroupDeps, leg: PlacedLeg) => {
  const free = freeAgentsOf(d, await agentsOfTask(d.rt.db, leg.tenantId, leg.taskId), now());
  for (const a of free) {
    const staffId = Number(a.staff_id);
    d.state.joining.add(staffId);
    try {
      leg.staffId = staffId;
      await repo.setAgentOf(d.rt.db, leg.tenantId, leg.callUuid, staffId);
      // he works the task (work mode): his phone answers the put-through by itself (issue 23)
      await bridgeLegs(d.rt, leg.legId, staffId, '3pcc', { autoAnswer: true });
      d.onChange(leg);
      return true;
    } catch {
      leg.staffId = null;
    } finally {
      d.state.joining.delete(staffId);
    }
  }
  return false;
};

/** A customer leg answered: an agent within 2 s, or the abandon message. */
export const customerAnswered = async (d: GroupDeps, leg: PlacedLeg) => {
  leg.answeredReal = Date.now();
  leg.answeredAt = now().getTime();
  await repo.insertAnswered(d.rt.db, {
    callUuid: leg.callUuid,
    tenantId: leg.tenantId,
    taskId: leg.taskId,
    answeredAt: new Date(leg.answeredAt),
  });
  d.state.pacers.get(leg.taskId)?.rang(leg.answeredAt, true);
  d.onChange(leg);
  const until = leg.answeredReal + GROUPCALL_AGENT_WAIT_MS;
  while (Date.now() < until) {
    if (!(await isLegLive(d.rt, leg.legId))) return;
    if (await tryAgent(d, leg)) return;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  if (await isLegLive(d.rt, leg.legId)) await abandon(d, leg);
};

type LegEvent = DomainEvent<'call.leg'>;

/** The dialer's view of a `call.leg` event (after its commit, outside the delivering transaction). */
export const onLegEvent = async (d: GroupDeps, e: LegEvent) => {
  const p = e.payload;
  const leg = p.role === 'customer' ? d.state.legs.get(p.legId) : d.state.legOfCall(p.callUuid);
  if (!leg) {
    if (p.role === 'customer' && (p.kind === 'answered' || p.kind === 'ended')) {
      d.state.early.set(p.legId, [...(d.state.early.get(p.legId) ?? []), e]);
      setTimeout(() => d.state.early.delete(p.legId), 5_000).unref();
    }
    return;
  }
  const at = now().getTime();
  if (p.role === 'customer' && p.kind === 'answered') return customerAnswered(d, leg);
  if (p.role === 'customer' && p.kind === 'bridged' && leg.staffId !== null && !leg.isConnected) {
    leg.isConnected = true;
    const connectedAt = new Date(p.at);
    await repo.setConnected(d.rt.db, leg.tenantId, leg.callUuid, connectedAt);
    d.state.pacers.get(leg.taskId)?.connected(at, Math.max(0, connectedAt.getTime() - (leg.answeredAt ?? at)));
    d.onChange(leg);
    return;
  }
  if (p.role === 'agent' && p.kind === 'ended' && !leg.isConnected && !leg.isAbandoned) {
    // the agent rung did not take the call: the customer hears the message
    if (await isLegLive(d.rt, leg.legId)) await abandon(d, leg);
    return;
  }
  if (p.role === 'customer' && p.kind === 'ended') {
    if (leg.answeredReal === null) d.state.pacers.get(leg.taskId)?.rang(at, false);
    d.state.legs.delete(leg.legId);
    d.onChange(leg);
  }
};

/** The dialer placed a customer leg: it follows the leg's events (and those that came before this). */
export const registerLeg = async (d: GroupDeps, leg: PlacedLeg) => {
  d.state.legs.set(leg.legId, leg);
  const early = (d.state.early.get(leg.legId) ?? []) as LegEvent[];
  d.state.early.delete(leg.legId);
  for (const e of early) void onLegEvent(d, e).catch(() => undefined);
};
