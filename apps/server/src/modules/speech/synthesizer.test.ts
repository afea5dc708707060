import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findSpeech } from '../../telephony/tts';
import { createSynthesizer, espeakProvider, httpProvider, type SynthesisProvider } from './synthesizer';
import { encodeWav, readWav } from './wav';

const dirs: string[] = [];
const tmpDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'synth-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** a provider that counts its runs and answers 100 ms of audio per character after `delayMs` */
const countingProvider = (delayMs = 20, fail = false) => {
  const texts: string[] = [];
  const provider: SynthesisProvider = {
    name: 'fake',
    voice: 'v1',
    isAvailable: true,
    render: async (text) => {
      texts.push(text);
      await new Promise((r) => setTimeout(r, delayMs));
      if (fail) throw new Error('boom');
      return new Int16Array(Array.from(text).length * 800).fill(1000);
    },
  };
  return { provider, texts };
};

describe('synthesizer cache', () => {
  it('renders once, then answers from the disk cache with the same file and duration', async () => {
    const { provider, texts } = countingProvider();
    const synth = createSynthesizer(provider, tmpDir());
    const first = await synth.synthesize('您好');
    expect(first).toMatchObject({ durationMs: 200, isCached: false });
    const back = await readWav(first.file);
    expect(back?.sampleRate).toBe(8000);
    expect(back?.samples.length).toBe(1600);
    const second = await synth.synthesize('  您好 ');
    expect(second).toEqual({ file: first.file, durationMs: 200, isCached: true });
    expect(texts).toEqual(['您好']);
    // another synthesizer on the same directory (a restart) finds it too
    const again = await createSynthesizer(
      countingProvider().provider,
      path.dirname(path.dirname(path.dirname(first.file))),
    ).synthesize('您好');
    expect(again.isCached).toBe(true);
  });

  it('runs the provider once for concurrent requests of one text', async () => {
    const { provider, texts } = countingProvider(50);
    const synth = createSynthesizer(provider, tmpDir());
    const results = await Promise.all(Array.from({ length: 5 }, () => synth.synthesize('请问您方便吗')));
    expect(texts).toHaveLength(1);
    expect(new Set(results.map((r) => r.file)).size).toBe(1);
  });

  it('keys by provider, voice and text', async () => {
    const dir = tmpDir();
    const a = countingProvider();
    const b = { ...countingProvider(), provider: { ...countingProvider().provider, voice: 'v2' } };
    const one = await createSynthesizer(a.provider, dir).synthesize('您好');
    const other = await createSynthesizer(b.provider, dir).synthesize('您好');
    const third = await createSynthesizer(a.provider, dir).synthesize('再见');
    expect(new Set([one.file, other.file, third.file]).size).toBe(3);
  });

  it('caches no failure: the next request runs the provider again', async () => {
    const failing = countingProvider(5, true);
    const synth = createSynthesizer(failing.provider, tmpDir());
    await expect(synth.synthesize('您好')).rejects.toThrow('boom');
    await expect(synth.synthesize('您好')).rejects.toThrow('boom');
    expect(failing.texts).toHaveLength(2);
  });

  it('cleans the text before the provider sees it, and refuses empty text without running it', async () => {
    const { provider, texts } = countingProvider();
    const synth = createSynthesizer(provider, tmpDir());
    await synth.synthesize('电话13800001111');
    expect(texts).toEqual(['电话幺三八零零零零幺幺幺幺']);
    await expect(synth.synthesize('  ')).rejects.toMatchObject({ reason: 'empty' });
    expect(texts).toHaveLength(1);
  });
});

