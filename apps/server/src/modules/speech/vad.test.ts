import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { findSpeech } from '../../telephony/tts';
import { FRAME_MS, levelDb, type VadEvent, type VadOptions, type VadSegment, VoiceActivityDetector } from './vad';
import { readWav, writeWavSegment } from './wav';

// The energy detector on real speech: espeak-ng says a customer's phrase and a bot prompt; scenes
// mix them with line noise, the bot's echo (an attenuated, delayed copy of what it sent) and
// silence, then run 20 ms frame by frame as a call would. Segments must start and end within
// ±100 ms of where the customer's speech really is (found on the clean phrase).

const RATE = 8000;
const FRAME = 160;
const ms = (t: number) => Math.round((t * RATE) / 1000);

let customer: Int16Array;
let bot: Int16Array;

/** seeded white noise, ≈ −52 dBFS */
const noise = (n: number, seed = 7) => {
  let x = seed;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out[i] = (x / 2147483648 - 0.5) * 300;
  }
  return out;
};

type Scene = {
  lengthMs: number;
  customerAtMs?: number;
  customerGain?: number;
  botAtMs?: number;
  echoLossDb?: number;
  echoDelayMs?: number;
};

/** the received line, what the bot sent (the reference), and where the customer's speech truly is */
const scene = (s: Scene) => {
  const n = ms(s.lengthMs);
  const line = noise(n);
  const sent = new Int16Array(n);
  if (s.botAtMs !== undefined) {
    const at = ms(s.botAtMs);
    const echoAt = at + ms(s.echoDelayMs ?? 60);
    const g = 10 ** (-(s.echoLossDb ?? 15) / 20);
    for (let i = 0; i < bot.length && at + i < n; i++) sent[at + i] = bot[i];
    for (let i = 0; i < bot.length && echoAt + i < n; i++) line[echoAt + i] += bot[i] * g;
  }
  let truth: { startMs: number; endMs: number } | undefined;
  if (s.customerAtMs !== undefined) {
    const at = ms(s.customerAtMs);
    const g = s.customerGain ?? 0.5;
    for (let i = 0; i < customer.length && at + i < n; i++) line[at + i] += customer[i] * g;
    // truth on the clean phrase: first and last 20 ms frame clearly above the line noise
    const voiced: number[] = [];
    for (let f = 0; f + FRAME <= customer.length; f += FRAME) {
      if (levelDb(customer.subarray(f, f + FRAME).map((v) => v * g)) > -40) voiced.push(f);
    }
    truth = {
      startMs: s.customerAtMs + (voiced[0] / RATE) * 1000,
      endMs: s.customerAtMs + (((voiced.at(-1) ?? 0) + FRAME) / RATE) * 1000,
    };
  }
  const received = Int16Array.from(line, (v) => Math.max(-32768, Math.min(32767, Math.round(v))));
  return { received, sent, truth };
};

const run = (received: Int16Array, sent: Int16Array | undefined, options: Partial<VadOptions> = {}) => {
  const vad = new VoiceActivityDetector(options);
  const events: VadEvent[] = [];
  for (let f = 0; f + FRAME <= received.length; f += FRAME) {
    events.push(...vad.push(received.subarray(f, f + FRAME), sent?.subarray(f, f + FRAME)));
  }
  events.push(...vad.flush());
  const segments = events.flatMap((e) => (e.type === 'end' ? [e.segment] : []));
  return { events, segments, vad };
};

const near = (seg: VadSegment, truth: { startMs: number; endMs: number } | undefined) => {
  expect(truth).toBeDefined();
  expect(Math.abs(seg.startMs - (truth?.startMs ?? 0))).toBeLessThanOrEqual(100);
  expect(Math.abs(seg.endMs - (truth?.endMs ?? 0))).toBeLessThanOrEqual(100);
};

/** a 1 kHz tone burst at −20 dBFS placed in silence+noise, for the timing edges */
const bursts = (spans: [number, number][], lengthMs: number) => {
  const line = noise(ms(lengthMs));
  for (const [a, b] of spans) for (let i = ms(a); i < ms(b); i++) line[i] += 3277 * Math.sin((2 * Math.PI * 1000 * i) / RATE);
  return Int16Array.from(line, (v) => Math.round(v));
};

let hasSpeech = false;
beforeAll(async () => {
  // Debian's espeak-ng (the voice these thresholds were measured with), when installed
  const speech = await findSpeech({ engine: 'binary', espeakBin: 'espeak-ng' });
  hasSpeech = speech.isAvailable;
  if (!hasSpeech) return;
  customer = await speech.synthesize('我对这个产品很感兴趣，请问价格是多少');
  bot = await speech.synthesize('您好，这里是云呼科技，请问您现在方便接听电话吗');
});

