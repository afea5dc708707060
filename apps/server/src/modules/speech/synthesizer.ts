import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type Speech, SpeechError } from '../../telephony/tts';
import { AudioConvertError, convertAudio } from './audio-convert';
import { speechText } from './speech-text';
import { decodeWav, durationMsOf, writeWav } from './wav';

// Prompt synthesis for the voice bot. A provider turns cleaned text into 8 kHz mono samples; the
// Synthesizer around it cleans the text (speech-text.ts), keeps every result as a WAV file in a
// disk cache keyed by provider + voice + text (a repeated prompt never runs the provider again,
// and concurrent requests for one text share one run) and answers with the file and its length.

export type SynthesisResult = {
  /** 8 kHz mono 16-bit PCM WAV */
  file: string;
  durationMs: number;
  /** the file was already in the cache */
  isCached: boolean;
};

export interface Synthesizer {
  readonly provider: string;
  readonly voice: string;
  /** false when the provider cannot run here (binaries missing, no URL): synthesize rejects */
  readonly isAvailable: boolean;
  /** rejects with SpeechTextError (empty, too long) or SynthesisError */
  synthesize(text: string): Promise<SynthesisResult>;
}

/** What a provider implements: cleaned text in, 8 kHz mono samples out. */
export interface SynthesisProvider {
  readonly name: string;
  readonly voice: string;
  readonly isAvailable: boolean;
  render(text: string): Promise<Int16Array>;
}

export class SynthesisError extends Error {
  constructor(
    readonly reason: 'unavailable' | 'failed',
    message: string,
  ) {
    super(message);
  }
}

/** espeak-ng, the npm WASM build (voice cmn, the default) or Debian's binary (cmn-latn-pinyin): telephony/tts.ts. */
export const espeakProvider = (speech: Speech): SynthesisProvider => ({
  name: speech.engine,
  voice: speech.voice,
  isAvailable: speech.isAvailable,
  render: (text) =>
    speech.synthesize(text).catch((err: unknown) => {
      const reason = err instanceof SpeechError ? err.reason : 'failed';
      throw new SynthesisError(reason, err instanceof Error ? err.message : String(err));
    }),
});

export type HttpTtsOptions = { url: string; key: string; voice: string; timeoutMs?: number };

/**
 * A cloud or self-hosted TTS behind one plain HTTP call (docs/ARCHITECTURE.md, 语音): POST `url`
 * with JSON {text, voice, format: "wav", sample_rate: 8000} and `Authorization: Bearer <key>`;
 * the answer's body is the audio: WAV (any rate, PCM/float/G.711) or MP3 (Content-Type audio/mpeg),
 * decoded and resampled to 8 kHz in JS (audio-convert.ts).
 */
export const httpProvider = (o: HttpTtsOptions): SynthesisProvider => ({
  name: 'http',
  voice: o.voice,
  isAvailable: /^https?:\/\//.test(o.url),
  render: async (text) => {
    let res: Response;
    try {
      res = await fetch(o.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(o.key ? { authorization: `Bearer ${o.key}` } : {}) },
        body: JSON.stringify({ text, voice: o.voice, format: 'wav', sample_rate: 8000 }),
        signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new SynthesisError('failed', `tts request failed: ${err instanceof Error ? err.message : err}`);
    }
    if (!res.ok) throw new SynthesisError('failed', `tts service answered ${res.status}`);
    const body = Buffer.from(await res.arrayBuffer());
    const wav = decodeWav(body);
    if (wav && wav.sampleRate === 8000 && wav.samples.length > 0) return wav.samples; // first channel
    const type = /mpeg|mp3/.test(res.headers.get('content-type') ?? '') ? 'mp3' : 'wav';
    try {
      return await convertAudio({}, body, type);
    } catch (err) {
      if (!(err instanceof AudioConvertError)) throw err;
      throw new SynthesisError('failed', `tts audio unreadable: ${err.message}`);
    }
  },
});

export const cacheKey = (provider: string, voice: string, text: string) =>
  createHash('sha256').update(`${provider}\n${voice}\n${text}`).digest('hex');

/** Reads a cached file's length from its size (the cache writes plain 44-byte headers). */
const cachedDuration = async (file: string) => {
  const st = await fs.promises.stat(file).catch(() => undefined);
  return st && st.size > 44 ? durationMsOf((st.size - 44) / 2) : undefined;
};

/** The provider behind a text cleanup and a disk cache under `cacheDir` (DATA_DIR/speech-cache). */
export const createSynthesizer = (provider: SynthesisProvider, cacheDir: string): Synthesizer => {
  const running = new Map<string, Promise<SynthesisResult>>();
  const produce = async (text: string, file: string): Promise<SynthesisResult> => {
    const samples = await provider.render(text);
    await writeWav(file, samples);
    return { file, durationMs: durationMsOf(samples.length), isCached: false };
  };
  return {
    provider: provider.name,
    voice: provider.voice,
    isAvailable: provider.isAvailable,
    synthesize: async (raw) => {
      const text = speechText(raw);
      const key = cacheKey(provider.name, provider.voice, text);
      const file = path.join(cacheDir, provider.name, key.slice(0, 2), `${key}.wav`);
      const durationMs = await cachedDuration(file);
      if (durationMs !== undefined) return { file, durationMs, isCached: true };
      const pending = running.get(key);
      if (pending) return pending;
      const run = produce(text, file).finally(() => running.delete(key));
      running.set(key, run);
      return run;
    },
  };
};
