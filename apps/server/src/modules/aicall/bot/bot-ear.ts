import { FRAME_MS, FRAME_SAMPLES, type VoiceEvent } from '../../../telephony/control';
import type { CallRuntime } from '../../calls/call-bus';
import { listen } from '../../calls/call-control';
import { type VadOptions, type VadSegment, VoiceActivityDetector } from '../../speech/vad';

// The bot's ear on one leg: the leg's 20 ms frames go through the voice-activity detector with
// what the bot is playing at that moment as the echo reference; key presses and the leg's end come
// from the leg's events (bot-events.ts). The call's clock is the audio itself (frames received ×
// 20 ms since the bot started listening), so silence timers follow the line's time on every line
// (the sim line runs faster than real time). A line that detects voice itself (`detect`: the sip
// line, in its media thread, with what it sent in the same tick as the echo reference) gives the
// ear the detector's events and the frame count instead of the frames (hearLeg).

export type EarEvent =
  | { kind: 'speechStart'; atMs: number }
  | { kind: 'speech'; segment: VadSegment }
  | { kind: 'digit'; digit: string; atMs: number }
  | { kind: 'silence'; atMs: number }
  | { kind: 'ended'; atMs: number };

type Waiter = { deadlineMs: number | null; resolve: (e: EarEvent) => void };

export type Ear = ReturnType<typeof createEar>;

