import { describe, expect, it } from 'vitest';
import { findSpeech, SpeechError } from './tts';

// telephony/tts.ts: the default engine is the npm WASM build of espeak-ng (no Debian package);
// Debian's binary is an option, injected here, so both paths run on any machine.

const peak = (samples: Int16Array) => samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0);

describe('speech for prompts', () => {
  it('speaks Mandarin with the npm espeak-ng (WASM) alone, as 8 kHz samples', async () => {
    const speech = await findSpeech({ engine: 'wasm', espeakBin: '/nonexistent/espeak-ng' });
    expect(speech).toMatchObject({ isAvailable: true, engine: 'espeak-wasm', voice: 'cmn', missing: '' });
    // a text starting with '-' is text, not an option (it goes through a file)
    const samples = await speech.synthesize('-您好，这是线路测试');
    expect(samples.length / 8000).toBeGreaterThan(1);
    expect(samples.length / 8000).toBeLessThan(10);
    expect(peak(samples)).toBeGreaterThan(3000);
    // one worker, texts queued: several at once all come back
    const many = await Promise.all(['一', '二', '三'].map((t) => speech.synthesize(`第${t}句`)));
    for (const s of many) expect(s.length).toBeGreaterThan(800);
  });

  it('with SPEECH_TTS=espeak, is unavailable when the binary is missing, and says which', async () => {
    const speech = await findSpeech({ engine: 'binary', espeakBin: '/nonexistent/espeak-ng' });
    expect(speech).toMatchObject({ isAvailable: false, missing: '/nonexistent/espeak-ng' });
    await expect(speech.synthesize('您好')).rejects.toMatchObject({ reason: 'unavailable' });
  });

  it('fails cleanly when the binary gives no audio', async () => {
    // `true` answers --version but writes nothing
    const speech = await findSpeech({ engine: 'binary', espeakBin: 'true' });
    const err = await speech.synthesize('您好').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpeechError);
    expect(err).toMatchObject({ reason: 'failed' });
  });

  it("synthesizes with Debian's espeak-ng, resampled in JS (when installed)", async () => {
    const speech = await findSpeech({ engine: 'binary', espeakBin: 'espeak-ng' });
    if (!speech.isAvailable) return;
    expect(speech).toMatchObject({ engine: 'espeak', voice: 'cmn-latn-pinyin' });
    const samples = await speech.synthesize('-您好，这是线路测试');
    expect(samples.length / 8000).toBeGreaterThan(1);
    expect(samples.length / 8000).toBeLessThan(10);
    expect(peak(samples)).toBeGreaterThan(3000);
  });
});
