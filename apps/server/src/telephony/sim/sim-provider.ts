import { HANGUP_CAUSE, HANGUP_SIDE, type HangupCause } from '@crm/contracts';
import { clockOffsetMs, now } from '../../lib/clock';
import type { HangupSideValue, InboundLeg, LegEvent, LegListener, OutboundLeg, TelephonyProvider } from '../provider';
import { simRecording } from './wav';

/**
 * What the sim line does with a dialled number, keyed on its last digit. Times are simulated
 * seconds after the dial (divided by SIM_SPEED in real time). Ringing starts 0.5 s after the
 * dial except for 空号 and 关机, which fail at once like a real carrier announcement.
 *
 * | last digit | outcome                     | when                                   | cause         |
 * | ---------- | --------------------------- | -------------------------------------- | ------------- |
 * | 1          | answered                    | after 1 s of ringing                   | normal        |
 * | 2          | answered                    | after 2 s of ringing                   | normal        |
 * | 3          | answered                    | after 3 s of ringing                   | normal        |
 * | 4          | answered, short call        | after 2 s; the customer hangs up at 8 s | normal       |
 * | 5          | rings and is never answered | the server's 60 s set-up timeout ends it (呼叫超时!) | timeout |
 * | 6          | busy                        | after 1 s of ringing                   | busy          |
 * | 7          | 空号 (number does not exist)| 1 s after the dial, no ringing         | empty_number  |
 * | 8          | 关机 (phone switched off)   | 1 s after the dial, no ringing         | powered_off   |
 * | 9          | no answer                   | the carrier gives up after 30 s of ringing | no_answer |
 * | 0          | rejected by the customer    | after 4 s of ringing                   | rejected      |
 *
 * An answered customer hangs up after SIM_TALK_SECONDS (default 45) unless the agent hangs
 * up first. The AI bot's legs (and inbound calls the app answers) reach a scripted customer picked
 * by the number's second-to-last digit: 0 interested, 1 refuses, 2 silent, 3 presses 1, 4 off the
 * point, 5–9 none (sim-script.ts has the table). Answered calls get a generated WAV recording of the call's real length.
 */
export type SimOutcome =
  | { kind: 'answer'; ringSeconds: number; talkSeconds?: number }
  | { kind: 'fail'; afterSeconds: number; isRinging: boolean; cause: HangupCause }
  | { kind: 'ringForever' };

export const SIM_RING_DELAY_SECONDS = 0.5;
/** The longest recording of a call during which the business clock was moved. */
export const SIM_RECORDING_MAX_SECONDS = 120;

export const simOutcomeOf = (number: string): SimOutcome => {
  switch (number.replace(/\D/g, '').slice(-1)) {
    case '1':
      return { kind: 'answer', ringSeconds: 1 };
    case '2':
      return { kind: 'answer', ringSeconds: 2 };
    case '3':
      return { kind: 'answer', ringSeconds: 3 };
    case '4':
      return { kind: 'answer', ringSeconds: 2, talkSeconds: 8 };
    case '5':
      return { kind: 'ringForever' };
    case '6':
      return { kind: 'fail', afterSeconds: 1.5, isRinging: true, cause: HANGUP_CAUSE.busy };
    case '7':
      return { kind: 'fail', afterSeconds: 1, isRinging: false, cause: HANGUP_CAUSE.emptyNumber };
    case '8':
      return { kind: 'fail', afterSeconds: 1, isRinging: false, cause: HANGUP_CAUSE.poweredOff };
    case '9':
      return { kind: 'fail', afterSeconds: 30.5, isRinging: true, cause: HANGUP_CAUSE.noAnswer };
    default:
      return { kind: 'fail', afterSeconds: 4.5, isRinging: true, cause: HANGUP_CAUSE.rejected };
  }
};

export type SimOptions = {
  /** delays run this many times faster (tests use 100 or more) */
  speed: number;
  /** an answered customer hangs up after this many simulated seconds */
  talkSeconds: number;
};

type Leg = {
  uuid: string;
  /** business-clock instant of the dial, and the real instant and clock offset then */
  startAt: number;
  startReal: number;
  startOffset: number;
  answeredAt: number | null;
  /** business-clock offset when answered */
  answerOffset: number;
  timers: NodeJS.Timeout[];
  talkSeconds: number;
};

