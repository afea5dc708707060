// A leg of the sip call-control line: its SIP dialog (or the INVITE still pending), its RTP
// session on the app's address, and what the control line knows of its state.
import type { BridgeMode, LegTarget } from '../control';
import { PT_PCMU } from './rtp/g711';
import type { MediaSession } from './rtp/media-session';
import { ThreadSession } from './rtp/media-thread';
import { RtpSession } from './rtp/rtp-session';
import type { Dialog } from './ua/dialog';
import { buildSdp, parseSdp, type SdpMedia } from './ua/sdp';
import type { IncomingInvite, OutgoingInvite } from './ua/sip-ua';

export type LegState = 'offered' | 'calling' | 'ringing' | 'answered' | 'ended';

export type SipLeg = {
  id: string;
  callId: string;
  /** where it goes (originated legs) or undefined (inbound) */
  target: LegTarget | undefined;
  state: LegState;
  rtp: MediaSession;
  dialog?: Dialog;
  outgoing?: OutgoingInvite;
  incoming?: IncomingInvite;
  /** performance.now() of the 2xx */
  answeredAt?: number;
  /** performance.now() when the app sent a prompt's last frame (a BYE lets it reach the far end first) */
  playEndedAt?: number;
  ringTimer?: NodeJS.Timeout;
  /** the leg it is bridged to, and how */
  peer?: { legId: string; mode: BridgeMode };
  /** 3PCC: the app's RTP left the media path of this leg (play and listen no longer reach it) */
  isMediaAway: boolean;
  /** 3PCC: the waiting leg this (agent) leg was offered the media of, until it is bridged */
  joining?: string;
  /** 3PCC: this leg was re-INVITEd towards its partner (rtpengine now sends its audio there) */
  isReanchored?: boolean;
  listeners: Set<(samples: Int16Array, seq: number) => void>;
  frameSeq: number;
  /** set by hangup(): the ended event's cause comes from the app */
  endingByApp?: boolean;
  ended?: Promise<void>;
};

/** the telephone-event payload type the app offers */
export const DTMF_PT = 101;

/** the app's own offer: PCMU, PCMA and telephone-event on its RTP session */
export const offerOf = (host: string, port: number, version = 1, sessionId = `${Date.now()}`) =>
  buildSdp({ ip: host, port, pts: [PT_PCMU, 8], dtmfPt: DTMF_PT, direction: 'sendrecv' }, { sessionId, version });

/** the answer to an offer: its first G.711 payload type, and telephone-event if offered */
export const answerOf = (offer: SdpMedia, host: string, port: number) =>
  buildSdp(
    { ip: host, port, pts: [offer.pts[0] ?? PT_PCMU], dtmfPt: offer.dtmfPt, direction: 'sendrecv' },
    { sessionId: `${Date.now()}`, version: 1 },
  );

/** points a leg's RTP at the far end of an SDP; false without usable G.711 audio */
export const aimRtp = (leg: SipLeg, sdp: string): boolean => {
  const m = parseSdp(sdp);
  const pt = m?.pts[0];
  if (!m || pt === undefined || !m.port) return false;
  leg.rtp.setRemote({ ip: m.ip, port: m.port, pt, dtmfPt: m.dtmfPt });
  return true;
};

/** the leg's frames to a listener until the returned stop; the media thread sends them to main only while there is one */
export const listenTo = (leg: SipLeg, l: (samples: Int16Array, seq: number) => void) => {
  const dispatch = () => {
    leg.rtp.onFrame = leg.listeners.size
      ? (samples) => {
          const seq = leg.frameSeq++;
          for (const f of leg.listeners) f(samples, seq);
        }
      : undefined;
  };
  leg.listeners.add(l);
  dispatch();
  return () => {
    if (leg.listeners.delete(l) && leg.state !== 'ended') dispatch();
  };
};

/** a leg's RTP endpoint: in the media thread (SIP_MEDIA_THREAD=1) or in this event loop */
export const mediaSession = (host: string, inThread: boolean): MediaSession =>
  inThread ? new ThreadSession(host) : new RtpSession(host);
