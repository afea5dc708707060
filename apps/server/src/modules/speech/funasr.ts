import type { Recognizer, RecognizerSessionOptions, RecognizerTimeouts } from './recognizer';
import { DEFAULT_RECOGNIZER_TIMEOUTS, RecognizerError } from './recognizer';
import { WsRecognizerSession } from './ws-session';

// FunASR runtime (self-hosted, github.com/modelscope/FunASR runtime/docs/websocket_protocol.md):
// a JSON text message {mode, wav_name, wav_format: "pcm", audio_fs, is_speaking: true,
// chunk_size, hotwords?, itn}, then binary 16-bit PCM, then {is_speaking: false}. The server
// answers JSON {mode, wav_name, text, is_final, timestamp?}: in 2pass mode "2pass-online" pieces
// (each a few characters, not the whole sentence) while the customer speaks and "2pass-offline"
// with the corrected sentence at each of the server's VAD end points; `is_final` only comes after
// the client's {is_speaking: false} (it marks the end of the exchange, not of a sentence).

export type FunasrMode = 'online' | 'offline' | '2pass';

export type FunasrOptions = {
  /** ws://host:10095 (or wss://) */
  url: string;
  mode?: FunasrMode;
  /** FunASR's chunk_size: [5, 10, 5] = 600 ms chunks, 300 ms look-ahead */
  chunkSize?: [number, number, number];
  /** inverse text normalisation (二十 → 20) */
  itn?: boolean;
  timeouts?: RecognizerTimeouts;
};

type FunasrResult = { mode?: string; text?: string; is_final?: boolean; wav_name?: string };

class FunasrSession extends WsRecognizerSession {
  protected readonly waitsForStart = false;
  /** 2pass-online pieces since the last sentence end */
  private online = '';

  constructor(
    private readonly o: Required<Omit<FunasrOptions, 'timeouts'>>,
    options: RecognizerSessionOptions,
    timeouts: RecognizerTimeouts,
  ) {
    super(options, timeouts);
    this.closeEndsFinish = true;
  }

  protected target() {
    return { url: this.o.url };
  }

  protected startMessage() {
    const hotwords = this.options.hotwords?.filter(Boolean) ?? [];
    return JSON.stringify({
      mode: this.o.mode,
      wav_name: this.options.name ?? 'call',
      wav_format: 'pcm',
      audio_fs: this.options.sampleRate,
      is_speaking: true,
      chunk_size: this.o.chunkSize,
      // FunASR takes hotwords as a JSON string of word → weight
      ...(hotwords.length > 0 ? { hotwords: JSON.stringify(Object.fromEntries(hotwords.map((w) => [w, 20]))) } : {}),
      itn: this.o.itn,
    });
  }

  protected stopMessage() {
    return JSON.stringify({ is_speaking: false });
  }

  protected handle(message: string) {
    const r = JSON.parse(message) as FunasrResult;
    if (typeof r !== 'object' || r === null || (r.text !== undefined && typeof r.text !== 'string')) {
      throw new Error('not a FunASR result');
    }
    const text = (r.text ?? '').trim();
    const mode = r.mode ?? this.o.mode;
    if (mode === '2pass-online' || mode === 'online') {
      // online mode alone has no sentence ends: its pieces are partials until the end of audio
      this.online += text;
      if (text) this.emit({ type: 'partial', text: this.online });
      if (r.is_final) {
        if (mode === 'online' && this.online) this.emit({ type: 'final', text: this.online });
        this.online = '';
        this.complete();
      }
      return;
    }
    // 2pass-offline / offline: a corrected sentence
    this.online = '';
    if (text) this.emit({ type: 'final', text });
    if (r.is_final || (this.isOver && mode === 'offline')) this.complete();
  }
}

/** A recognizer on a FunASR runtime server (funasr-runtime-sdk-online, 2pass by default). */
export const funasrRecognizer = (o: FunasrOptions): Recognizer => {
  const settings = { url: o.url, mode: o.mode ?? '2pass', chunkSize: o.chunkSize ?? [5, 10, 5], itn: o.itn ?? true } as const;
  const timeouts = o.timeouts ?? DEFAULT_RECOGNIZER_TIMEOUTS;
  return {
    provider: 'funasr',
    open: async (options) => {
      if (!/^wss?:\/\//.test(o.url)) throw new RecognizerError('connect', 'FunASR address must start with ws:// or wss://');
      const session = new FunasrSession({ ...settings, chunkSize: [...settings.chunkSize] }, options, timeouts);
      await session.start();
      return session;
    },
  };
};
