import { HANGUP_CAUSE, HANGUP_SIDE, type HangupCause } from '@crm/contracts';
import { now } from '../../lib/clock';
import type { HangupSideValue, LegEvent, LegListener, OutboundLeg, TelephonyProvider } from '../provider';
import { recordingOfCall } from './pcap-wav';
import type { SipControl, SipDialog } from './sip-types';

/** What Kamailio posts about a dialog (deploy/telephony/kamailio.cfg, route[CALL_EVENT]). */
export type SipCallEvent = {
  event: 'ringing' | 'answered' | 'ended' | 'failed';
  /** the call uuid (the R-URI user the browser dialled, or the one the app gave an inbound call) */
  callUuid: string;
  /** SIP Call-ID: names rtpengine's recording, and the INVITE to cancel */
  callId?: string;
  /** CSeq number of the INVITE (ringing): the app can cancel it */
  cseq?: string;
  /** the dialog's From and To tags (answered): with the Call-ID, the app can end it */
  fromTag?: string;
  toTag?: string;
  /** final reply code of a failed INVITE */
  sipStatus?: string;
  /** 1 when the BYE came from the browser (the agent) */
  byAgent?: string | number;
};

export type { SipDialog } from './sip-types';

/** A call in progress as the call records hold it: enough to route and end it on any app instance. */
export type StoredLeg = {
  uuid: string;
  agent: string;
  number: string;
  isInbound: boolean;
  answeredAt: Date | null;
  dialog: SipDialog | null;
};

/** Where the line keeps what outlives this process: the call records (set by the calls module). */
export type SipLegStore = {
  find: (uuid: string) => Promise<StoredLeg | undefined>;
  saveDialog: (uuid: string, dialog: SipDialog) => Promise<void>;
};

type Leg = Omit<StoredLeg, 'dialog'> &
  SipDialog & {
    /** the end is being handled (recording read, record closed): the leg stays active until then */
    isEnding: boolean;
    /** the app ended it through Kamailio: its report carries this side and cause, not the BYE's */
    endedByApp: { side: HangupSideValue; cause: HangupCause } | null;
    openedAt: number;
  };

const dialogOf = (leg: SipDialog): SipDialog => ({
  callId: leg.callId,
  cseq: leg.cseq,
  fromTag: leg.fromTag,
  toTag: leg.toTag,
});
/** The stored handle fills what this process has not heard (it never overrides what it has). */
const pickNewer = (leg: SipDialog, stored: SipDialog): SipDialog => ({
  callId: leg.callId || stored.callId,
  cseq: leg.cseq || stored.cseq,
  fromTag: leg.fromTag || stored.fromTag,
  toTag: leg.toTag || stored.toTag,
});

/** A failed INVITE's final reply → the record's hang-up cause. */
export const causeOfStatus = (status: number): HangupCause => {
  if (status === 486 || status === 600) return HANGUP_CAUSE.busy;
  if (status === 480 || status === 408) return HANGUP_CAUSE.noAnswer;
  if (status === 603) return HANGUP_CAUSE.rejected;
  if (status === 404 || status === 484 || status === 604) return HANGUP_CAUSE.emptyNumber;
  if (status === 487) return HANGUP_CAUSE.cancelled;
  return HANGUP_CAUSE.unreachable;
};

/** How long a server-side hang-up waits for the browser's BYE (or Kamailio's report) to come back. */
const HANGUP_WAIT_MS = 3_000;
/** Legs cached longer than this are dropped (another instance may have ended them): the records remain. */
const LEG_CACHE_MS = 6 * 3600_000;

export type SipProvider = TelephonyProvider & {
  readonly name: 'sip';
  /** where legs this process has not seen come from (the call records): set once by the calls module */
  useStore: (store: SipLegStore) => void;
  /** Kamailio's number lookup: the real number of an outbound call the agent (SIP user) placed */
  routeOf: (uuid: string, agent: string) => Promise<string | undefined>;
  /** an incoming call from the trunk was given this uuid: its events follow */
  openInbound: (leg: { uuid: string; agent: string; from: string }) => void;
  /** Kamailio reports a dialog event; resolves once the listener handled it */
  report: (event: SipCallEvent) => Promise<void>;
};

export type SipOptions = { recordingDir: string; control?: SipControl };

/**
 * The real line (issue 7): the browser places and answers calls itself (JsSIP over WebSocket to
 * Kamailio); this driver knows which call uuid means which number (from the call records, so
 * any app instance answers), turns Kamailio's dialog events into leg events, and ends a dialog
 * through Kamailio when the app ends a call the browser can no longer end (page left, timeout).
 * Recordings come from rtpengine's pcap files (G.711 → WAV).
 */
