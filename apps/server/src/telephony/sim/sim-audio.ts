import { FRAME_SAMPLES, SAMPLE_RATE } from '../control';

// What the far end of a sim leg says, and the recording of a sim leg: simulated but shaped like a
// call, so voice detection, barge-in and recordings can be tested without a network.

/** Every cycle of the far end: silence (line noise), then a speech-like burst, then silence. */
export const SPEECH_CYCLE_MS = 5000;
export const SPEECH_FROM_MS = 1000;
export const SPEECH_TO_MS = 2200;

/** A stable pseudo-random value in [-1, 1) for sample `i` of a voice. */
const noiseAt = (seed: number, i: number) => {
  let h = Math.imul(seed ^ i, 2654435761) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 2246822519) >>> 0;
  h ^= h >>> 13;
  return (h >>> 0) / 2147483648 - 1;
};

/** A leg's voice from its id: one fundamental per leg, 140–240 Hz. */
export const voiceSeedOf = (legId: string) => {
  let h = 2166136261;
  for (const ch of legId) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
};

/**
 * Sample `i` (counted from the answer) of a far end: −60 dBFS-ish line noise, and from 1.0 s to
 * 2.2 s of every 5 s a voiced burst (fundamental and two harmonics, ~4 syllables per second).
 */
export const farEndSample = (seed: number, i: number): number => {
  const ms = ((i * 1000) / SAMPLE_RATE) % SPEECH_CYCLE_MS;
  const noise = 30 * noiseAt(seed, i);
  if (ms < SPEECH_FROM_MS || ms >= SPEECH_TO_MS) return Math.round(noise);
  const t = i / SAMPLE_RATE;
  const f0 = 140 + (seed % 100);
  const envelope = Math.max(0, Math.sin((Math.PI * 4 * (ms - SPEECH_FROM_MS)) / 1000)) ** 2;
  const voice = Math.sin(2 * Math.PI * f0 * t) + 0.5 * Math.sin(4 * Math.PI * f0 * t) + 0.25 * Math.sin(6 * Math.PI * f0 * t);
  return Math.round(6000 * envelope * voice + noise);
};

/** A stretch (samples since the answer) a scripted customer speaks in. */
export type Burst = { from: number; to: number };

/**
 * Sample `i` of a scripted far end (sim-script.ts): the line noise, and a voiced burst (as in
 * farEndSample, ~4 syllables per second) in each of the customer's replies.
 */
export const scriptedSample = (seed: number, i: number, bursts: readonly Burst[]): number => {
  let v = 30 * noiseAt(seed, i);
  for (const b of bursts) {
    if (i < b.from || i >= b.to) continue;
    const ms = ((i - b.from) * 1000) / SAMPLE_RATE;
    const t = i / SAMPLE_RATE;
    const f0 = 140 + (seed % 100);
    const envelope = Math.max(0, Math.sin((Math.PI * 4 * ms) / 1000)) ** 2;
    v +=
      6000 *
      envelope *
      (Math.sin(2 * Math.PI * f0 * t) + 0.5 * Math.sin(4 * Math.PI * f0 * t) + 0.25 * Math.sin(6 * Math.PI * f0 * t));
  }
  return Math.round(v);
};

/** What a far end says at sample `i`: the usual cycle, or a scripted customer's replies. */
export const farEndAt = (seed: number, i: number, bursts?: readonly Burst[]) =>
  bursts ? scriptedSample(seed, i, bursts) : farEndSample(seed, i);

/** Frame `seq` (20 ms, 160 samples) of a far end (scripted: its bursts). */
export const farEndFrame = (seed: number, seq: number, bursts?: readonly Burst[]): Int16Array => {
  const out = new Int16Array(FRAME_SAMPLES);
  const first = seq * FRAME_SAMPLES;
  for (let k = 0; k < FRAME_SAMPLES; k++) out[k] = farEndAt(seed, first + k, bursts);
  return out;
};

/** Something heard on a leg besides its far end: a prompt played into it, or the leg it is bridged to. */
export type Overlay =
  | { kind: 'play'; atSample: number; samples: Int16Array; length: number }
  | { kind: 'voice'; atSample: number; seed: number };

/**
 * A sim leg's recording: both directions mixed, as rtpengine records a call: the far end from the
 * answer to the end, every prompt played into the leg at its moment, and the bridged leg's voice.
 */
export const mixRecording = (
  seed: number,
  totalSamples: number,
  overlays: readonly Overlay[],
  bursts?: readonly Burst[],
): Int16Array => {
  const mixed = new Float32Array(Math.max(0, totalSamples));
  for (let i = 0; i < mixed.length; i++) mixed[i] = farEndAt(seed, i, bursts);
  for (const o of overlays) {
    if (o.kind === 'play') {
      const n = Math.min(o.length, mixed.length - o.atSample);
      for (let k = 0; k < n; k++) mixed[o.atSample + k] += o.samples[k];
    } else {
      for (let i = Math.max(0, o.atSample); i < mixed.length; i++) mixed[i] += farEndSample(o.seed, i - o.atSample);
    }
  }
  const out = new Int16Array(mixed.length);
  for (let i = 0; i < mixed.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(mixed[i])));
  return out;
};
