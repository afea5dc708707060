// Streaming speech recognition, one session per customer turn (or per call): open, push PCM frames
// as they arrive, get partial and final texts, finish (or close to abandon). Adapters speak an
// outside service's protocol: funasr.ts (self-hosted FunASR runtime) and aliyun-nls.ts (Alibaba
// Cloud 实时语音识别). The bot works without one: digits and silence drive the flow.

export type RecognizerEvent =
  /** the text of the sentence in progress so far (replaces the previous partial) */
  | { type: 'partial'; text: string }
  /** a finished sentence */
  | { type: 'final'; text: string }
  /** the session failed; no more events follow */
  | { type: 'error'; error: RecognizerError };

export type RecognizerSessionOptions = {
  /** 8000 (the line) or 16000 */
  sampleRate: 8000 | 16000;
  /** a label the service echoes (FunASR wav_name), e.g. the call id and turn */
  name?: string;
  /** words to favour (FunASR hotwords) */
  hotwords?: string[];
  onEvent: (e: RecognizerEvent) => void;
};

export interface RecognizerSession {
  /** 16-bit samples at the session's rate; ignored after finish/close */
  push(samples: Int16Array): void;
  /**
   * End of audio: waits for the service's last result and closes; resolves with all final
   * sentences joined (rejects with RecognizerError on failure or timeout).
   */
  finish(): Promise<string>;
  /** abandons the session at once (no more events) */
  close(): void;
}

export interface Recognizer {
  readonly provider: string;
  /** connects and starts a session; rejects with RecognizerError (connect, timeout, service) */
  open(options: RecognizerSessionOptions): Promise<RecognizerSession>;
}

export class RecognizerError extends Error {
  constructor(
    /** connect: no connection; timeout: no answer in time; service: the service refused; protocol: an unreadable answer; closed: the connection ended early */
    readonly reason: 'connect' | 'timeout' | 'service' | 'protocol' | 'closed',
    message: string,
  ) {
    super(message);
  }
}

export type RecognizerTimeouts = {
  /** connection plus the service's go-ahead */
  connectMs: number;
  /** from finish() to the last result */
  finishMs: number;
};

export const DEFAULT_RECOGNIZER_TIMEOUTS: RecognizerTimeouts = { connectMs: 5_000, finishMs: 5_000 };

/** Little-endian bytes of 16-bit samples (what both protocols send as binary frames). */
export const pcmBytes = (samples: Int16Array): Buffer => {
  const buf = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i++) buf.writeInt16LE(samples[i], i * 2);
  return buf;
};
