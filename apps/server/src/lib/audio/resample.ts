// Sample-rate conversion in JS (no sox): a windowed-sinc low-pass filter evaluated at each output
// instant, so going down (22.05 kHz speech, 44.1 kHz MP3 → the line's 8 kHz) removes everything
// above the new Nyquist frequency before decimating instead of folding it back as aliasing (what
// picking the nearest sample does). Kaiser window (β 8, about −80 dB stop band), 16 zero crossings
// each side; the filter is tabulated once per rate pair, and for rates in a small integer ratio
// (22.05 → 8 kHz, 44.1 → 8 kHz) laid out as one row of coefficients per phase (polyphase).

const ZERO_CROSSINGS = 16;
const KAISER_BETA = 8;
/** table entries per input sample of distance */
const RESOLUTION = 256;
/** the pass band ends this far below the lower Nyquist frequency (the rest is the transition band) */
const ROLLOFF = 0.9;

/** Modified Bessel function of the first kind, order 0 (series; converges fast for x ≤ 20). */
const besselI0 = (x: number) => {
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 50; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-12) break;
  }
  return sum;
};

type Filter = { table: Float32Array; halfWidth: number };
const filters = new Map<string, Filter>();

/** h(x) at x = i / RESOLUTION input samples from the centre, i = 0 … halfWidth·RESOLUTION (+1 guard entry). */
const filterFor = (inRate: number, outRate: number): Filter => {
  const key = `${inRate}/${outRate}`;
  const known = filters.get(key);
  if (known) return known;
  // cutoff in cycles per input sample
  const fc = (ROLLOFF * Math.min(inRate, outRate)) / (2 * inRate);
  const halfWidth = ZERO_CROSSINGS / (2 * fc);
  const n = Math.ceil(halfWidth * RESOLUTION) + 2;
  const table = new Float32Array(n);
  const i0b = besselI0(KAISER_BETA);
  for (let i = 0; i < n; i++) {
    const x = i / RESOLUTION;
    const r = x / halfWidth;
    if (r >= 1) continue;
    const arg = 2 * fc * x;
    const sinc = arg === 0 ? 1 : Math.sin(Math.PI * arg) / (Math.PI * arg);
    table[i] = 2 * fc * sinc * (besselI0(KAISER_BETA * Math.sqrt(1 - r * r)) / i0b);
  }
  const f = { table, halfWidth };
  if (filters.size > 32) filters.clear();
  filters.set(key, f);
  return f;
};

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/** the most filter phases kept for a rational rate pair (22.05 → 8 kHz needs 160, 11.025 → 8 kHz 320) */
const MAX_PHASES = 4096;

type Polyphase = { up: number; down: number; reach: number; taps: number; coef: Float32Array };
const polyphases = new Map<string, Polyphase>();

/**
 * For integer rates in a small ratio up/down: output j sits at input j·down/up, i.e. at the input
 * sample ⌊j·down/up⌋ plus the fraction ((j·down) mod up)/up; each fraction (phase) has its own row
 * of coefficients, computed exactly once, so the inner loop is a plain dot product.
 */
const polyphaseFor = (inRate: number, outRate: number): Polyphase | undefined => {
  if (!Number.isInteger(inRate) || !Number.isInteger(outRate)) return undefined;
  const g = gcd(inRate, outRate);
  const up = outRate / g;
  const down = inRate / g;
  if (up > MAX_PHASES) return undefined;
  const key = `${inRate}/${outRate}`;
  const known = polyphases.get(key);
  if (known) return known;
  const { table, halfWidth } = filterFor(inRate, outRate);
  const reach = Math.ceil(halfWidth);
  const taps = 2 * reach + 2;
  const coef = new Float32Array(up * taps);
  for (let phase = 0; phase < up; phase++) {
    const frac = phase / up;
    for (let i = 0; i < taps; i++) {
      // the tap's input sample is base − reach + i; its distance from the output instant:
      const x = Math.abs(frac - (i - reach));
      if (x >= halfWidth) continue;
      const pos = x * RESOLUTION;
      const k = pos | 0;
      coef[phase * taps + i] = table[k] + (table[k + 1] - table[k]) * (pos - k);
    }
  }
  const p = { up, down, reach, taps, coef };
  if (polyphases.size > 32) polyphases.clear();
  polyphases.set(key, p);
  return p;
};

const resamplePolyphase = (input: Float32Array, p: Polyphase, outLength: number): Float32Array => {
  const { up, down, reach, taps, coef } = p;
  const out = new Float32Array(outLength);
  const n = input.length;
  for (let j = 0; j < outLength; j++) {
    const num = j * down;
    const base = Math.floor(num / up);
    const row = (num - base * up) * taps;
    const first = base - reach;
    let acc = 0;
    if (first >= 0 && first + taps <= n) {
      for (let i = 0; i < taps; i++) acc += input[first + i] * coef[row + i];
    } else {
      for (let i = 0; i < taps; i++) {
        const k = first + i;
        if (k >= 0 && k < n) acc += input[k] * coef[row + i];
      }
    }
    out[j] = acc;
  }
  return out;
};

/** Float samples (−1…1 full scale) at `inRate` to `outRate`; returns float samples. */
export const resampleFloat = (input: Float32Array, inRate: number, outRate: number): Float32Array => {
  if (!(inRate > 0) || !(outRate > 0)) throw new RangeError('sample rates must be positive');
  if (inRate === outRate) return input.slice();
  const outLength = Math.floor((input.length * outRate) / inRate);
  const poly = polyphaseFor(inRate, outRate);
  if (poly) return resamplePolyphase(input, poly, outLength);
  const { table, halfWidth } = filterFor(inRate, outRate);
  const out = new Float32Array(outLength);
  const step = inRate / outRate;
  const last = input.length - 1;
  for (let j = 0; j < outLength; j++) {
    const t = j * step;
    const from = Math.max(0, Math.ceil(t - halfWidth));
    const to = Math.min(last, Math.floor(t + halfWidth));
    let acc = 0;
    for (let k = from; k <= to; k++) {
      const pos = Math.abs(t - k) * RESOLUTION;
      const i = pos | 0;
      const frac = pos - i;
      acc += input[k] * (table[i] + (table[i + 1] - table[i]) * frac);
    }
    out[j] = acc;
  }
  return out;
};

/** Float samples to 16-bit PCM (clipped). */
export const toInt16 = (samples: Float32Array): Int16Array => {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.round(samples[i] * 32768);
    out[i] = Math.min(32767, Math.max(-32768, v));
  }
  return out;
};

/** 16-bit PCM to float samples. */
export const fromInt16 = (samples: Int16Array): Float32Array => {
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = samples[i] / 32768;
  return out;
};

/** The average of the channels (all of one length). */
export const downmix = (channels: Float32Array[]): Float32Array => {
  if (channels.length === 1) return channels[0];
  const n = Math.min(...channels.map((c) => c.length));
  const out = new Float32Array(n);
  for (const c of channels) for (let i = 0; i < n; i++) out[i] += c[i];
  for (let i = 0; i < n; i++) out[i] /= channels.length;
  return out;
};

/** The line's format: 8 kHz mono 16-bit samples from float samples at any rate. */
export const toLine8k = (samples: Float32Array, sampleRate: number): Int16Array =>
  toInt16(resampleFloat(samples, sampleRate, 8000));

/** Mono float samples (−1…1) and their rate. */
export type MonoAudio = { samples: Float32Array; sampleRate: number };
