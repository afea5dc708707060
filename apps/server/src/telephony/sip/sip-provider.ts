import fs from 'node:fs';
import path from 'node:path';
import { HANGUP_CAUSE, HANGUP_SIDE, type HangupCause } from '@crm/contracts';
import { now } from '../../lib/clock';
import type { HangupSideValue, LegEvent, LegListener, OutboundLeg, TelephonyProvider } from '../provider';
import { pcapToWav } from './pcap-wav';

/** What Kamailio posts about a dialog (deploy/telephony/kamailio.cfg, route[CALL_EVENT]). */
export type SipCallEvent = {
  event: 'ringing' | 'answered' | 'ended' | 'failed';
  /** the call uuid (the R-URI user the browser dialled, or the one the app gave an inbound call) */
  callUuid: string;
  /** SIP Call-ID: names rtpengine's recording */
  callId?: string;
  /** final reply code of a failed INVITE */
  sipStatus?: string;
  /** 1 when the BYE came from the browser (the agent) */
  byAgent?: string | number;
};

type Leg = {
  uuid: string;
  agent: string;
  number: string;
  isInbound: boolean;
  answeredAt: Date | null;
  callId: string;
  /** the end is being handled (recording read, record closed): the leg stays active until then */
  isEnding: boolean;
};

/** A failed INVITE's final reply → the record's hang-up cause. */
export const causeOfStatus = (status: number): HangupCause => {
  if (status === 486 || status === 600) return HANGUP_CAUSE.busy;
  if (status === 480 || status === 408) return HANGUP_CAUSE.noAnswer;
  if (status === 603) return HANGUP_CAUSE.rejected;
  if (status === 404 || status === 484 || status === 604) return HANGUP_CAUSE.emptyNumber;
  if (status === 487) return HANGUP_CAUSE.cancelled;
  return HANGUP_CAUSE.unreachable;
};

/** How long a server-side hang-up waits for the browser's BYE to come back through Kamailio. */
const HANGUP_WAIT_MS = 3_000;

export type SipProvider = TelephonyProvider & {
  readonly name: 'sip';
  /** Kamailio's number lookup: the real number of an outbound call the agent (SIP user) placed */
  routeOf: (uuid: string, agent: string) => string | undefined;
  /** an incoming call from the trunk was given this uuid: its events follow */
  openInbound: (leg: { uuid: string; agent: string; from: string }) => void;
  /** Kamailio reports a dialog event; resolves once the listener handled it */
  report: (event: SipCallEvent) => Promise<void>;
};

export type SipOptions = { recordingDir: string };

/**
 * The real line (issue 7): the browser places and answers calls itself (JsSIP over WebSocket to
 * Kamailio); this driver only knows which call uuid means which number, and turns Kamailio's
 * dialog events into leg events. Recordings come from rtpengine's pcap files (G.711 → WAV).
 */
export const createSipProvider = (opts: SipOptions): SipProvider => {
  const legs = new Map<string, Leg>();
  const waiters = new Map<string, (() => void)[]>();
  let listener: LegListener = () => undefined;
  const emit = (event: LegEvent): Promise<void> => Promise.resolve(listener(event)).catch(() => undefined);

  const recordingOf = async (callId: string): Promise<Buffer | undefined> => {
    if (!opts.recordingDir || !callId) return undefined;
    const dir = path.join(opts.recordingDir, 'pcaps');
    // rtpengine writes <call-id>-<hex>.pcap; it is closed right after the dialog's BYE
    for (let attempt = 0; attempt < 10; attempt++) {
      const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
      const name = names.find((n) => n.startsWith(`${callId}-`) && n.endsWith('.pcap'));
      if (name) {
        const wav = pcapToWav(await fs.promises.readFile(path.join(dir, name)));
        if (wav.length > 44) return wav;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return undefined;
  };

  const end = async (leg: Leg, side: HangupSideValue, cause: HangupCause) => {
    if (leg.isEnding || !legs.has(leg.uuid)) return;
    leg.isEnding = true;
    const at = now();
    try {
      const recording = leg.answeredAt ? await recordingOf(leg.callId) : undefined;
      await emit({ kind: 'ended', uuid: leg.uuid, at, side, cause, recording });
    } finally {
      legs.delete(leg.uuid);
      for (const w of waiters.get(leg.uuid) ?? []) w();
      waiters.delete(leg.uuid);
    }
  };
  /** resolves true once the leg has ended, false after ms */
  const endedWithin = (uuid: string, ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      timer.unref();
      waiters.set(uuid, [
        ...(waiters.get(uuid) ?? []),
        () => {
          clearTimeout(timer);
          resolve(true);
        },
      ]);
    });

  return {
    name: 'sip',
    onEvent: (l) => {
      listener = l;
    },
    dial: ({ uuid, from, to }: OutboundLeg) => {
      legs.set(uuid, { uuid, agent: from, number: to, isInbound: false, answeredAt: null, callId: '', isEnding: false });
    },
    routeOf: (uuid, agent) => {
      const leg = legs.get(uuid);
      if (!leg || leg.isInbound || leg.agent.toLowerCase() !== agent.toLowerCase()) return undefined;
      return leg.number;
    },
    openInbound: ({ uuid, agent, from }) => {
      legs.set(uuid, { uuid, agent, number: from, isInbound: true, answeredAt: null, callId: '', isEnding: false });
    },
    report: async (e) => {
      const leg = legs.get(e.callUuid);
      if (!leg) return;
      if (e.callId) leg.callId = e.callId;
      if (e.event === 'ringing') {
        await emit({ kind: 'ringing', uuid: leg.uuid, at: now() });
      } else if (e.event === 'answered') {
        if (leg.answeredAt) return;
        leg.answeredAt = now();
        await emit({ kind: 'answered', uuid: leg.uuid, at: leg.answeredAt });
      } else if (e.event === 'ended') {
        const isAgent = String(e.byAgent ?? '') === '1';
        await end(leg, isAgent ? HANGUP_SIDE.agent : HANGUP_SIDE.customer, HANGUP_CAUSE.normal);
      } else {
        const status = Number(e.sipStatus) || 0;
        // 487: the browser cancelled (the agent hung up while it rang)
        const side = status === 487 ? HANGUP_SIDE.agent : HANGUP_SIDE.customer;
        const cause = leg.isInbound && status === 487 ? HANGUP_CAUSE.noAnswer : causeOfStatus(status);
        await end(leg, side, cause);
      }
    },
    /** The browser sends the BYE/CANCEL; its event closes the record. Without it in time, the record is closed here. */
    hangup: async (uuid, side, cause) => {
      const leg = legs.get(uuid);
      if (!leg) return;
      if (leg.isEnding || side === HANGUP_SIDE.agent) {
        if (await endedWithin(uuid, HANGUP_WAIT_MS)) return;
      }
      const effective = leg.answeredAt === null && cause === HANGUP_CAUSE.normal ? HANGUP_CAUSE.cancelled : cause;
      await end(leg, side, effective);
    },
    // the browser answers the SIP session; Kamailio reports the answer
    answer: async () => undefined,
    isActive: (uuid) => legs.has(uuid),
    close: () => {
      legs.clear();
      for (const list of waiters.values()) for (const w of list) w();
      waiters.clear();
    },
  };
};
