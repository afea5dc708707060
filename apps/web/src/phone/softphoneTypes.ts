/** The softphone interface, its local failure reasons and the connection-lost error, shared by both lines (no line's code). */
import type { SipInfo } from '@crm/contracts';

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
