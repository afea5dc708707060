import { REGISTER_STATUS, type SipInfo } from '@crm/contracts';
import { http } from '../api/http';

/**
 * What the header and the call flow need from a softphone. The `sim` line registers by telling
 * the server and has no media; on the `sip` line (sipdefault's `telephony`) JsSIP registers to
 * Kamailio over WebSocket, places and answers the calls and carries the audio, behind the same interface.
 */
export type Softphone = {
  /** resolves once registered, rejects when registration failed */
  register: (sip: SipInfo) => Promise<void>;
  unregister: (options?: { isSilent?: boolean }) => Promise<void>;
  /** sends a keypad digit into the call; false when this provider cannot (the digit is only shown) */
  sendDtmf: (digit: string) => boolean;
  /** sip: places the call the server opened (the browser dials the call uuid, never the number) */
  call?: (uuid: string) => Promise<void>;
  /**
   * sip: answers the ringing incoming call (the one of call `uuid`, waiting a moment for its INVITE
   * when the server's frame came first); true when this phone answered it itself
   */
  answer?: (uuid?: string) => Promise<boolean>;
  /** sip: ends the local call (BYE / CANCEL); nothing when there is none */
  hangup?: () => void;
  /** sip: WebRTC statistics of the call in progress */
  stats?: () => Promise<RTCStatsReport | null>;
  /**
   * sip: the one listener told when a registered phone lost its connection (network loss, SIP
   * server restart); the phone has stopped and reported 'failed', the caller re-initialises it
   */
  onConnectionLost?: (listener: () => void) => void;
  /**
   * sip: the one listener told when a placed call failed in the browser itself (no microphone,
   * no connection, WebRTC error) before Kamailio could report it: the server must hear of it
   */
  onLocalFailure?: (listener: (reason: LocalFailure) => void) => void;
};

/** Why the browser could not place a call: its microphone, or anything else (connection, WebRTC). */
export type LocalFailure = 'microphone' | 'other';

/** A registration that failed on the connection (not on the password): worth re-initialising. */
export class ConnectionLostError extends Error {}

const reportStatus = (registerStatus: 0 | 1 | 3 | 4, isSilent = false) =>
  http.post<null>('/api/frontend/call/sipdefaultregisterStatus', { registerStatus }, { silent: isSilent });

/** The simulated line: the server places and answers calls itself, so registering is a state report. */
export const simSoftphone: Softphone = {
  register: async () => {
    await reportStatus(REGISTER_STATUS.registering);
    await reportStatus(REGISTER_STATUS.registered);
  },
  unregister: async ({ isSilent = false } = {}) => {
    await reportStatus(REGISTER_STATUS.unregistered, isSilent);
  },
  sendDtmf: () => false,
};

let active: Softphone = simSoftphone;
let lostListener: () => void = () => undefined;
let failureListener: (reason: LocalFailure) => void = () => undefined;

/** The line the server names: JsSIP (loaded on demand) for 'sip', the sim otherwise. */
export const softphone: Softphone = {
  register: async (sip) => {
    active = sip.telephony === 'sip' ? (await import('./jssipSoftphone')).jssipSoftphone : simSoftphone;
    active.onConnectionLost?.(() => lostListener());
    active.onLocalFailure?.((reason) => failureListener(reason));
    await active.register(sip);
  },
  unregister: (options) => active.unregister(options),
  sendDtmf: (digit) => active.sendDtmf(digit),
  call: async (uuid) => active.call?.(uuid),
  answer: async (uuid) => (active.answer ? active.answer(uuid) : false),
  hangup: () => active.hangup?.(),
  stats: async () => (active.stats ? active.stats() : null),
  onConnectionLost: (listener) => {
    lostListener = listener;
  },
  onLocalFailure: (listener) => {
    failureListener = listener;
  },
};

// the real-call test (e2e/sip) reads the WebRTC statistics of the call
if (typeof window !== 'undefined') (window as unknown as { __crmSoftphone?: Softphone }).__crmSoftphone = softphone;
