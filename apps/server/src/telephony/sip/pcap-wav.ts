import fs from 'node:fs';
import path from 'node:path';
import { SAMPLE_RATE } from '../sim/wav';

/** G.711 μ-law byte → 16-bit sample. */
const ulaw = (byte: number) => {
  const u = ~byte & 0xff;
  const sign = u & 0x80;
  const exponent = (u >> 4) & 7;
  const x = (((u & 0x0f) << 3) + 0x84) << exponent;
  return sign ? 0x84 - x : x - 0x84;
};

/** G.711 A-law byte → 16-bit sample. */
const alaw = (byte: number) => {
  const a = byte ^ 0x55;
  const exponent = (a >> 4) & 7;
  const m = a & 0x0f;
  const x = exponent ? ((m << 4) + 0x108) << (exponent - 1) : (m << 4) + 8;
  return a & 0x80 ? x : -x;
};

type Stream = { pt: number; first: number; packets: { seq: number; payload: Buffer }[] };

/** RTP streams (by SSRC) of an rtpengine pcap recording (linktype RAW or Ethernet, IPv4/UDP, plain RTP). */
const rtpStreamsOf = (b: Buffer): Map<number, Stream> => {
  const streams = new Map<number, Stream>();
  if (b.length < 24) return streams;
  const isLe = b.readUInt32LE(0) === 0xa1b2c3d4;
  const u32 = (o: number) => (isLe ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const linktype = u32(20);
  let t0: number | null = null;
  let off = 24;
  while (off + 16 <= b.length) {
    const ts = u32(off) + u32(off + 4) / 1e6;
    const incl = u32(off + 8);
    let p = off + 16;
    off = p + incl;
    if (off > b.length) break;
    if (linktype === 1) p += 14;
    if (b[p] >> 4 !== 4 || b[p + 9] !== 17) continue;
    const rtp = p + (b[p] & 0x0f) * 4 + 8;
    if (rtp + 12 > off || b[rtp] >> 6 !== 2) continue;
    const pt = b[rtp + 1] & 0x7f;
    if (pt !== 0 && pt !== 8) continue; // G.711 only; RTCP and events are skipped
    let payload = rtp + 12 + (b[rtp] & 0x0f) * 4;
    if ((b[rtp] >> 4) & 1) payload += 4 + b.readUInt16BE(payload + 2) * 4;
    if (payload > off) continue;
    t0 ??= ts;
    const ssrc = b.readUInt32BE(rtp + 8);
    let s = streams.get(ssrc);
    if (!s) {
      s = { pt, first: ts - t0, packets: [] };
      streams.set(ssrc, s);
    }
    s.packets.push({ seq: b.readUInt16BE(rtp + 2), payload: b.subarray(payload, off) });
  }
  return streams;
};

/** One mixed 8 kHz mono 16-bit WAV of every G.711 stream of the recording (both directions of the call). */
export const pcapToWav = (pcap: Buffer): Buffer => {
  const mix: number[] = [];
  for (const s of rtpStreamsOf(pcap).values()) {
    const decode = s.pt === 0 ? ulaw : alaw;
    const base = s.packets[0]?.seq ?? 0;
    // sequence numbers wrap at 65536: order by the distance from the first packet
    s.packets.sort((x, y) => ((x.seq - base + 65536) % 65536) - ((y.seq - base + 65536) % 65536));
    let i = Math.round(s.first * SAMPLE_RATE);
    for (const k of s.packets) for (const byte of k.payload) mix[i] = (mix[i++] ?? 0) + decode(byte);
  }
  const data = Buffer.alloc(mix.length * 2);
  for (let i = 0; i < mix.length; i++) data.writeInt16LE(Math.max(-32768, Math.min(32767, mix[i] ?? 0)), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(SAMPLE_RATE, 24);
  h.writeUInt32LE(SAMPLE_RATE * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
};

/**
 * The WAV of one SIP call's rtpengine recording (<recordingDir>/pcaps/<call-id>-<hex>.pcap), read
 * once rtpengine has closed it (right after the dialog's BYE); undefined without one.
 */
export const recordingOfCall = async (recordingDir: string, callId: string): Promise<Buffer | undefined> => {
  if (!recordingDir || !callId) return undefined;
  const dir = path.join(recordingDir, 'pcaps');
  for (let attempt = 0; attempt < 10; attempt++) {
    const names = await fs.promises.readdir(dir).catch(() => [] as string[]);
    const name = names.find((n) => n.startsWith(`${callId}-`) && n.endsWith('.pcap'));
    if (name) {
      const wav = pcapToWav(await fs.promises.readFile(path.join(dir, name)));
      if (wav.length > 44) return wav;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
};
