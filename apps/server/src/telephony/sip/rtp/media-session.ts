// What the sip line asks of a leg's RTP endpoint, wherever it runs: in the main event loop
// (RtpSession itself, SIP_MEDIA_THREAD=0) or in the media worker (media-thread.ts's proxy, the
// default), so sip-control.ts and sip-bridge.ts do not know which.
import type { VadOptions } from '../../../modules/speech/vad';
import type { PlayResult, VoiceDetection, VoiceEvent } from '../../control';
import type { G711Pt } from './g711';

export type Remote = { ip: string; port: number; pt: G711Pt; dtmfPt: number | undefined };
export type DigitPress = { digit: string; durationMs: number };

export type RtpStats = {
  rxPackets: number;
  expected: number;
  lost: number;
  lossPct: number;
  maxGapMs: number;
  jitterMs: number;
  txPackets: number;
  /** performance.now() instants of the main thread */
  firstRxAt: number | undefined;
  firstTxAt: number | undefined;
};

export interface MediaSession {
  /** the local UDP port once bound */
  readonly port: number;
  /** decoded frames of the far end (set only while someone listens: the media thread sends them to main) */
  onFrame: ((samples: Int16Array) => void) | undefined;
  onDigit: ((press: DigitPress) => void) | undefined;
  onFirstPacket: (() => void) | undefined;
  /** the media is gone without close() (the media thread died): the leg has to end */
  onLost: (() => void) | undefined;
  /** the session its received packets are copied to (forward bridge); its own sending stops */
  forwardTo: MediaSession | undefined;
  bind(): Promise<number>;
  /** where to send (from the far end's SDP); starts the 20 ms sending */
  setRemote(remote: Remote): void;
  /** queues samples; resolves when played, stopped (stopPlay) or the session closed */
  play(samples: Int16Array): Promise<PlayResult>;
  stopPlay(result?: PlayResult): void;
  /** stops (false) or resumes the app's own audio (prompts and silence) */
  setSending(isSending: boolean): void;
  /** sends an RFC 4733 key press */
  sendDigit(digit: string, ms?: number): void;
  /** voice activity on the received audio, the frame sent in the same tick as the echo reference */
  detect(options: Partial<VadOptions>, onVoice: (event: VoiceEvent) => void): VoiceDetection;
  stats(): RtpStats;
  /** resolves once the session's last events (a turn in progress, plays ended) were delivered */
  close(): Promise<void>;
}