describe('voice activity on synthesized speech (espeak-ng and sox, installed here and in CI)', () => {
  it('finds the customer on a quiet line within ±100 ms', () => {
    if (!hasSpeech) return;
    const { received, truth } = scene({ lengthMs: 7000, customerAtMs: 1000 });
    const { segments, events } = run(received, undefined);
    expect(segments).toHaveLength(1);
    near(segments[0], truth);
    expect(events[0]).toEqual({ type: 'start', atMs: segments[0].startMs });
  });

  it('ignores the bot’s own echo (15 dB down, 60 ms late) and finds the customer after the prompt', () => {
    if (!hasSpeech) return;
    const botEndMs = 200 + (bot.length / RATE) * 1000;
    const { received, sent, truth } = scene({ lengthMs: botEndMs + 6000, botAtMs: 200, customerAtMs: botEndMs + 800 });
    const { segments } = run(received, sent);
    expect(segments).toHaveLength(1);
    near(segments[0], truth);
  });

  it('takes the echo for the customer without the reference (why the bot must pass what it sent)', () => {
    if (!hasSpeech) return;
    const { received } = scene({ lengthMs: 6000, botAtMs: 200 });
    expect(run(received, undefined).segments.length).toBeGreaterThan(0);
  });

  it('ignores a loud echo (8 dB down) too, once the call has shown its echo loss', () => {
    if (!hasSpeech) return;
    const { received, sent } = scene({ lengthMs: 6000, botAtMs: 200, echoLossDb: 8, echoDelayMs: 120 });
    expect(run(received, sent).segments).toEqual([]);
  });

  it('hears a customer talking over the prompt (barge-in) within ±100 ms of the start', () => {
    if (!hasSpeech) return;
    for (const [customerGain, echoLossDb] of [
      [1, 20],
      [0.5, 15],
    ]) {
      const { received, sent, truth } = scene({ lengthMs: 9000, botAtMs: 200, customerAtMs: 2000, customerGain, echoLossDb });
      const { segments } = run(received, sent);
      expect(segments).toHaveLength(1);
      near(segments[0], truth);
    }
  });

  it('keeps the turn’s audio with 200 ms either side, and cuts it into a WAV file', async () => {
    if (!hasSpeech) return;
    const { received, truth } = scene({ lengthMs: 7000, customerAtMs: 1000 });
    const [seg] = run(received, undefined).segments;
    expect(seg.audioStartMs).toBe(seg.startMs - 200);
    expect(seg.samples.length).toBe(ms(seg.endMs - seg.startMs + 400));
    // the kept audio is the line's own samples
    expect(Array.from(seg.samples.subarray(0, 50))).toEqual(
      Array.from(received.subarray(ms(seg.audioStartMs), ms(seg.audioStartMs) + 50)),
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vad-'));
    const out = await writeWavSegment(path.join(dir, 'turn-1.wav'), received, seg.startMs, seg.endMs);
    expect(out.durationMs).toBe(seg.endMs - seg.startMs);
    const back = await readWav(out.file);
    expect(back?.sampleRate).toBe(8000);
    expect(back?.samples.length).toBe(ms(seg.endMs - seg.startMs));
    expect(truth).toBeDefined();
    fs.rmSync(dir, { recursive: true });
  });
});

describe('voice activity timing edges (tone bursts)', () => {
  it('a burst of minSpeechMs is speech, one frame less is not', () => {
    expect(run(bursts([[500, 500 + 160]], 2000), undefined).segments).toHaveLength(1);
    expect(run(bursts([[500, 500 + 140]], 2000), undefined).segments).toHaveLength(0);
  });

  it('a pause shorter than endSilenceMs keeps one turn, a longer one makes two', () => {
    const one = run(
      bursts(
        [
          [500, 1000],
          [1000 + 560, 2000],
        ],
        4000,
      ),
      undefined,
    ).segments;
    expect(one.map((s) => [s.startMs, s.endMs])).toEqual([[500, 2000]]);
    const two = run(
      bursts(
        [
          [500, 1000],
          [1000 + 620, 2000],
        ],
        4000,
      ),
      undefined,
    ).segments;
    expect(two.map((s) => [s.startMs, s.endMs])).toEqual([
      [500, 1000],
      [1620, 2000],
    ]);
  });

  it('reports the end endSilenceMs after the last voiced frame (configurable)', () => {
    for (const endSilenceMs of [400, 800]) {
      const vad = new VoiceActivityDetector({ endSilenceMs });
      const line = bursts([[500, 1000]], 3000);
      let endedAt: number | undefined;
      for (let f = 0; f < line.length / FRAME; f++) {
        if (vad.push(line.subarray(f * FRAME, (f + 1) * FRAME)).some((e) => e.type === 'end')) endedAt ??= (f + 1) * FRAME_MS;
      }
      expect(endedAt).toBe(1000 + endSilenceMs);
    }
  });

  it('cuts a turn at maxSpeechMs', () => {
    const { segments } = run(bursts([[200, 3000]], 4000), undefined, { maxSpeechMs: 1000 });
    expect(segments[0]).toMatchObject({ startMs: 200, endMs: 1200, isCut: true });
  });

  it('follows a rising noise floor instead of calling it speech', () => {
    const line = noise(ms(6000)).map((v, i) => v * (1 + (i / ms(6000)) * 6)); // noise grows by ≈ 17 dB
    expect(run(Int16Array.from(line, Math.round), undefined).segments).toEqual([]);
  });
});