describe('espeak-ng provider', () => {
  it('says Mandarin as an 8 kHz mono WAV with the npm WASM build, and the second call does not run espeak', async () => {
    const speech = await findSpeech({ engine: 'wasm', espeakBin: '/nonexistent/espeak-ng' });
    expect(speech.isAvailable).toBe(true);
    let runs = 0;
    const counted = {
      ...speech,
      synthesize: (t: string) => {
        runs++;
        return speech.synthesize(t);
      },
    };
    const synth = createSynthesizer(espeakProvider(counted), tmpDir());
    expect(synth).toMatchObject({ provider: 'espeak-wasm', voice: 'cmn', isAvailable: true });
    const r = await synth.synthesize('您好，这里是云呼科技，价格1200元');
    expect(r.durationMs).toBeGreaterThan(1500);
    const wav = await readWav(r.file);
    expect(wav?.sampleRate).toBe(8000);
    expect(wav?.samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0)).toBeGreaterThan(3000);
    expect((await synth.synthesize('您好，这里是云呼科技，价格1200元')).isCached).toBe(true);
    expect(runs).toBe(1);
  });

  it("is unavailable when Debian's binary is chosen (SPEECH_TTS=espeak) and missing", async () => {
    const speech = await findSpeech({ engine: 'binary', espeakBin: '/nonexistent/espeak-ng' });
    const synth = createSynthesizer(espeakProvider(speech), tmpDir());
    expect(synth.isAvailable).toBe(false);
    await expect(synth.synthesize('您好')).rejects.toMatchObject({ reason: 'unavailable' });
  });
});

describe('HTTP TTS provider (a local server standing in for the operator’s TTS gateway)', () => {
  let server: http.Server | undefined;
  afterEach(() => server?.close());

  const serve = async (handler: http.RequestListener) => {
    server = http.createServer(handler);
    await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/tts`;
  };

  it('posts the text with the key and takes an 8 kHz WAV as it is', async () => {
    let seen: { auth?: string; body?: unknown } = {};
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen = { auth: req.headers.authorization, body: JSON.parse(body) };
        res.setHeader('content-type', 'audio/wav');
        res.end(encodeWav(new Int16Array(4000).fill(700), 8000));
      });
    });
    const synth = createSynthesizer(httpProvider({ url, key: 'sk-1', voice: 'xiaoyun' }), tmpDir());
    const r = await synth.synthesize('您好');
    expect(seen).toEqual({ auth: 'Bearer sk-1', body: { text: '您好', voice: 'xiaoyun', format: 'wav', sample_rate: 8000 } });
    expect(r).toMatchObject({ durationMs: 500, isCached: false });
  });

  it('converts a 16 kHz answer to 8 kHz in JS', async () => {
    const url = await serve((_req, res) => {
      const tone = Int16Array.from({ length: 16000 }, (_v, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000)));
      res.end(encodeWav(tone, 16000));
    });
    const r = await createSynthesizer(httpProvider({ url, key: '', voice: 'v' }), tmpDir()).synthesize('您好');
    expect(r.durationMs).toBe(1000);
    expect((await readWav(r.file))?.sampleRate).toBe(8000);
  });

  it('fails on an error status, on audio it cannot read, and on a timeout', async () => {
    const url = await serve((req, res) => {
      if (req.headers.authorization === 'Bearer bad') {
        res.statusCode = 401;
        return res.end('{}');
      }
      if (req.headers.authorization === 'Bearer slow') return void setTimeout(() => res.end(), 500);
      res.end('not audio');
    });
    const make = (key: string) => createSynthesizer(httpProvider({ url, key, voice: 'v', timeoutMs: 100 }), tmpDir());
    await expect(make('bad').synthesize('您好')).rejects.toMatchObject({
      reason: 'failed',
      message: expect.stringContaining('401'),
    });
    await expect(make('ok').synthesize('您好')).rejects.toMatchObject({
      reason: 'failed',
      message: expect.stringContaining('unreadable'),
    });
    await expect(make('slow').synthesize('您好')).rejects.toMatchObject({ reason: 'failed' });
    expect(httpProvider({ url: '', key: '', voice: 'v' }).isAvailable).toBe(false);
  });
});
