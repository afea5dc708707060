import type { HangupCause } from '@crm/contracts';

/** Who ended a call leg (HANGUP_SIDE of contracts). */
export type HangupSideValue = 1 | 2 | 3;

/**
 * What a provider reports about a call leg, in order: ringing → answered → ended
 * (answered may be skipped). `at` is the instant on the business clock.
 */
export type LegEvent =
  | { kind: 'ringing'; uuid: string; at: Date }
  | { kind: 'answered'; uuid: string; at: Date }
  | {
      kind: 'ended';
      uuid: string;
      at: Date;
      side: HangupSideValue;
      cause: HangupCause;
      /** the recording of an answered call (8 kHz mono WAV), when the provider records */
      recording?: Buffer;
    };

export type LegListener = (event: LegEvent) => Promise<void> | void;

/** An outbound call from an extension to a number. */
export type OutboundLeg = { uuid: string; from: string; to: string };

/** An incoming call to an extension (callType 4); the caller gives up after ringSeconds. */
export type InboundLeg = { uuid: string; from: string; to: string; ringSeconds: number };

/**
 * A telephony provider turns a dial request into call legs and reports their progress
 * (DESIGN §6). The server owns the call record, the dial lock and the follow record;
 * the provider only moves calls. `sim` is built in; `sip` is Kamailio + rtpengine (issue 7).
 */
export type TelephonyProvider = {
  readonly name: 'sim' | 'sip';
  /** reports every leg event; set once by the calls module */
  onEvent: (listener: LegListener) => void;
  dial: (leg: OutboundLeg) => void;
  /**
   * the agent (side 1) or the system (side 3) ends the call; resolves once the ended event is
   * handled, with false when the line does not hold the leg (the record is then closed alone)
   */
  hangup: (uuid: string, side: HangupSideValue, cause: HangupCause) => Promise<boolean>;
  /** an incoming call rings at the extension (sim only: tests and demos); resolves once ringing is handled */
  incoming?: (leg: InboundLeg) => Promise<void>;
  /** the agent answers an incoming call; resolves once the answered event is handled */
  answer: (uuid: string) => Promise<void>;
  /** is the leg still moving (not ended)? */
  isActive: (uuid: string) => boolean;
  close: () => void;
};
