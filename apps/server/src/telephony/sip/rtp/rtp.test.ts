import { describe, expect, it } from 'vitest';
import { g711Decode, g711Encode, PT_PCMA, PT_PCMU } from './g711';
import { buildRtp, buildTelephoneEvent, digitOfEvent, eventOfDigit, parseRtp, parseTelephoneEvent } from './rtp-packet';

describe('G.711', () => {
  it('encodes silence and full scale to the standard codes', () => {
    expect([...g711Encode(Int16Array.from([0, 32767, -32768]), PT_PCMU)]).toEqual([0xff, 0x80, 0x00]);
    expect([...g711Encode(Int16Array.from([0, 32767, -32768]), PT_PCMA)]).toEqual([0xd5, 0xaa, 0x2a]);
  });

  it('decodes every code back to the value that encodes to it (both laws)', () => {
    for (const pt of [PT_PCMU, PT_PCMA] as const) {
      const codes = Uint8Array.from({ length: 256 }, (_, i) => i);
      const samples = g711Decode(codes, pt);
      const again = g711Encode(samples, pt);
      for (let i = 0; i < 256; i++) {
        // μ-law has two zeros (0x7f and 0xff): both decode to 0, which encodes to 0xff
        if (pt === PT_PCMU && i === 0x7f) continue;
        expect(again[i], `code ${i}`).toBe(i);
      }
    }
  });

  it('keeps a 1 kHz tone within the quantisation error of each law', () => {
    const tone = Int16Array.from({ length: 160 }, (_, i) => Math.round(12000 * Math.sin((2 * Math.PI * 1000 * i) / 8000)));
    for (const pt of [PT_PCMU, PT_PCMA] as const) {
      const back = g711Decode(g711Encode(tone, pt), pt);
      for (let i = 0; i < tone.length; i++) {
        const s = tone[i] as number;
        expect(Math.abs((back[i] as number) - s)).toBeLessThanOrEqual(Math.max(16, Math.abs(s) / 16));
      }
    }
  });
});

describe('RTP packets', () => {
  it('round-trips the header and payload', () => {
    const payload = Buffer.from([1, 2, 3, 4]);
    const b = buildRtp({ pt: 8, marker: true, seq: 65535, timestamp: 0xfffffff0, ssrc: 0x12345678, payload });
    expect(b.length).toBe(16);
    expect(parseRtp(b)).toEqual({ pt: 8, marker: true, seq: 65535, timestamp: 0xfffffff0, ssrc: 0x12345678, payload });
  });

  it('skips CSRCs, a header extension and padding; refuses RTCP and short data', () => {
    const h = Buffer.from([0x80 | 0x20 | 0x10 | 0x01, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3]);
    const csrc = Buffer.alloc(4);
    const ext = Buffer.from([0xbe, 0xde, 0, 1, 9, 9, 9, 9]);
    const payload = Buffer.from([7, 7, 7]);
    const padding = Buffer.from([0, 2]);
    const p = parseRtp(Buffer.concat([h, csrc, ext, payload, padding]));
    expect(p?.payload).toEqual(payload);
    expect(parseRtp(Buffer.from([0x80, 200, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeUndefined();
    expect(parseRtp(Buffer.from([0x80, 0]))).toBeUndefined();
  });

  it('reads and writes RFC 4733 telephone events', () => {
    const b = buildTelephoneEvent({ event: 11, end: true, volume: 10, duration: 800 });
    expect([...b]).toEqual([11, 0x8a, 0x03, 0x20]);
    expect(parseTelephoneEvent(b)).toEqual({ event: 11, end: true, volume: 10, duration: 800 });
    expect(digitOfEvent(11)).toBe('#');
    expect(digitOfEvent(10)).toBe('*');
    expect(eventOfDigit('7')).toBe(7);
    expect(eventOfDigit('x')).toBeUndefined();
    expect(parseTelephoneEvent(Buffer.from([1, 2]))).toBeUndefined();
  });
});