export const createEar = (vadOptions: Partial<VadOptions>) => {
  const vad = new VoiceActivityDetector(vadOptions);
  const queue: EarEvent[] = [];
  let frames = 0;
  let waiter: Waiter | null = null;
  let isEnded = false;
  /** what the bot plays now, and the frame it started at (the VAD's echo reference) */
  let reference: { samples: Int16Array; startFrame: number } | null = null;
  /** told when the customer starts speaking or presses a key (barge-in) */
  const onInput = new Set<() => void>();
  /** speech that started before this is not heard (it was said over a prompt he may not interrupt) */
  let ignoreBeforeMs = 0;
  let lastFrameReal = Date.now();
  /** the line's detector: a turn in progress (its start came, not its end), and the turn cut by the leg's end */
  let isLineSpeaking = false;
  let flushed: VadSegment | undefined;
  /** the line's own barge-in (`VoiceDetection.stopPlayOnSpeech`), when it detects voice itself */
  let lineBargeIn: ((isOn: boolean) => void) | undefined;
  const isSpeaking = () => vad.isSpeaking || isLineSpeaking;

  const nowMs = () => frames * FRAME_MS;

  const wake = () => {
    if (!waiter) return;
    const w = waiter;
    const first = queue.shift();
    if (first) {
      waiter = null;
      w.resolve(first);
      return;
    }
    if (isEnded) {
      waiter = null;
      w.resolve({ kind: 'ended', atMs: nowMs() });
      return;
    }
    if (w.deadlineMs !== null && nowMs() >= w.deadlineMs && !isSpeaking()) {
      waiter = null;
      w.resolve({ kind: 'silence', atMs: nowMs() });
    }
  };

  const isIgnored = (e: EarEvent) =>
    (e.kind === 'speechStart' && e.atMs < ignoreBeforeMs) || (e.kind === 'speech' && e.segment.startMs < ignoreBeforeMs);
  const push = (e: EarEvent) => {
    if (isIgnored(e)) return;
    queue.push(e);
    wake();
  };

  const sentFrame = (n: number): Int16Array | undefined => {
    if (!reference) return undefined;
    const from = (n - reference.startFrame) * FRAME_SAMPLES;
    if (from < 0 || from >= reference.samples.length) return undefined;
    return reference.samples.subarray(from, Math.min(reference.samples.length, from + FRAME_SAMPLES));
  };

  /** the line's clock moves on to `to` frames; a silence deadline inside the step fires at its own frame */
  const advance = (to: number) => {
    const w = waiter;
    if (w && w.deadlineMs !== null && queue.length === 0 && !isSpeaking() && !isEnded) {
      const due = Math.ceil(w.deadlineMs / FRAME_MS);
      if (due > frames && due < to) {
        frames = due;
        wake();
      }
    }
    frames = Math.max(frames, to);
  };

  const speechStarted = (atMs: number) => {
    for (const fn of onInput) fn();
    push({ kind: 'speechStart', atMs });
  };

  return {
    nowMs,
    vadOptions: vad.options,
    get isEnded() {
      return isEnded;
    },
    /** real ms since the last frame (a line that stopped sending) */
    idleRealMs: () => Date.now() - lastFrameReal,
    /** one frame from the leg */
    frame: (samples: Int16Array) => {
      if (isEnded) return;
      lastFrameReal = Date.now();
      const n = frames++;
      for (const e of vad.push(samples, sentFrame(n))) {
        if (e.type === 'start') speechStarted(e.atMs);
        else push({ kind: 'speech', segment: e.segment });
      }
      wake();
    },
    /** one event of the line's own detector (instead of frames) */
    voice: (e: VoiceEvent) => {
      if (isEnded) return;
      lastFrameReal = Date.now();
      advance(e.frames);
      if (e.kind === 'start') {
        isLineSpeaking = true;
        speechStarted(e.atMs);
      } else if (e.kind === 'end') {
        isLineSpeaking = false;
        if (e.isFlush) flushed = e.segment;
        else push({ kind: 'speech', segment: e.segment });
      }
      wake();
    },
    digit: (digit: string) => {
      for (const fn of onInput) fn();
      push({ kind: 'digit', digit, atMs: nowMs() });
    },
    ended: () => {
      if (isEnded) return;
      isEnded = true;
      wake();
    },
    /** the line stops the prompt itself when speech starts (an interruptible prompt), as well as onInput's listeners */
    setInterruptible: (isOn: boolean) => lineBargeIn?.(isOn),
    useLineBargeIn: (fn: (isOn: boolean) => void) => {
      lineBargeIn = fn;
    },
    /** the bot starts playing `samples` now (null: it stopped) */
    setReference: (samples: Int16Array | null) => {
      reference = samples ? { samples, startFrame: frames } : null;
    },
    onInput: (fn: () => void) => {
      onInput.add(fn);
      return () => {
        onInput.delete(fn);
      };
    },
    /** speech that started before `ms` is not heard, queued or still in progress (said over a prompt he may not interrupt) */
    ignoreSpeechBefore: (ms: number) => {
      ignoreBeforeMs = ms;
      for (let i = queue.length - 1; i >= 0; i--) if (isIgnored(queue[i])) queue.splice(i, 1);
    },
    /** the next event; `silence` once the clock passes deadlineMs with nobody speaking */
    next: (deadlineMs: number | null): Promise<EarEvent> =>
      new Promise((resolve) => {
        waiter = { deadlineMs, resolve };
        wake();
      }),
    /** a turn in progress when the call ends */
    flush: (): VadSegment | undefined => {
      const e = vad.flush()[0];
      const cut = flushed;
      flushed = undefined;
      return e?.type === 'end' ? e.segment : cut;
    },
  };
};

/**
 * The ear hears the leg: the line's own detector when it has one (the sip line's media thread),
 * else the leg's frames through the ear's detector. Returns the stop; throws when the leg is not
 * this instance's (calls/call-control.ts listen).
 */
export const hearLeg = async (rt: CallRuntime, legId: string, ear: Ear): Promise<() => void> => {
  const line = rt.line;
  if (!line.detect) return listen(rt, legId, (f) => ear.frame(f.samples));
  if (!line.isActive(legId)) throw new Error(`leg ${legId} is not on this instance's line`);
  const detection = line.detect(legId, ear.vadOptions, (e) => ear.voice(e));
  ear.useLineBargeIn(detection.stopPlayOnSpeech);
  return detection.stop;
};
