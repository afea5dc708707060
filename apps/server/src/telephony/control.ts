import type { HangupCause } from '@crm/contracts';
import type { VadOptions, VadSegment } from '../modules/speech/vad';
import type { HangupSideValue } from './provider';

// Call control (issue 12): the legs the server itself places, answers, bridges, plays into and
// listens to. One interface, two lines: `sim` (simulated legs and timings, simulated frames and
// digits) and `sip` (the app's own SIP user agent over UDP with G.711 RTP, every leg through
// Kamailio, anchored and recorded by rtpengine). A line is process-local: it moves the legs this
// instance owns. The calls module keeps the legs in the database, applies the dial policy before
// `originate`, routes commands to the owning instance and publishes the events as domain events.

/** 8 kHz mono 16-bit samples; one frame is 20 ms = 160 samples. */
export const SAMPLE_RATE = 8000;
export const FRAME_SAMPLES = 160;
export const FRAME_MS = 20;

/** Who a leg reaches. */
export type LegRole = 'customer' | 'agent' | 'bot';

/** Where a leg goes: a customer's number through the trunk, or an agent's extension (his browser rings). */
export type LegTarget =
  | { kind: 'number'; number: string; callerId: string }
  | {
      kind: 'extension';
      user: string;
      /** what the agent's phone shows as the caller: the call uuid or a masked number, never the customer's */
      callerId: string;
      /** the call the browser is rung for (sip: the X-Call-Uuid header of the INVITE); the leg id when absent */
      callUuid?: string;
    };

/** How two legs are joined: third-party call control (media stays in rtpengine) or RTP forwarding in the app. */
export type BridgeMode = '3pcc' | 'forward';

export type ControlEvent =
  /** a call from the trunk reached the app (AI reception, inbound to a number the app answers) */
  | { kind: 'offered'; legId: string; at: Date; from: string; to: string }
  | { kind: 'ringing'; legId: string; at: Date }
  | { kind: 'answered'; legId: string; at: Date }
  /** an RFC 4733 key press, reported once at its end */
  | { kind: 'digit'; legId: string; at: Date; digit: string; durationMs: number }
  | { kind: 'bridged'; legId: string; otherLegId: string; at: Date; mode: BridgeMode }
  /**
   * what ends the leg when this process is gone (sip: its dialog, e.g. Call-ID and tags as JSON),
   * reported once known (after the answer); the calls module stores it on the leg (`line_handle`)
   * and passes it to `endByHandle` on another or the restarted instance
   */
  | { kind: 'handle'; legId: string; at: Date; handle: string }
  | {
      kind: 'ended';
      legId: string;
      at: Date;
      side: HangupSideValue;
      cause: HangupCause;
      /** the leg's recording (8 kHz mono WAV, both directions and every prompt), when the line records */
      recording?: Buffer;
    };

export type ControlListener = (event: ControlEvent) => Promise<void> | void;

/** 20 ms of what the far end of a leg says. */
export type AudioFrame = { legId: string; seq: number; samples: Int16Array };

/**
 * What a line's voice-activity detection reports (`detect`), each with the frames received so far
 * (the call's clock: frames × 20 ms): the clock moving on, a turn's start, a turn's end with its
 * audio. `isFlush`: the turn was still in progress when the leg's media closed.
 */
export type VoiceEvent =
  | { kind: 'clock'; frames: number }
  | { kind: 'start'; frames: number; atMs: number }
  | { kind: 'end'; frames: number; segment: VadSegment; isFlush: boolean };

/** A line's voice detection on one leg (`detect`). */
export type VoiceDetection = {
  stop: () => void;
  /**
   * while on, the line itself stops what it plays into the leg when speech starts (barge-in where
   * the media runs, not after a trip through a busy event loop); the prompt then ends 'stopped'
   */
  stopPlayOnSpeech: (isOn: boolean) => void;
};

/** How a prompt ended. */
export type PlayResult = 'done' | 'stopped' | 'ended';

export type OriginateRequest = {
  legId: string;
  target: LegTarget;
  /** the leg gives up (no_answer) after ringing this long */
  ringSeconds: number;
  /**
   * places the leg already joined to an answered leg (an agent leg for a customer who is waiting):
   * sip `3pcc` offers the waiting leg's media to the new leg and re-INVITEs the waiting leg once
   * answered (RFC 3725 flow I), `forward` copies RTP between them; `bridged` follows its answer
   */
  bridgeTo?: { legId: string; mode: BridgeMode };
  /** who the leg is for (the sim line's far end of a bot leg is a scripted customer) */
  role?: LegRole;
};

export type CallControlLine = {
  readonly name: 'sim' | 'sip';
  /** set once by the calls module: every leg event of this instance */
  onControlEvent: (listener: ControlListener) => void;
  /** places a leg; resolves once it is sent (its progress comes as events) */
  originate: (req: OriginateRequest) => Promise<void>;
  /** answers an offered inbound leg; resolves once answered */
  answer: (legId: string) => Promise<void>;
  /** joins two answered (or answering) legs; resolves once media flows both ways */
  bridge: (a: string, b: string, mode: BridgeMode) => Promise<void>;
  /** plays 8 kHz samples into a leg (the recording holds them); resolves when played, stopped or the leg ended */
  play: (legId: string, samples: Int16Array) => Promise<PlayResult>;
  /** stops what is playing into a leg at once, dropping the queue (barge-in) */
  stopPlay: (legId: string) => void;
  /** the leg's incoming audio as 20 ms frames; returns the unsubscribe */
  listen: (legId: string, onFrame: (frame: AudioFrame) => void) => () => void;
  /**
   * voice activity on a leg's incoming audio, detected where the leg's media runs (sip: the media
   * thread) with what the line sends into the leg as the echo reference. Optional: without it, the
   * listener runs the detector on `listen`'s frames.
   */
  detect?: (legId: string, options: VadOptions, onVoice: (event: VoiceEvent) => void) => VoiceDetection;
  /** ends a leg; resolves once its ended event is handled (false when the line does not hold it) */
  hangup: (legId: string, cause: HangupCause) => Promise<boolean>;
  isActive: (legId: string) => boolean;
  /**
   * ends a leg this process does not hold, from the handle its owner reported (its owner died or
   * does not answer); resolves to false when nothing was there to end. Optional: sim legs die
   * with their process.
   */
  endByHandle?: (handle: string, cause: HangupCause) => Promise<boolean>;
  close: () => Promise<void> | void;
};
