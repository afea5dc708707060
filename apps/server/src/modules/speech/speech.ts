import path from 'node:path';
import type { Config } from '../../config';
import { AppError } from '../../lib/app-error';
import { findSpeech } from '../../telephony/tts';
import { aliyunNlsRecognizer } from './aliyun-nls';
import { aliyunTokenSource } from './aliyun-token';
import { funasrRecognizer } from './funasr';
import { createPromptAudio, PromptAudioError } from './prompt-audio';
import { type Recognizer, RecognizerError } from './recognizer';
import { SpeechTextError } from './speech-text';
import { createSynthesizer, espeakProvider, httpProvider, SynthesisError, type Synthesizer } from './synthesizer';
import { DEFAULT_VAD, type VadOptions } from './vad';

// The speech kit of one app instance, from SPEECH_* (config.ts): the synthesizer (cache under
// DATA_DIR/speech-cache), prompt audio (recordings or synthesis), the recognizer when one is
// configured, and the voice-activity settings. Built once at start (the synthesizer is tried then).

export type SpeechKit = {
  synthesizer: Synthesizer;
  promptAudio: ReturnType<typeof createPromptAudio>;
  /** undefined: SPEECH_ASR=none, the bot runs on digits and silence */
  recognizer: Recognizer | undefined;
  vad: VadOptions;
};

export const speechCacheDir = (dataDir: string) => path.join(dataDir, 'speech-cache');

export const createSpeech = async (config: Pick<Config, 'dataDir' | 'tts' | 'speech'>): Promise<SpeechKit> => {
  const s = config.speech;
  const cacheDir = speechCacheDir(config.dataDir);
  const provider =
    s.tts.provider === 'http'
      ? httpProvider({ url: s.tts.url, key: s.tts.key, voice: s.tts.voice || 'default' })
      : espeakProvider(await findSpeech(config.tts));
  const synthesizer = createSynthesizer(provider, cacheDir);
  const recognizer =
    s.asr.provider === 'funasr'
      ? funasrRecognizer({ url: s.asr.url })
      : s.asr.provider === 'aliyun'
        ? aliyunNlsRecognizer({
            url: s.asr.url,
            appkey: s.asr.appkey,
            // an AccessKey wins: its tokens are renewed; a fixed token works until it expires
            token:
              s.asr.accessKeyId && s.asr.accessKeySecret
                ? aliyunTokenSource({ accessKeyId: s.asr.accessKeyId, accessKeySecret: s.asr.accessKeySecret })
                : () => s.asr.token,
          })
        : undefined;
  return {
    synthesizer,
    promptAudio: createPromptAudio({ synthesizer, cacheDir, ffmpegBin: config.tts.ffmpegBin }),
    recognizer,
    vad: { ...DEFAULT_VAD, endSilenceMs: s.endSilenceMs },
  };
};

/** A speech failure as the error a route answers with (116030–116036); other errors pass through. */
export const speechAppError = (err: unknown): unknown => {
  if (err instanceof SpeechTextError) {
    return err.reason === 'empty' ? new AppError('SPEECH_TEXT_EMPTY') : new AppError('SPEECH_TEXT_TOO_LONG', err.message);
  }
  if (err instanceof SynthesisError)
    return new AppError(err.reason === 'unavailable' ? 'SPEECH_TTS_UNAVAILABLE' : 'SPEECH_TTS_FAILED');
  if (err instanceof PromptAudioError) return new AppError('SPEECH_RECORDING_UNUSABLE');
  if (err instanceof RecognizerError) return new AppError('SPEECH_ASR_FAILED');
  return err;
};

/** The configured recognizer, or SPEECH_ASR_UNAVAILABLE (116035) for a feature that needs one. */
export const requireRecognizer = (kit: SpeechKit): Recognizer => {
  if (!kit.recognizer) throw new AppError('SPEECH_ASR_UNAVAILABLE');
  return kit.recognizer;
};
