// SDP (RFC 4566) for plain G.711 audio legs: the offer/answer the app sends, and the address,
// codec and telephone-event payload type it reads from the far end's.
import { type G711Pt, PT_PCMA, PT_PCMU } from '../rtp/g711';

export type SdpMedia = {
  ip: string;
  port: number;
  /** the G.711 payload types offered/accepted, preferred first */
  pts: G711Pt[];
  /** the telephone-event payload type (RFC 4733), if any */
  dtmfPt: number | undefined;
  direction: 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';
};

export type SdpOrigin = { sessionId: string; version: number };

const NAMES: Record<G711Pt, string> = { [PT_PCMU]: 'PCMU', [PT_PCMA]: 'PCMA' };

export const buildSdp = (m: SdpMedia, origin: SdpOrigin): string => {
  const fmts = [...m.pts, ...(m.dtmfPt === undefined ? [] : [m.dtmfPt])];
  const lines = [
    'v=0',
    `o=crm ${origin.sessionId} ${origin.version} IN IP4 ${m.ip}`,
    's=crm',
    `c=IN IP4 ${m.ip}`,
    't=0 0',
    `m=audio ${m.port} RTP/AVP ${fmts.join(' ')}`,
    ...m.pts.map((pt) => `a=rtpmap:${pt} ${NAMES[pt]}/8000`),
  ];
  if (m.dtmfPt !== undefined) lines.push(`a=rtpmap:${m.dtmfPt} telephone-event/8000`, `a=fmtp:${m.dtmfPt} 0-16`);
  lines.push('a=ptime:20', `a=${m.direction}`);
  return `${lines.join('\r\n')}\r\n`;
};

/** the first audio stream of an SDP body; undefined when it has no G.711 audio */
export const parseSdp = (body: string): SdpMedia | undefined => {
  let sessionIp = '';
  let media:
    | { ip: string; port: number; fmts: number[]; rtpmap: Map<number, string>; direction: SdpMedia['direction'] }
    | undefined;
  let isAudio = false;
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('m=')) {
      if (media) break;
      const [type, port, , ...fmts] = line.slice(2).split(/\s+/);
      isAudio = type === 'audio';
      if (isAudio) media = { ip: '', port: Number(port), fmts: fmts.map(Number), rtpmap: new Map(), direction: 'sendrecv' };
    } else if (line.startsWith('c=')) {
      const ip = line.split(/\s+/)[2] ?? '';
      if (media) media.ip = ip;
      else if (!isAudio) sessionIp = ip;
    } else if (media && line.startsWith('a=rtpmap:')) {
      const [pt, enc] = line.slice(9).split(/\s+/);
      media.rtpmap.set(Number(pt), (enc ?? '').split('/')[0]?.toLowerCase() ?? '');
    } else if (media && /^a=(sendrecv|sendonly|recvonly|inactive)$/.test(line)) {
      media.direction = line.slice(2) as SdpMedia['direction'];
    }
  }
  if (!media) return undefined;
  const pts = media.fmts.filter((pt): pt is G711Pt => pt === PT_PCMU || pt === PT_PCMA);
  if (pts.length === 0) return undefined;
  const dtmfPt = media.fmts.find((pt) => media?.rtpmap.get(pt) === 'telephone-event');
  return { ip: media.ip || sessionIp, port: media.port, pts, dtmfPt, direction: media.direction };
};

/** the origin (o=) of an SDP, to bump its version in a re-offer */
export const originOf = (body: string): SdpOrigin | undefined => {
  const m = /^o=\S+ (\S+) (\d+)/m.exec(body);
  return m ? { sessionId: m[1] as string, version: Number(m[2]) } : undefined;
};
