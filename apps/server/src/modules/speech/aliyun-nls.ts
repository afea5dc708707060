import { randomBytes } from 'node:crypto';
import type { Recognizer, RecognizerSessionOptions, RecognizerTimeouts } from './recognizer';
import { DEFAULT_RECOGNIZER_TIMEOUTS, RecognizerError } from './recognizer';
import { WsRecognizerSession } from './ws-session';

// Alibaba Cloud 智能语音交互, 实时语音识别 over WebSocket (help.aliyun.com/zh/isi, "WebSocket协议说明"):
// wss://nls-gateway-cn-shanghai.aliyuncs.com/ws/v1?token=<token>. Commands and events are JSON
// text frames {header: {message_id, task_id, namespace: "SpeechTranscriber", name, appkey,
// status?, status_message?}, payload}: the client sends StartTranscription (format pcm,
// sample_rate, intermediate results on), waits for TranscriptionStarted, streams binary PCM
// (1,600 or 3,200 bytes a frame), then StopTranscription; the service sends SentenceBegin,
// TranscriptionResultChanged (payload.result: the sentence so far), SentenceEnd (the sentence),
// TranscriptionCompleted after the stop, and TaskFailed (header.status ≠ 20000000) on errors.
// message_id and task_id are 32 hex characters.

export type AliyunNlsOptions = {
  /** the gateway, e.g. wss://nls-gateway-cn-shanghai.aliyuncs.com/ws/v1 */
  url: string;
  /** the project's Appkey (智能语音交互控制台) */
  appkey: string;
  /** the access token (CreateToken), sent as ?token= */
  token: () => Promise<string> | string;
  /** the service's sentence-end silence, 200–2000 ms */
  maxSentenceSilenceMs?: number;
  timeouts?: RecognizerTimeouts;
};

const OK = 20_000_000;
const hex32 = () => randomBytes(16).toString('hex');

type NlsMessage = {
  header?: { name?: string; status?: number; status_message?: string; status_text?: string; task_id?: string };
  payload?: { result?: string; index?: number };
};

class AliyunSession extends WsRecognizerSession {
  protected readonly waitsForStart = true;
  private readonly taskId = hex32();

  constructor(
    private readonly o: { url: string; appkey: string; token: string; silenceMs: number },
    options: RecognizerSessionOptions,
    timeouts: RecognizerTimeouts,
  ) {
    super(options, timeouts);
  }

  protected target() {
    const u = new URL(this.o.url);
    u.searchParams.set('token', this.o.token);
    return { url: u.toString() };
  }

  private command(name: string, payload?: object) {
    const header = { message_id: hex32(), task_id: this.taskId, namespace: 'SpeechTranscriber', name, appkey: this.o.appkey };
    return JSON.stringify(payload ? { header, payload } : { header });
  }

  protected startMessage() {
    return this.command('StartTranscription', {
      format: 'pcm',
      sample_rate: this.options.sampleRate,
      enable_intermediate_result: true,
      enable_punctuation_prediction: true,
      enable_inverse_text_normalization: true,
      max_sentence_silence: this.o.silenceMs,
    });
  }

  protected stopMessage() {
    return this.command('StopTranscription');
  }

  protected handle(message: string) {
    const m = JSON.parse(message) as NlsMessage;
    const h = m?.header;
    if (!h || typeof h.name !== 'string') throw new Error('no header');
    if (h.name === 'TaskFailed' || (h.status !== undefined && h.status !== OK)) {
      const why = h.status_message ?? h.status_text ?? '';
      this.fail(new RecognizerError('service', `阿里云语音识别失败（${h.status ?? '?'}）${why}`));
      return;
    }
    const text = typeof m.payload?.result === 'string' ? m.payload.result.trim() : '';
    switch (h.name) {
      case 'TranscriptionStarted':
        return this.started();
      case 'TranscriptionResultChanged':
        if (text) this.emit({ type: 'partial', text });
        return;
      case 'SentenceEnd':
        if (text) this.emit({ type: 'final', text });
        return;
      case 'TranscriptionCompleted':
        return this.complete();
      default:
        return; // SentenceBegin and later additions
    }
  }
}

/** A recognizer on Alibaba Cloud real-time speech recognition (SpeechTranscriber). */
export const aliyunNlsRecognizer = (o: AliyunNlsOptions): Recognizer => ({
  provider: 'aliyun',
  open: async (options) => {
    if (!/^wss?:\/\//.test(o.url)) throw new RecognizerError('connect', 'Aliyun NLS address must start with ws:// or wss://');
    if (!o.appkey) throw new RecognizerError('connect', 'Aliyun NLS appkey is not set');
    let token: string;
    try {
      token = await o.token();
    } catch (err) {
      throw new RecognizerError('connect', `Aliyun NLS token: ${(err as Error).message}`);
    }
    const silenceMs = Math.min(2000, Math.max(200, o.maxSentenceSilenceMs ?? 800));
    const session = new AliyunSession(
      { url: o.url, appkey: o.appkey, token, silenceMs },
      options,
      o.timeouts ?? DEFAULT_RECOGNIZER_TIMEOUTS,
    );
    await session.start();
    return session;
  },
});
