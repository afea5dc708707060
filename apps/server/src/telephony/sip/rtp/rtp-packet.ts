// RTP (RFC 3550) fixed header and RFC 4733 telephone-event payloads: building and parsing.

export type RtpPacket = {
  pt: number;
  marker: boolean;
  seq: number;
  timestamp: number;
  ssrc: number;
  payload: Buffer;
};

/** The 12-byte header (no CSRC, no extension) followed by the payload. */
export const buildRtp = (p: RtpPacket): Buffer => {
  const b = Buffer.allocUnsafe(12 + p.payload.length);
  b[0] = 0x80;
  b[1] = (p.marker ? 0x80 : 0) | (p.pt & 0x7f);
  b.writeUInt16BE(p.seq & 0xffff, 2);
  b.writeUInt32BE(p.timestamp >>> 0, 4);
  b.writeUInt32BE(p.ssrc >>> 0, 8);
  p.payload.copy(b, 12);
  return b;
};

/** An RTP packet, or undefined for RTCP, other versions and truncated data. Padding and extensions are skipped. */
export const parseRtp = (m: Buffer): RtpPacket | undefined => {
  if (m.length < 12 || m[0] === undefined || m[0] >> 6 !== 2) return undefined;
  const b1 = m[1] ?? 0;
  const pt = b1 & 0x7f;
  if (pt >= 72 && pt <= 79) return undefined; // RTCP (rtcp-mux)
  let off = 12 + (m[0] & 0x0f) * 4;
  if (m[0] & 0x10) {
    if (m.length < off + 4) return undefined;
    off += 4 + m.readUInt16BE(off + 2) * 4;
  }
  let end = m.length;
  if (m[0] & 0x20) end -= m[m.length - 1] ?? 0;
  if (off > end) return undefined;
  return {
    pt,
    marker: (b1 & 0x80) !== 0,
    seq: m.readUInt16BE(2),
    timestamp: m.readUInt32BE(4),
    ssrc: m.readUInt32BE(8),
    payload: m.subarray(off, end),
  };
};

/** RFC 4733 §2.3: one named event (digit), its end bit, volume and duration in timestamp units. */
export type TelephoneEvent = { event: number; end: boolean; volume: number; duration: number };

export const DTMF_DIGITS = '0123456789*#ABCD';

export const parseTelephoneEvent = (payload: Buffer): TelephoneEvent | undefined => {
  if (payload.length < 4) return undefined;
  const b1 = payload[1] ?? 0;
  return { event: payload[0] ?? 0, end: (b1 & 0x80) !== 0, volume: b1 & 0x3f, duration: payload.readUInt16BE(2) };
};

export const buildTelephoneEvent = (e: TelephoneEvent): Buffer => {
  const b = Buffer.alloc(4);
  b[0] = e.event;
  b[1] = (e.end ? 0x80 : 0) | (e.volume & 0x3f);
  b.writeUInt16BE(Math.min(0xffff, e.duration), 2);
  return b;
};

export const digitOfEvent = (event: number): string | undefined => DTMF_DIGITS[event];
export const eventOfDigit = (digit: string): number | undefined => {
  const i = DTMF_DIGITS.indexOf(digit.toUpperCase());
  return i < 0 ? undefined : i;
};
