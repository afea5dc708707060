// G.711 (ITU-T) μ-law (PCMU, payload type 0) and A-law (PCMA, 8): 16-bit linear ⇄ 8-bit codes.
// Decoding uses 256-entry tables, encoding 64 Ki-entry tables (built once, 192 KiB), so a 20 ms
// frame costs 160 lookups each way.

export const PT_PCMU = 0;
export const PT_PCMA = 8;
export type G711Pt = typeof PT_PCMU | typeof PT_PCMA;

const BIAS = 0x84;
const CLIP = 32635;

const ulawEncodeOne = (sample: number): number => {
  let s = sample;
  const sign = s < 0 ? 0x80 : 0;
  if (sign) s = -s;
  if (s > CLIP) s = CLIP;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
};

const ulawDecodeOne = (byte: number): number => {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 7;
  const x = (((u & 0x0f) << 3) + BIAS) << exponent;
  return u & 0x80 ? BIAS - x : x - BIAS;
};

const alawEncodeOne = (sample: number): number => {
  let s = sample;
  const sign = s >= 0 ? 0x80 : 0;
  if (!sign) s = -s - 1;
  if (s > 32767) s = 32767;
  let code: number;
  if (s < 256) {
    code = s >> 4;
  } else {
    let exponent = 7;
    for (let mask = 0x4000; (s & mask) === 0 && exponent > 1; mask >>= 1) exponent--;
    code = (exponent << 4) | ((s >> (exponent + 3)) & 0x0f);
  }
  return (sign | code) ^ 0x55;
};

const alawDecodeOne = (byte: number): number => {
  const a = byte ^ 0x55;
  const exponent = (a >> 4) & 7;
  const m = a & 0x0f;
  const x = exponent ? ((m << 4) + 0x108) << (exponent - 1) : (m << 4) + 8;
  return a & 0x80 ? x : -x;
};

const decodeTable = (one: (b: number) => number) => Int16Array.from({ length: 256 }, (_, b) => one(b));
const encodeTable = (one: (s: number) => number) => Uint8Array.from({ length: 65536 }, (_, i) => one(i - 32768));

const ULAW_DEC = decodeTable(ulawDecodeOne);
const ALAW_DEC = decodeTable(alawDecodeOne);
let ulawEnc: Uint8Array | undefined;
let alawEnc: Uint8Array | undefined;

/** 16-bit samples → G.711 bytes of the payload type. */
export const g711Encode = (samples: Int16Array, pt: G711Pt): Buffer => {
  if (pt === PT_PCMA && !alawEnc) alawEnc = encodeTable(alawEncodeOne);
  if (pt === PT_PCMU && !ulawEnc) ulawEnc = encodeTable(ulawEncodeOne);
  const table = (pt === PT_PCMA ? alawEnc : ulawEnc) as Uint8Array;
  const out = Buffer.allocUnsafe(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = table[(samples[i] ?? 0) + 32768] ?? 0;
  return out;
};

/** G.711 bytes of the payload type → 16-bit samples. */
export const g711Decode = (payload: Uint8Array, pt: G711Pt): Int16Array => {
  const table = pt === PT_PCMA ? ALAW_DEC : ULAW_DEC;
  const out = new Int16Array(payload.length);
  for (let i = 0; i < payload.length; i++) out[i] = table[payload[i] ?? 0] ?? 0;
  return out;
};

export const isG711 = (pt: number): pt is G711Pt => pt === PT_PCMU || pt === PT_PCMA;
