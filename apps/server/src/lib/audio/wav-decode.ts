// WAV files of any common encoding to mono float samples, in JS (no sox): PCM 8/16/24/32 bit,
// IEEE float 32/64, G.711 A-law and µ-law, WAVE_FORMAT_EXTENSIBLE holding one of those; the
// channels are averaged. Walks the RIFF chunks (LIST/fact chunks before `data` are skipped).

export type { MonoAudio } from './resample';

import type { MonoAudio } from './resample';

export class WavDecodeError extends Error {}

const PCM = 1;
const FLOAT = 3;
const ALAW = 6;
const MULAW = 7;
const EXTENSIBLE = 0xfffe;

const alaw = (a: number) => {
  const v = a ^ 0x55;
  const exp = (v & 0x70) >> 4;
  let mag = (v & 0x0f) << 4;
  mag = exp === 0 ? mag + 8 : ((mag + 0x108) << (exp - 1)) >>> 0;
  return (v & 0x80 ? mag : -mag) / 32768;
};

const mulaw = (u: number) => {
  const v = ~u & 0xff;
  const exp = (v >> 4) & 0x07;
  const mag = (((v & 0x0f) << 3) + 0x84) << exp;
  return (v & 0x80 ? 0x84 - mag : mag - 0x84) / 32768;
};

const readerFor = (buf: Buffer, format: number, bits: number): ((at: number) => number) | undefined => {
  if (format === PCM) {
    if (bits === 8) return (at) => (buf[at] - 128) / 128;
    if (bits === 16) return (at) => buf.readInt16LE(at) / 32768;
    if (bits === 24) return (at) => buf.readIntLE(at, 3) / 8388608;
    if (bits === 32) return (at) => buf.readInt32LE(at) / 2147483648;
  }
  if (format === FLOAT) {
    if (bits === 32) return (at) => buf.readFloatLE(at);
    if (bits === 64) return (at) => buf.readDoubleLE(at);
  }
  if (format === ALAW && bits === 8) return (at) => alaw(buf[at]);
  if (format === MULAW && bits === 8) return (at) => mulaw(buf[at]);
  return undefined;
};

/** Whether the bytes start like a WAV file (RIFF … WAVE). */
export const isWav = (buf: Buffer) =>
  buf.length >= 12 && buf.toString('ascii', 0, 4) === 'RIFF' && buf.toString('ascii', 8, 12) === 'WAVE';

/**
 * The WAV's audio as mono float samples; throws WavDecodeError when the bytes are no WAV, its
 * encoding is not one of the above, or it holds more than `maxFrames` frames (checked before
 * anything is allocated).
 */
export const decodeWavAudio = (buf: Buffer, maxFrames = Number.POSITIVE_INFINITY): MonoAudio => {
  if (!isWav(buf)) throw new WavDecodeError('not a wav file');
  let at = 12;
  let fmt: { format: number; channels: number; sampleRate: number; bits: number; align: number } | undefined;
  while (at + 8 <= buf.length) {
    const id = buf.toString('ascii', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ' && size >= 16 && body + 16 <= buf.length) {
      let format = buf.readUInt16LE(body);
      // the extensible header's sub-format GUID starts with the plain format code
      if (format === EXTENSIBLE && size >= 40 && body + 26 <= buf.length) format = buf.readUInt16LE(body + 24);
      fmt = {
        format,
        channels: buf.readUInt16LE(body + 2),
        sampleRate: buf.readUInt32LE(body + 4),
        align: buf.readUInt16LE(body + 12),
        bits: buf.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!fmt) throw new WavDecodeError('wav data before its format');
      const { format, channels, sampleRate, bits } = fmt;
      const read = readerFor(buf, format, bits);
      if (!read || channels < 1 || channels > 16 || sampleRate < 1000 || sampleRate > 384_000) {
        throw new WavDecodeError(`unsupported wav encoding (format ${format}, ${bits} bit, ${channels} channels)`);
      }
      const bytes = bits / 8;
      const frameBytes = Math.max(fmt.align, bytes * channels);
      const end = Math.min(buf.length, body + size);
      const frames = Math.floor((end - body) / frameBytes);
      if (frames > maxFrames) throw new WavDecodeError('audio too long');
      const samples = new Float32Array(frames);
      for (let i = 0; i < frames; i++) {
        const frame = body + i * frameBytes;
        let sum = 0;
        for (let c = 0; c < channels; c++) sum += read(frame + c * bytes);
        samples[i] = sum / channels;
      }
      return { samples, sampleRate };
    }
    if (size > buf.length) break;
    at = body + size + (size % 2);
  }
  throw new WavDecodeError('wav file has no audio data');
};
