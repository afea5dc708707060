import { randomUUID } from 'node:crypto';
import { HANGUP_CAUSE, HANGUP_SIDE, type HangupCause } from '@crm/contracts';
import { clockOffsetMs, now } from '../../lib/clock';
import {
  type AudioFrame,
  type BridgeMode,
  type CallControlLine,
  type ControlEvent,
  type ControlListener,
  FRAME_MS,
  FRAME_SAMPLES,
  type LegTarget,
  type OriginateRequest,
  type PlayResult,
  SAMPLE_RATE,
} from '../control';
import type { HangupSideValue } from '../provider';
import { type Burst, farEndFrame, mixRecording, type Overlay, voiceSeedOf } from './sim-audio';
import { SIM_RING_DELAY_SECONDS, type SimOptions, simOutcomeOf } from './sim-provider';
import { REPLY_DELAY_MS, SCRIPTED_TALK_SECONDS, type SimScript, sayMsOf, simScriptOf } from './sim-script';
import { wavOf } from './wav';

/**
 * The sim line of call control (issue 12): simulated legs with the sim number table's outcomes
 * and delays (sim-provider.ts: last digit 1–4 answered, 5 rings on, 6 busy, 7 空号, 8 关机,
 * 9 no answer, 0 rejected), all timings divided by SIM_SPEED. An answered leg's far end speaks in
 * bursts (sim-audio.ts) as 20 ms frames; a prompt takes samples.length / 8 ms; the recording (WAV)
 * mixes the far end, the prompts and the bridged leg. An extension leg rings the agent's browser
 * (the calls module tells his socket) and waits for his answer, as a sim incoming call does.
 * Tests and demos drive the far end with `simulateDigit` and `simulateInbound`. A bot leg's far end
 * (and an inbound caller's) is a scripted customer when its number has a script (sim-script.ts):
 * he replies after each prompt instead of the usual cycle; `simHeard` tells what he said when.
 */
export type SimControlLine = CallControlLine & {
  readonly name: 'sim';
  /** the far end of an answered leg presses a key; resolves once the digit event is handled */
  simulateDigit: (legId: string, digit: string, durationMs?: number) => Promise<void>;
  /** a trunk call reaches the app (`offered`); the caller gives up after ringSeconds; resolves to the leg id */
  simulateInbound: (call: { from: string; to: string; ringSeconds?: number }) => Promise<string>;
  /** the leg's far end hangs up now */
  simulateHangup: (legId: string, cause?: HangupCause) => Promise<void>;
  /** what a scripted customer said on the leg: text and ms since the answer (kept a minute after the end) */
  simHeard: (legId: string) => SimSaid[];
};

/** a reply: its text (a key press: 按键N with `digit`) and its stretch in ms since the answer */
export type SimSaid = { text: string; fromMs: number; toMs: number; digit?: string };

type Playing = {
  samples: Int16Array;
  resolve: (r: PlayResult) => void;
  startReal: number;
  timer?: NodeJS.Timeout;
  overlay?: Overlay;
};

type Leg = {
  id: string;
  target: LegTarget | { kind: 'inbound'; from: string; to: string };
  seed: number;
  /** business-clock instant of the start, and the real instant and clock offset then */
  startAt: number;
  startReal: number;
  startOffset: number;
  answerReal: number | null;
  timers: NodeJS.Timeout[];
  talkSeconds: number;
  overlays: Overlay[];
  playing: Playing | null;
  queue: Playing[];
  listeners: Set<(frame: AudioFrame) => void>;
  framesSent: number;
  ticker: NodeJS.Timeout | null;
  /** joined to this leg once answered (an agent leg for a waiting customer) */
  bridgeTo?: OriginateRequest['bridgeTo'];
  /** a scripted customer (sim-script.ts): his next reply, and the stretches he speaks in */
  script?: SimScript;
  replyNo: number;
  bursts?: Burst[];
  said: SimSaid[];
};

