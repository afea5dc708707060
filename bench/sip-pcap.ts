// RTP streams of an rtpengine pcap recording with their arrival times: what rtpengine received
// from each sender (packets, loss by sequence numbers, the largest gap between two packets); and
// the SIP messages of a loopback capture (the capacity bench's SIP_BENCH_PCAP=1) with their times.
import { parseRtp } from '../apps/server/src/telephony/sip/rtp/rtp-packet';

export type PcapStream = {
  from: string;
  ssrc: number;
  pt: number;
  packets: number;
  expected: number;
  lossPct: number;
  maxGapMs: number;
};

/** bytes before the IPv4 header for the link types rtpengine writes */
const linkOffset = (linktype: number, frame: Buffer): number | undefined => {
  if (linktype === 101 || linktype === 228) return 0;
  if (linktype === 1) return frame.readUInt16BE(12) === 0x0800 ? 14 : undefined;
  if (linktype === 113) return 16;
  if (linktype === 0) return 4;
  return undefined;
};

export const pcapStreams = (b: Buffer): PcapStream[] => {
  if (b.length < 24) return [];
  const magic = b.readUInt32LE(0);
  const isLe = magic === 0xa1b2c3d4 || magic === 0xa1b23c4d;
  const isNano = magic === 0xa1b23c4d || b.readUInt32BE(0) === 0xa1b23c4d;
  const u32 = (o: number) => (isLe ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const linktype = u32(20);
  const acc = new Map<string, { from: string; ssrc: number; pt: number; seqs: number[]; times: number[] }>();
  for (let off = 24; off + 16 <= b.length; ) {
    const t = u32(off) * 1000 + u32(off + 4) / (isNano ? 1e6 : 1e3);
    const len = u32(off + 8);
    const frame = b.subarray(off + 16, off + 16 + len);
    off += 16 + len;
    const l = linkOffset(linktype, frame);
    if (l === undefined || frame.length < l + 28 || (frame[l] ?? 0) >> 4 !== 4 || frame[l + 9] !== 17) continue;
    const ihl = ((frame[l] ?? 0) & 0x0f) * 4;
    const src = `${frame[l + 12]}.${frame[l + 13]}.${frame[l + 14]}.${frame[l + 15]}:${frame.readUInt16BE(l + ihl)}`;
    const rtp = parseRtp(frame.subarray(l + ihl + 8));
    if (!rtp) continue;
    const key = `${src}/${rtp.ssrc}`;
    let s = acc.get(key);
    if (!s) {
      s = { from: src, ssrc: rtp.ssrc, pt: rtp.pt, seqs: [], times: [] };
      acc.set(key, s);
    }
    s.seqs.push(rtp.seq);
    s.times.push(t);
  }
  return [...acc.values()].map((s) => {
    // sequence numbers unwrapped against the previous packet (RFC 3550 A.1), so a packet that came
    // before the first one recorded, or a wrap past 65535, is not taken for 65,000 lost packets
    let prev = s.seqs[0] ?? 0;
    let ext0 = prev;
    const ext = s.seqs.map((q) => {
      const d = ((q - prev + 32768 + 65536) % 65536) - 32768;
      prev = q;
      ext0 += d;
      return ext0;
    });
    const lo = Math.min(...ext);
    const expected = Math.max(...ext) - lo + 1;
    let maxGap = 0;
    for (let i = 1; i < s.times.length; i++) maxGap = Math.max(maxGap, (s.times[i] as number) - (s.times[i - 1] as number));
    const lost = Math.max(0, expected - new Set(ext).size);
    return {
      from: s.from,
      ssrc: s.ssrc,
      pt: s.pt,
      packets: s.seqs.length,
      expected,
      lossPct: Math.round((10000 * lost) / expected) / 100,
      maxGapMs: Math.round(maxGap * 10) / 10,
    };
  });
};

export type SipPacket = { at: number; srcPort: number; dstPort: number; callId: string; cseq: string; firstLine: string };

/** the SIP messages of a capture (tcpdump -i lo udp ...), with their kernel timestamps (epoch ms) */
export const sipPackets = (b: Buffer): SipPacket[] => {
  if (b.length < 24) return [];
  const magic = b.readUInt32LE(0);
  const isLe = magic === 0xa1b2c3d4 || magic === 0xa1b23c4d;
  const isNano = magic === 0xa1b23c4d || b.readUInt32BE(0) === 0xa1b23c4d;
  const u32 = (o: number) => (isLe ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const linktype = u32(20);
  const out: SipPacket[] = [];
  for (let off = 24; off + 16 <= b.length; ) {
    const at = u32(off) * 1000 + u32(off + 4) / (isNano ? 1e6 : 1e3);
    const len = u32(off + 8);
    const frame = b.subarray(off + 16, off + 16 + len);
    off += 16 + len;
    const l = linkOffset(linktype, frame);
    if (l === undefined || frame.length < l + 28 || (frame[l] ?? 0) >> 4 !== 4 || frame[l + 9] !== 17) continue;
    const ihl = ((frame[l] ?? 0) & 0x0f) * 4;
    const text = frame.subarray(l + ihl + 8).toString('latin1');
    const callId = /\r\n(?:call-id|i)[ \t]*:[ \t]*([^\r\n]+)/i.exec(text)?.[1]?.trim();
    if (!callId) continue;
    out.push({
      at,
      srcPort: frame.readUInt16BE(l + ihl),
      dstPort: frame.readUInt16BE(l + ihl + 2),
      callId,
      cseq: /\r\ncseq[ \t]*:[ \t]*([^\r\n]+)/i.exec(text)?.[1]?.trim() ?? '',
      firstLine: text.slice(0, text.indexOf('\r\n')),
    });
  }
  return out;
};
