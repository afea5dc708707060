import { REGISTER_STATUS, type SipInfo } from '@crm/contracts';
import JsSIP from 'jssip';
import type { RTCSession } from 'jssip/lib/RTCSession';
import type { UA } from 'jssip/lib/UA';
import { http } from '../api/http';
import { ConnectionLostError, type LocalFailure, type Softphone } from './softphoneTypes';

const reportStatus = (registerStatus: 0 | 1 | 3 | 4, isSilent = true) =>
  http.post<null>('/api/frontend/call/sipdefaultregisterStatus', { registerStatus }, { silent: isSilent }).catch(() => undefined);

/** WebRTC towards rtpengine: no STUN/TURN (the media relay is public), rtcp-mux, no max-bundle (its answer has no BUNDLE). */
/** How long a put-through's answer waits for its INVITE after the server's frame. */
const INVITE_WAIT_MS = 3_000;
const INVITE_WAIT_STEPS = 30;
const pcConfig: RTCConfiguration = { iceServers: [], rtcpMuxPolicy: 'require', bundlePolicy: 'balanced' };
const mediaConstraints = { audio: true, video: false };

let ua: UA | null = null;
let domain = '';
/** the call in progress (placed or answered), and an incoming one still ringing */
let current: RTCSession | null = null;
let ringing: RTCSession | null = null;
let audio: HTMLAudioElement | null = null;
let onLost: () => void = () => undefined;
let onLocalFailure: (reason: LocalFailure) => void = () => undefined;

/** Plays the far end: the remote track of the session's peer connection. */
const attachMedia = (pc: RTCPeerConnection) => {
  pc.addEventListener('track', (e) => {
    audio ??= new Audio();
    audio.autoplay = true;
    audio.srcObject = e.streams[0] ?? new MediaStream([e.track]);
    void audio.play().catch(() => undefined);
  });
};

const track = (session: RTCSession) => {
  const clear = () => {
    if (current === session) current = null;
    if (ringing === session) ringing = null;
  };
  session.on('ended', clear);
  session.on('failed', clear);
};

/**
 * The real line (TELEPHONY=sip, issue 7): JsSIP registers the extension to Kamailio over
 * WebSocket and carries the call's audio. After a network loss the phone stops and the phone
 * actions re-initialise it (SPEC §4); the server hears of each state.
 */
export const jssipSoftphone: Required<Softphone> = {
  register: (sip: SipInfo) =>
    new Promise<void>((resolve, reject) => {
      ua?.stop();
      domain = sip.server || window.location.hostname;
      void reportStatus(REGISTER_STATUS.registering);
      const socket = new JsSIP.WebSocketInterface(sip.url || `ws://${window.location.hostname}:8080`);
      const agent = new JsSIP.UA({
        sockets: [socket],
        uri: `sip:${sip.user}@${domain}`,
        password: sip.pwd,
        register: true,
        session_timers: false,
        user_agent: 'yunhu-crm',
      });
      ua = agent;
      let isSettled = false;
      agent.on('registered', () => {
        void reportStatus(REGISTER_STATUS.registered);
        if (!isSettled) {
          isSettled = true;
          resolve();
        }
      });
      agent.on('registrationFailed', (e) => {
        if (ua !== agent) return;
        void reportStatus(REGISTER_STATUS.failed);
        const isConnection = e.cause === JsSIP.C.causes.CONNECTION_ERROR || e.cause === JsSIP.C.causes.REQUEST_TIMEOUT;
        if (!isSettled) {
          isSettled = true;
          ua = null;
          agent.stop();
          const message = `注册失败: ${e.cause ?? ''}`;
          reject(isConnection ? new ConnectionLostError(message) : new Error(message));
        }
      });
      // SPEC §4: on a connection error (network loss, the SIP server restarted) the phone stops and
      // says failed; the phone actions re-initialise it (debounced), which registers anew
      agent.on('disconnected', () => {
        if (ua !== agent) return;
        ua = null;
        agent.stop();
        void reportStatus(REGISTER_STATUS.failed);
        if (!isSettled) {
          isSettled = true;
          reject(new ConnectionLostError('注册失败: 无法连接 SIP 服务器'));
          return;
        }
        onLost();
      });
      agent.on('newRTCSession', (e: { originator: string; session: RTCSession }) => {
        if (e.originator !== 'remote') return;
        if (current || ringing) {
          e.session.terminate({ status_code: 486 });
          return;
        }
        ringing = e.session;
        track(e.session);
      });
      agent.start();
    }),
  unregister: async ({ isSilent = false } = {}) => {
    const agent = ua;
    ua = null;
    current?.terminate();
    agent?.stop();
    await reportStatus(REGISTER_STATUS.unregistered, isSilent);
  },
  sendDtmf: (digit) => {
    if (!current?.isEstablished()) return false;
    current.sendDTMF(digit);
    return true;
  },
  call: async (uuid) => {
    if (!ua) throw new Error('分机未注册');
    const session = ua.call(`sip:${uuid}@${domain}`, {
      mediaConstraints,
      pcConfig,
      // emitted synchronously inside call(): must be given here
      eventHandlers: { peerconnection: (e: { peerconnection: RTCPeerConnection }) => attachMedia(e.peerconnection) },
    });
    current = session;
    track(session);
    // failures of the browser's own making never reach Kamailio (the agent's cancel does)
    session.on('failed', (e: { originator: string; cause?: string }) => {
      if (e.originator === 'remote' || e.cause === JsSIP.C.causes.CANCELED) return;
      onLocalFailure(e.cause === JsSIP.C.causes.USER_DENIED_MEDIA_ACCESS ? 'microphone' : 'other');
    });
  },
  answer: async (uuid) => {
    // a put-through's frame may come before its INVITE (issue 23): wait for it a moment
    for (let i = 0; uuid && !ringing && ua && i < INVITE_WAIT_STEPS; i++) {
      await new Promise((r) => window.setTimeout(r, INVITE_WAIT_MS / INVITE_WAIT_STEPS));
    }
    const session = ringing;
    if (!session) return false;
    ringing = null;
    current = session;
    session.answer({ mediaConstraints, pcConfig });
    attachMedia(session.connection);
    return true;
  },
  hangup: () => {
    for (const s of [current, ringing]) if (s && !s.isEnded()) s.terminate();
    current = null;
    ringing = null;
  },
  stats: async () => (current?.connection ? current.connection.getStats() : null),
  onConnectionLost: (listener) => {
    onLost = listener;
  },
  onLocalFailure: (listener) => {
    onLocalFailure = listener;
  },
};