/** The built-in simulated carrier (DESIGN §6): deterministic outcomes, realistic delays, recordings. */
export const createSimProvider = (opts: SimOptions): TelephonyProvider & { readonly name: 'sim' } => {
  const legs = new Map<string, Leg>();
  let listener: LegListener = () => undefined;

  /** Simulated time of a leg: its start plus the real time since, sped up, plus business-clock moves. */
  const simNow = (leg: Leg) =>
    new Date(leg.startAt + (Date.now() - leg.startReal) * opts.speed + (clockOffsetMs() - leg.startOffset));
  const at = (leg: Leg, seconds: number) => new Date(leg.startAt + seconds * 1000 + (clockOffsetMs() - leg.startOffset));

  /** Hands an event to the listener; timers ignore the promise, direct calls await it. */
  const emit = (event: LegEvent): Promise<void> => Promise.resolve(listener(event)).catch(() => undefined);
  const later = (leg: Leg, seconds: number, fn: () => void) => {
    const timer = setTimeout(fn, (seconds * 1000) / opts.speed);
    timer.unref();
    leg.timers.push(timer);
  };
  const end = async (leg: Leg, when: Date, side: HangupSideValue, cause: HangupCause) => {
    if (!legs.delete(leg.uuid)) return;
    for (const t of leg.timers) clearTimeout(t);
    const billsec = leg.answeredAt === null ? 0 : Math.max(0, Math.round((when.getTime() - leg.answeredAt) / 1000));
    // the billing clock may have been moved during the call (tests skip hours or days): the call is
    // billed that long, but its recording stops at SIM_RECORDING_MAX_SECONDS (a day of audio is a
    // 1.4 GB buffer and minutes of CPU)
    const isClockMoved = clockOffsetMs() !== leg.answerOffset;
    const recordSeconds = isClockMoved ? Math.min(billsec, SIM_RECORDING_MAX_SECONDS) : billsec;
    const recording = leg.answeredAt === null ? undefined : simRecording(recordSeconds, leg.uuid);
    await emit({ kind: 'ended', uuid: leg.uuid, at: when, side, cause, recording });
  };
  const answer = async (leg: Leg, when: Date) => {
    if (leg.answeredAt !== null || !legs.has(leg.uuid)) return;
    leg.answeredAt = when.getTime();
    leg.answerOffset = clockOffsetMs();
    const answeredAt = leg.answeredAt;
    later(leg, leg.talkSeconds, () => {
      const hangupAt = new Date(answeredAt + leg.talkSeconds * 1000 + (clockOffsetMs() - leg.answerOffset));
      void end(leg, hangupAt, HANGUP_SIDE.customer, HANGUP_CAUSE.normal);
    });
    await emit({ kind: 'answered', uuid: leg.uuid, at: when });
  };
  const open = (uuid: string, talkSeconds = opts.talkSeconds): Leg => {
    const leg: Leg = {
      uuid,
      startAt: now().getTime(),
      startReal: Date.now(),
      startOffset: clockOffsetMs(),
      answeredAt: null,
      answerOffset: 0,
      timers: [],
      talkSeconds,
    };
    legs.set(uuid, leg);
    return leg;
  };

  return {
    name: 'sim',
    onEvent: (l) => {
      listener = l;
    },
    dial: ({ uuid, to }: OutboundLeg) => {
      const outcome = simOutcomeOf(to);
      const leg = open(uuid, outcome.kind === 'answer' ? (outcome.talkSeconds ?? opts.talkSeconds) : opts.talkSeconds);
      const isRinging = outcome.kind !== 'fail' || outcome.isRinging;
      if (isRinging) {
        later(leg, SIM_RING_DELAY_SECONDS, () => void emit({ kind: 'ringing', uuid, at: at(leg, SIM_RING_DELAY_SECONDS) }));
      }
      if (outcome.kind === 'answer') {
        const s = SIM_RING_DELAY_SECONDS + outcome.ringSeconds;
        later(leg, s, () => void answer(leg, at(leg, s)));
      } else if (outcome.kind === 'fail') {
        later(leg, outcome.afterSeconds, () => void end(leg, at(leg, outcome.afterSeconds), HANGUP_SIDE.customer, outcome.cause));
      }
    },
    incoming: async ({ uuid, ringSeconds }: InboundLeg) => {
      const leg = open(uuid);
      // the caller gives up when nobody answers
      later(leg, ringSeconds, () => {
        if (leg.answeredAt === null) void end(leg, at(leg, ringSeconds), HANGUP_SIDE.customer, HANGUP_CAUSE.noAnswer);
      });
      await emit({ kind: 'ringing', uuid, at: new Date(leg.startAt) });
    },
    answer: async (uuid) => {
      const leg = legs.get(uuid);
      if (leg) await answer(leg, simNow(leg));
    },
    hangup: async (uuid, side, cause) => {
      const leg = legs.get(uuid);
      if (!leg) return false;
      const effective = leg.answeredAt === null && cause === HANGUP_CAUSE.normal ? HANGUP_CAUSE.cancelled : cause;
      await end(leg, simNow(leg), side, effective);
      return true;
    },
    isActive: (uuid) => legs.has(uuid),
    close: () => {
      for (const leg of legs.values()) for (const t of leg.timers) clearTimeout(t);
      legs.clear();
    },
  };
};
