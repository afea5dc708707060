import { describe, expect, it } from 'vitest';
import { downmix, fromInt16, resampleFloat, toInt16, toLine8k } from './resample';
import { decodeWavAudio, WavDecodeError } from './wav-decode';

// The JS resampler (espeak's 22.05 kHz, MP3's 44.1 kHz → the line's 8 kHz) and the WAV decoder.

const sine = (freq: number, rate: number, seconds: number, amp = 0.5) =>
  Float32Array.from({ length: Math.round(rate * seconds) }, (_v, i) => amp * Math.sin((2 * Math.PI * freq * i) / rate));

/** amplitude of `freq` in the signal (Goertzel, over the middle to skip the filter's edges) */
const amplitudeAt = (x: Float32Array, freq: number, rate: number) => {
  const part = x.subarray(Math.floor(x.length / 4), Math.floor((3 * x.length) / 4));
  const w = (2 * Math.PI * freq) / rate;
  let s1 = 0;
  let s2 = 0;
  for (const v of part) {
    const s0 = v + 2 * Math.cos(w) * s1 - s2;
    s2 = s1;
    s1 = s0;
  }
  return (2 * Math.sqrt(Math.max(0, s1 * s1 + s2 * s2 - 2 * Math.cos(w) * s1 * s2))) / part.length;
};

const db = (ratio: number) => 20 * Math.log10(ratio);

describe('resampling', () => {
  it('keeps a tone in the pass band at its frequency and level (22.05 kHz → 8 kHz)', () => {
    const out = resampleFloat(sine(1000, 22_050, 1), 22_050, 8000);
    expect(out.length).toBe(8000);
    expect(amplitudeAt(out, 1000, 8000)).toBeCloseTo(0.5, 2);
    // a rate with no small ratio to 8 kHz takes the interpolated filter instead of the polyphase rows
    const odd = resampleFloat(sine(1000, 22_050.5, 1), 22_050.5, 8000);
    expect(odd.length).toBe(8000);
    expect(amplitudeAt(odd, 1000, 8000)).toBeCloseTo(0.5, 2);
    expect(db(amplitudeAt(resampleFloat(sine(6000, 22_050.5, 1), 22_050.5, 8000), 2000, 8000) / 0.5)).toBeLessThan(-60);
  });

  it('removes what lies above the new Nyquist frequency instead of folding it back (no aliasing)', () => {
    // 6 kHz at 22.05 kHz: picking the nearest sample at 8 kHz shows it as a 2 kHz tone at full level
    const high = sine(6000, 22_050, 1);
    const out = resampleFloat(high, 22_050, 8000);
    expect(db(amplitudeAt(out, 2000, 8000) / 0.5)).toBeLessThan(-60);
    const naive = Float32Array.from({ length: 8000 }, (_v, i) => high[Math.round((i * 22_050) / 8000)] ?? 0);
    expect(db(amplitudeAt(naive, 2000, 8000) / 0.5)).toBeGreaterThan(-3);
    // 44.1 kHz MP3 audio: 5 kHz (above 4 kHz) is gone, 3 kHz stays
    const mp3Rate = resampleFloat(sine(5000, 44_100, 1), 44_100, 8000);
    expect(db(amplitudeAt(mp3Rate, 3000, 8000) / 0.5)).toBeLessThan(-60);
    expect(amplitudeAt(resampleFloat(sine(3000, 44_100, 1), 44_100, 8000), 3000, 8000)).toBeGreaterThan(0.45);
  });

  it('keeps silence silent and DC at its level; up-sampling keeps the tone; equal rates copy', () => {
    expect(toLine8k(new Float32Array(22_050), 22_050).every((v) => v === 0)).toBe(true);
    const dc = resampleFloat(new Float32Array(48_000).fill(0.25), 48_000, 8000);
    expect(dc[4000]).toBeCloseTo(0.25, 3);
    const up = resampleFloat(sine(440, 6000, 1), 6000, 8000);
    expect(up.length).toBe(8000);
    expect(amplitudeAt(up, 440, 8000)).toBeCloseTo(0.5, 2);
    const same = sine(440, 8000, 0.1);
    expect(resampleFloat(same, 8000, 8000)).toEqual(same);
  });

  it('converts, clips and mixes samples', () => {
    expect(Array.from(toInt16(Float32Array.from([0, 0.5, -1, 2, -2])))).toEqual([0, 16384, -32768, 32767, -32768]);
    expect(Array.from(fromInt16(Int16Array.from([16384, -32768])))).toEqual([0.5, -1]);
    expect(Array.from(downmix([Float32Array.from([1, 0]), Float32Array.from([0, 0])]))).toEqual([0.5, 0]);
  });
});

/** a WAV header + data with the given format code, bits and channels */
const wav = (format: number, bits: number, channels: number, rate: number, data: Buffer) => {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(format, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE((rate * channels * bits) / 8, 28);
  h.writeUInt16LE((channels * bits) / 8, 32);
  h.writeUInt16LE(bits, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
};

describe('WAV decoding in JS', () => {
  it('reads PCM 8/16/24/32, float and G.711 as mono floats', () => {
    const int16 = Buffer.alloc(4);
    int16.writeInt16LE(16384, 0);
    int16.writeInt16LE(-16384, 2);
    expect(Array.from(decodeWavAudio(wav(1, 16, 1, 8000, int16)).samples)).toEqual([0.5, -0.5]);
    // stereo: the channels averaged
    expect(Array.from(decodeWavAudio(wav(1, 16, 2, 8000, int16)).samples)).toEqual([0]);
    expect(Array.from(decodeWavAudio(wav(1, 8, 1, 8000, Buffer.from([192, 64]))).samples)).toEqual([0.5, -0.5]);
    const int24 = Buffer.alloc(3);
    int24.writeIntLE(-4194304, 0, 3);
    expect(Array.from(decodeWavAudio(wav(1, 24, 1, 44_100, int24)).samples)).toEqual([-0.5]);
    const f32 = Buffer.alloc(4);
    f32.writeFloatLE(0.25, 0);
    expect(decodeWavAudio(wav(3, 32, 1, 16_000, f32))).toMatchObject({ sampleRate: 16_000, samples: Float32Array.from([0.25]) });
    // G.711: µ-law 0xff and A-law 0xd5 are (near) zero; µ-law 0x80 is the positive peak
    expect(Math.abs(decodeWavAudio(wav(7, 8, 1, 8000, Buffer.from([0xff]))).samples[0])).toBeLessThan(0.001);
    expect(decodeWavAudio(wav(7, 8, 1, 8000, Buffer.from([0x80]))).samples[0]).toBeCloseTo(32124 / 32768, 4);
    expect(Math.abs(decodeWavAudio(wav(6, 8, 1, 8000, Buffer.from([0xd5]))).samples[0])).toBeLessThan(0.001);
  });

  it('refuses what is no WAV, an encoding it does not know, and audio past the limit', () => {
    expect(() => decodeWavAudio(Buffer.from('#EXTM3U\n/etc/passwd\n'))).toThrow(WavDecodeError);
    expect(() => decodeWavAudio(wav(85, 16, 1, 8000, Buffer.alloc(4)))).toThrow('unsupported wav encoding');
    expect(() => decodeWavAudio(wav(1, 16, 1, 8000, Buffer.alloc(200)), 50)).toThrow('audio too long');
    expect(() => decodeWavAudio(wav(1, 16, 1, 8000, Buffer.alloc(0)).subarray(0, 36))).toThrow('no audio data');
  });
});