export const createSimControl = (opts: SimOptions): SimControlLine => {
  const legs = new Map<string, Leg>();
  /** what scripted customers said, by leg (a recognizer may ask after the leg ended) */
  const heard = new Map<string, SimSaid[]>();
  let listener: ControlListener = () => undefined;
  const emit = (event: ControlEvent): Promise<void> => Promise.resolve(listener(event)).catch(() => undefined);

  /** the business clock as the leg sees it: its start plus the real time since, sped up */
  const simNow = (leg: Leg) =>
    new Date(leg.startAt + (Date.now() - leg.startReal) * opts.speed + (clockOffsetMs() - leg.startOffset));
  const at = (leg: Leg, seconds: number) => new Date(leg.startAt + seconds * 1000 + (clockOffsetMs() - leg.startOffset));
  /** samples since the answer (the recording's clock) */
  const sampleNow = (leg: Leg) =>
    leg.answerReal === null ? 0 : Math.floor(((Date.now() - leg.answerReal) * opts.speed * SAMPLE_RATE) / 1000);
  const later = (leg: Leg, seconds: number, fn: () => void) => {
    const timer = setTimeout(fn, (seconds * 1000) / opts.speed);
    timer.unref();
    leg.timers.push(timer);
  };

  /** how long an answered far end stays: a scripted customer as long as the bot talks with him (sim-script.ts) */
  const talkSecondsOf = (script: SimScript | undefined) =>
    script ? Math.max(opts.talkSeconds, SCRIPTED_TALK_SECONDS) : opts.talkSeconds;

  const open = (id: string, target: Leg['target'], talkSeconds = opts.talkSeconds, script?: SimScript): Leg => {
    const leg: Leg = {
      id,
      target,
      seed: voiceSeedOf(id),
      startAt: now().getTime(),
      startReal: Date.now(),
      startOffset: clockOffsetMs(),
      answerReal: null,
      timers: [],
      talkSeconds,
      overlays: [],
      playing: null,
      queue: [],
      listeners: new Set(),
      framesSent: 0,
      ticker: null,
      script,
      replyNo: 0,
      bursts: script ? [] : undefined,
      said: [],
    };
    legs.set(id, leg);
    if (script) heard.set(id, leg.said);
    return leg;
  };

  // ---------- audio ----------

  const sendFrames = (leg: Leg) => {
    const due = Math.floor(sampleNow(leg) / (SAMPLE_RATE / (1000 / FRAME_MS)));
    for (; leg.framesSent < due; leg.framesSent++) {
      const frame: AudioFrame = {
        legId: leg.id,
        seq: leg.framesSent,
        samples: farEndFrame(leg.seed, leg.framesSent, leg.bursts),
      };
      for (const l of leg.listeners) l(frame);
    }
  };
  const startFrames = (leg: Leg) => {
    if (leg.ticker || leg.answerReal === null || leg.listeners.size === 0) return;
    leg.ticker = setInterval(() => sendFrames(leg), Math.max(4, FRAME_MS / opts.speed));
    leg.ticker.unref();
  };
  const stopFrames = (leg: Leg) => {
    if (leg.ticker) clearInterval(leg.ticker);
    leg.ticker = null;
  };

  /** Ends the prompt in progress (stopped, or the leg ended): the recording keeps what was played. */
  const cutPlaying = (leg: Leg, result: PlayResult) => {
    const p = leg.playing;
    if (!p) return;
    if (p.timer) clearTimeout(p.timer);
    if (p.overlay?.kind === 'play') {
      const played = Math.floor(((Date.now() - p.startReal) * opts.speed * SAMPLE_RATE) / 1000);
      p.overlay.length = Math.min(p.overlay.length, played);
    }
    leg.playing = null;
    p.resolve(result);
  };
  const startNextPlay = (leg: Leg) => {
    const p = leg.queue.shift();
    if (!p) return;
    leg.playing = p;
    p.startReal = Date.now();
    if (leg.answerReal !== null) {
      p.overlay = { kind: 'play', atSample: sampleNow(leg), samples: p.samples, length: p.samples.length };
      leg.overlays.push(p.overlay);
    }
    const ms = (p.samples.length * 1000) / SAMPLE_RATE / opts.speed;
    p.timer = setTimeout(() => {
      if (leg.playing !== p) return;
      leg.playing = null;
      p.resolve('done');
      startNextPlay(leg);
      if (!leg.playing) replyLater(leg, p.overlay?.kind === 'play' ? p.overlay.atSample + p.overlay.length : sampleNow(leg));
    }, ms);
    p.timer.unref();
  };

  /**
   * A scripted customer's next reply, REPLY_DELAY_MS after the bot's prompt ended at sample `endSample`.
   * His words are placed on the leg's sample clock, not by a timer: a timer late by a busy event loop
   * (at 25× a 100 ms stall is 2.5 s of the call) would move them past the bot's silence wait. Only
   * frames not yet sent can still carry them.
   */
  const replyLater = (leg: Leg, endSample: number) => {
    const reply = leg.script?.replies[leg.replyNo];
    if (!reply || leg.answerReal === null) return;
    leg.replyNo++;
    if (reply.kind === 'wait') return;
    if (reply.kind === 'digit') {
      later(leg, REPLY_DELAY_MS / 1000, () => {
        if (!legs.has(leg.id)) return;
        const ms = (sampleNow(leg) * 1000) / SAMPLE_RATE;
        leg.said.push({ text: `按键${reply.digit}`, fromMs: ms, toMs: ms, digit: reply.digit });
        void emit({ kind: 'digit', legId: leg.id, at: simNow(leg), digit: reply.digit, durationMs: 120 });
      });
      return;
    }
    const planned = endSample + (REPLY_DELAY_MS * SAMPLE_RATE) / 1000;
    const from = Math.max(planned, leg.framesSent * FRAME_SAMPLES);
    const to = from + (sayMsOf(reply.text) * SAMPLE_RATE) / 1000;
    leg.bursts?.push({ from, to });
    leg.said.push({ text: reply.text, fromMs: (from * 1000) / SAMPLE_RATE, toMs: (to * 1000) / SAMPLE_RATE });
  };

  // ---------- progress ----------

  const bridge = async (a: string, b: string, mode: BridgeMode) => {
    const legA = legs.get(a);
    const legB = legs.get(b);
    if (!legA || !legB) throw new Error('sim bridge: leg not active');
    // each leg's recording hears the other leg's voice from now on
    legA.overlays.push({ kind: 'voice', atSample: sampleNow(legA), seed: legB.seed });
    legB.overlays.push({ kind: 'voice', atSample: sampleNow(legB), seed: legA.seed });
    const when = simNow(legA);
    await emit({ kind: 'bridged', legId: a, otherLegId: b, at: when, mode });
    await emit({ kind: 'bridged', legId: b, otherLegId: a, at: when, mode });
  };

  const end = async (leg: Leg, when: Date, side: HangupSideValue, cause: HangupCause) => {
    if (!legs.delete(leg.id)) return;
    for (const t of leg.timers) clearTimeout(t);
    stopFrames(leg);
    cutPlaying(leg, 'ended');
    for (const p of leg.queue.splice(0)) p.resolve('ended');
    const recording =
      leg.answerReal === null ? undefined : wavOf(mixRecording(leg.seed, sampleNow(leg), leg.overlays, leg.bursts));
    if (leg.script) setTimeout(() => heard.delete(leg.id), 60_000).unref();
    await emit({ kind: 'ended', legId: leg.id, at: when, side, cause, recording });
  };
  const answer = async (leg: Leg, when: Date) => {
    if (leg.answerReal !== null || !legs.has(leg.id)) return;
    leg.answerReal = Date.now();
    for (const t of leg.timers.splice(0)) clearTimeout(t);
    // the far end hangs up after its talk time unless the app ends the leg first
    later(leg, leg.talkSeconds, () => void end(leg, simNow(leg), HANGUP_SIDE.customer, HANGUP_CAUSE.normal));
    startFrames(leg);
    await emit({ kind: 'answered', legId: leg.id, at: when });
    // as the sip line reports its dialog: what names the leg to whoever must end it later
    await emit({ kind: 'handle', legId: leg.id, at: when, handle: JSON.stringify({ sim: leg.id }) });
    if (leg.bridgeTo && legs.has(leg.bridgeTo.legId)) await bridge(leg.id, leg.bridgeTo.legId, leg.bridgeTo.mode);
  };
  /** the far end gives up ringing (no_answer) */
  const giveUpAfter = (leg: Leg, seconds: number) =>
    later(leg, seconds, () => {
      if (leg.answerReal === null) void end(leg, at(leg, seconds), HANGUP_SIDE.customer, HANGUP_CAUSE.noAnswer);
    });

  const originateNumber = (leg: Leg, number: string, ringSeconds: number) => {
    const outcome = simOutcomeOf(number);
    const isRinging = outcome.kind !== 'fail' || outcome.isRinging;
    const giveUpAt = SIM_RING_DELAY_SECONDS + ringSeconds;
    if (isRinging) {
      later(
        leg,
        SIM_RING_DELAY_SECONDS,
        () => void emit({ kind: 'ringing', legId: leg.id, at: at(leg, SIM_RING_DELAY_SECONDS) }),
      );
    }
    if (outcome.kind === 'answer' && SIM_RING_DELAY_SECONDS + outcome.ringSeconds <= giveUpAt) {
      const s = SIM_RING_DELAY_SECONDS + outcome.ringSeconds;
      later(leg, s, () => void answer(leg, at(leg, s)));
    } else if (outcome.kind === 'fail' && (!outcome.isRinging || outcome.afterSeconds <= giveUpAt)) {
      later(leg, outcome.afterSeconds, () => void end(leg, at(leg, outcome.afterSeconds), HANGUP_SIDE.customer, outcome.cause));
    } else {
      giveUpAfter(leg, giveUpAt);
    }
  };

  const activeLeg = (legId: string) => legs.get(legId);

  return {
    name: 'sim',
    onControlEvent: (l) => {
      listener = l;
    },
    originate: async ({ legId, target, ringSeconds, bridgeTo, role }: OriginateRequest) => {
      if (legs.has(legId)) throw new Error(`sim leg ${legId} exists`);
      if (target.kind === 'number') {
        const outcome = simOutcomeOf(target.number);
        const script = role === 'bot' ? simScriptOf(target.number) : undefined;
        const talk = outcome.kind === 'answer' ? (outcome.talkSeconds ?? talkSecondsOf(script)) : opts.talkSeconds;
        const leg = open(legId, target, talk, script);
        originateNumber(leg, target.number, ringSeconds);
        return;
      }
      // an agent's extension: his browser rings at once and he answers through the app (answer)
      const leg = open(legId, target);
      leg.bridgeTo = bridgeTo;
      giveUpAfter(leg, ringSeconds);
      setImmediate(() => void emit({ kind: 'ringing', legId, at: new Date(leg.startAt) }));
    },
    answer: async (legId) => {
      const leg = activeLeg(legId);
      if (leg) await answer(leg, simNow(leg));
    },
    bridge,
    play: (legId, samples) => {
      const leg = activeLeg(legId);
      if (!leg) return Promise.resolve('ended');
      return new Promise<PlayResult>((resolve) => {
        leg.queue.push({ samples, resolve, startReal: 0 });
        if (!leg.playing) startNextPlay(leg);
      });
    },
    stopPlay: (legId) => {
      const leg = activeLeg(legId);
      if (!leg) return;
      for (const p of leg.queue.splice(0)) p.resolve('stopped');
      cutPlaying(leg, 'stopped');
    },
    listen: (legId, onFrame) => {
      const leg = activeLeg(legId);
      if (!leg) return () => undefined;
      leg.listeners.add(onFrame);
      startFrames(leg);
      return () => {
        leg.listeners.delete(onFrame);
        if (leg.listeners.size === 0) stopFrames(leg);
      };
    },
    hangup: async (legId, cause) => {
      const leg = activeLeg(legId);
      if (!leg) return false;
      const effective = leg.answerReal === null && cause === HANGUP_CAUSE.normal ? HANGUP_CAUSE.cancelled : cause;
      await end(leg, simNow(leg), HANGUP_SIDE.system, effective);
      return true;
    },
    isActive: (legId) => legs.has(legId),
    // a sim leg lives in its process only: this line ends it when it holds it
    endByHandle: async (handle, cause) => {
      const legId = (JSON.parse(handle) as { sim?: string }).sim;
      const leg = legId ? activeLeg(legId) : undefined;
      if (!leg) return false;
      await end(leg, simNow(leg), HANGUP_SIDE.system, cause);
      return true;
    },
    close: () => {
      for (const leg of legs.values()) {
        for (const t of leg.timers) clearTimeout(t);
        stopFrames(leg);
        if (leg.playing?.timer) clearTimeout(leg.playing.timer);
      }
      legs.clear();
    },
    simulateDigit: async (legId, digit, durationMs = 120) => {
      const leg = activeLeg(legId);
      if (!leg || leg.answerReal === null) throw new Error(`sim leg ${legId} is not answered`);
      if (!/^[0-9*#A-D]$/.test(digit)) throw new Error(`not a DTMF digit: ${digit}`);
      await emit({ kind: 'digit', legId, at: simNow(leg), digit, durationMs });
    },
    simulateInbound: async ({ from, to, ringSeconds = 30 }) => {
      const legId = randomUUID();
      const script = simScriptOf(from);
      const leg = open(legId, { kind: 'inbound', from, to }, talkSecondsOf(script), script);
      giveUpAfter(leg, ringSeconds);
      await emit({ kind: 'offered', legId, at: new Date(leg.startAt), from, to });
      return legId;
    },
    simHeard: (legId) => [...(heard.get(legId) ?? [])],
    simulateHangup: async (legId, cause = HANGUP_CAUSE.normal) => {
      const leg = activeLeg(legId);
      if (leg) await end(leg, simNow(leg), HANGUP_SIDE.customer, cause);
    },
  };
};
