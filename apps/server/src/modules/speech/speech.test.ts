import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { PromptAudioError } from './prompt-audio';
import { RecognizerError } from './recognizer';
import { createSpeech, requireRecognizer, speechAppError } from './speech';
import { SpeechTextError } from './speech-text';
import { SynthesisError } from './synthesizer';

const config = (env: Record<string, string>) => loadConfig({ DATA_DIR: os.tmpdir(), ...env });

describe('speech settings (SPEECH_*)', () => {
  it('defaults to the npm espeak-ng (WASM), no recognizer, 600 ms end of turn', async () => {
    const c = config({});
    expect(c.speech).toEqual({
      tts: { provider: 'espeak-wasm', url: '', key: '', voice: '' },
      asr: { provider: 'none', url: '', appkey: '', accessKeyId: '', accessKeySecret: '', token: '' },
      endSilenceMs: 600,
    });
    const kit = await createSpeech(c);
    expect(c.tts).toMatchObject({ engine: 'wasm' });
    expect(kit.synthesizer).toMatchObject({ provider: 'espeak-wasm', voice: 'cmn', isAvailable: true });
    // Debian's binary stays an option
    expect(config({ SPEECH_TTS: 'espeak', TTS_ESPEAK_BIN: '/usr/bin/espeak-ng' }).tts).toMatchObject({
      engine: 'binary',
      espeakBin: '/usr/bin/espeak-ng',
    });
    expect(kit.recognizer).toBeUndefined();
    expect(kit.vad.endSilenceMs).toBe(600);
    expect(() => requireRecognizer(kit)).toThrow(expect.objectContaining({ code: 116035 }));
  });

  it('builds the HTTP TTS, FunASR and Alibaba Cloud adapters from their settings', async () => {
    const http = await createSpeech(
      config({ SPEECH_TTS: 'http', SPEECH_TTS_URL: 'https://tts.example/v1', SPEECH_TTS_VOICE: 'xiaoyun' }),
    );
    expect(http.synthesizer).toMatchObject({ provider: 'http', voice: 'xiaoyun', isAvailable: true });
    const funasr = await createSpeech(
      config({ SPEECH_ASR: 'funasr', SPEECH_ASR_URL: 'ws://10.0.0.5:10095', SPEECH_END_SILENCE_MS: '800' }),
    );
    expect(requireRecognizer(funasr).provider).toBe('funasr');
    expect(funasr.vad.endSilenceMs).toBe(800);
    const ali = await createSpeech(
      config({
        SPEECH_ASR: 'aliyun',
        SPEECH_ASR_URL: 'wss://nls-gateway-cn-shanghai.aliyuncs.com/ws/v1',
        SPEECH_ASR_APPKEY: 'k',
        SPEECH_ASR_TOKEN: 't',
      }),
    );
    expect(ali.recognizer?.provider).toBe('aliyun');
    const withKey = config({
      SPEECH_ASR: 'aliyun',
      SPEECH_ASR_URL: 'wss://nls-gateway-cn-shanghai.aliyuncs.com/ws/v1',
      SPEECH_ASR_APPKEY: 'k',
      SPEECH_ASR_AK_ID: 'LTAI',
      SPEECH_ASR_AK_SECRET: 's',
    });
    expect(withKey.speech.asr).toMatchObject({ accessKeyId: 'LTAI', accessKeySecret: 's', token: '' });
    expect((await createSpeech(withKey)).recognizer?.provider).toBe('aliyun');
  });

  it('refuses to boot on incomplete or wrong settings, and takes the end-of-turn edges', () => {
    expect(() => config({ SPEECH_TTS: 'http' })).toThrow('SPEECH_TTS_URL');
    expect(() => config({ SPEECH_TTS: 'http', SPEECH_TTS_URL: 'ftp://x' })).toThrow('http://');
    expect(() => config({ SPEECH_ASR: 'funasr' })).toThrow('SPEECH_ASR_URL');
    expect(() => config({ SPEECH_ASR: 'funasr', SPEECH_ASR_URL: 'http://x' })).toThrow('ws://');
    expect(() => config({ SPEECH_ASR: 'aliyun', SPEECH_ASR_URL: 'wss://x/ws/v1', SPEECH_ASR_APPKEY: 'k' })).toThrow(
      'SPEECH_ASR_AK_ID',
    );
    // half an AccessKey is not one
    expect(() =>
      config({ SPEECH_ASR: 'aliyun', SPEECH_ASR_URL: 'wss://x/ws/v1', SPEECH_ASR_APPKEY: 'k', SPEECH_ASR_AK_ID: 'a' }),
    ).toThrow('SPEECH_ASR_AK_SECRET');
    expect(() => config({ SPEECH_ASR: 'aliyun', SPEECH_ASR_URL: 'wss://x/ws/v1', SPEECH_ASR_TOKEN: 't' })).toThrow(
      'SPEECH_ASR_APPKEY',
    );
    expect(() => config({ SPEECH_ASR: 'whisper' })).toThrow('SPEECH_ASR');
    expect(config({ SPEECH_END_SILENCE_MS: '200' }).speech.endSilenceMs).toBe(200);
    expect(() => config({ SPEECH_END_SILENCE_MS: '199' })).toThrow();
    expect(config({ SPEECH_END_SILENCE_MS: '3000' }).speech.endSilenceMs).toBe(3000);
    expect(() => config({ SPEECH_END_SILENCE_MS: '3001' })).toThrow();
  });
});

describe('speech errors as API errors', () => {
  it('maps each failure to its code and Chinese message', () => {
    expect(speechAppError(new SpeechTextError('empty', 'x'))).toMatchObject({
      code: 116030,
      status: 400,
      message: '播报内容为空',
    });
    expect(speechAppError(new SpeechTextError('too-long', '播报内容过长（最多600个字）'))).toMatchObject({
      code: 116031,
      message: '播报内容过长（最多600个字）',
    });
    expect(speechAppError(new SynthesisError('unavailable', 'x'))).toMatchObject({ code: 116032, status: 503 });
    expect(speechAppError(new SynthesisError('failed', 'x'))).toMatchObject({ code: 116033 });
    expect(speechAppError(new PromptAudioError('x'))).toMatchObject({ code: 116034, status: 400 });
    expect(speechAppError(new RecognizerError('timeout', 'x'))).toMatchObject({ code: 116036 });
    const other = new Error('other');
    expect(speechAppError(other)).toBe(other);
  });
});