export const createSipProvider = (opts: SipOptions): SipProvider => {
  const legs = new Map<string, Leg>();
  const waiters = new Map<string, (() => void)[]>();
  let listener: LegListener = () => undefined;
  let store: SipLegStore = { find: async () => undefined, saveDialog: async () => undefined };
  const emit = (event: LegEvent): Promise<void> => Promise.resolve(listener(event)).catch(() => undefined);

  const remember = ({ dialog, ...stored }: StoredLeg): Leg => {
    const leg: Leg = {
      ...stored,
      ...(dialog ?? { callId: '', cseq: '', fromTag: '', toTag: '' }),
      isEnding: false,
      endedByApp: null,
      openedAt: Date.now(),
    };
    legs.set(leg.uuid, leg);
    const old = Date.now() - LEG_CACHE_MS;
    for (const l of legs.values()) if (l.openedAt < old) legs.delete(l.uuid);
    return leg;
  };
  const legOf = async (uuid: string): Promise<Leg | undefined> => {
    const cached = legs.get(uuid);
    if (cached) return cached;
    const stored = uuid ? await store.find(uuid).catch(() => undefined) : undefined;
    return stored ? (legs.get(uuid) ?? remember(stored)) : undefined;
  };

  const recordingOf = (callId: string) => recordingOfCall(opts.recordingDir, callId);

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
      if (!legs.has(uuid)) return resolve(true);
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
  /** Kamailio ends the dialog (BYE both ways) or cancels the ringing INVITE; false when it could not. */
  const endInKamailio = async (leg: Leg): Promise<boolean> => {
    const control = opts.control;
    if (!control) return false;
    // another instance may have heard the answer: the records hold what it learnt
    const stored = await store.find(leg.uuid).catch(() => undefined);
    if (stored?.answeredAt && !leg.answeredAt) leg.answeredAt = stored.answeredAt;
    if (stored?.dialog) Object.assign(leg, pickNewer(leg, stored.dialog));
    if (leg.answeredAt && leg.callId && leg.fromTag && leg.toTag) return control.endDialog(dialogOf(leg));
    if (!leg.answeredAt && leg.callId && leg.cseq) return control.cancelInvite(leg.callId, leg.cseq);
    return false;
  };

  return {
    name: 'sip',
    onEvent: (l) => {
      listener = l;
    },
    useStore: (s) => {
      store = s;
    },
    dial: ({ uuid, from, to }: OutboundLeg) => {
      remember({ uuid, agent: from, number: to, isInbound: false, answeredAt: null, dialog: null });
    },
    routeOf: async (uuid, agent) => {
      const leg = await legOf(uuid);
      if (!leg || leg.isInbound || leg.isEnding || leg.agent.toLowerCase() !== agent.toLowerCase()) return undefined;
      return leg.number;
    },
    openInbound: ({ uuid, agent, from }) => {
      remember({ uuid, agent, number: from, isInbound: true, answeredAt: null, dialog: null });
    },
    report: async (e) => {
      const leg = await legOf(e.callUuid);
      if (!leg) return;
      const before = dialogOf(leg);
      if (e.callId) leg.callId = e.callId;
      if (e.cseq) leg.cseq = e.cseq;
      if (e.fromTag && e.toTag) {
        leg.fromTag = e.fromTag;
        leg.toTag = e.toTag;
      }
      const after = dialogOf(leg);
      const isNews = (Object.keys(after) as (keyof SipDialog)[]).some((k) => after[k] !== before[k]);
      if (isNews && (e.event === 'ringing' || e.event === 'answered'))
        await store.saveDialog(leg.uuid, after).catch(() => undefined);
      if (e.event === 'ringing') {
        await emit({ kind: 'ringing', uuid: leg.uuid, at: now() });
      } else if (e.event === 'answered') {
        if (leg.answeredAt) return;
        leg.answeredAt = now();
        await emit({ kind: 'answered', uuid: leg.uuid, at: leg.answeredAt });
      } else if (leg.endedByApp) {
        await end(leg, leg.endedByApp.side, leg.endedByApp.cause);
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
    /**
     * The browser sends the BYE/CANCEL of an agent's hang-up; its event closes the record. Without
     * it in time (page left, network lost) or for a system hang-up, Kamailio is asked to end the
     * dialog, so the customer is not left on a dead line; the record is closed here at the latest.
     */
    hangup: async (uuid, side, cause) => {
      const leg = await legOf(uuid);
      if (!leg) return false;
      if (leg.isEnding || side === HANGUP_SIDE.agent) {
        if (await endedWithin(uuid, HANGUP_WAIT_MS)) return true;
      }
      const effective = leg.answeredAt === null && cause === HANGUP_CAUSE.normal ? HANGUP_CAUSE.cancelled : cause;
      leg.endedByApp = { side, cause: effective };
      if ((await endInKamailio(leg)) && (await endedWithin(uuid, HANGUP_WAIT_MS))) return true;
      await end(leg, side, effective);
      return true;
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
