import { describe, expect, it } from 'vitest';
import { findSpeech, SpeechError } from './tts';

// telephony/tts.ts: the binaries are injected, so both paths run on any machine.

describe('speech for prompts', () => {
  it('is unavailable when a binary is missing, and says which', async () => {
    const speech = await findSpeech({ espeakBin: '/nonexistent/espeak-ng', soxBin: '/nonexistent/sox' });
    expect(speech).toMatchObject({ isAvailable: false, missing: '/nonexistent/espeak-ng, /nonexistent/sox' });
    await expect(speech.synthesize('您好')).rejects.toMatchObject({ reason: 'unavailable' });
  });

  it('fails cleanly when the synthesizer gives no audio', async () => {
    // `true` answers --version but writes nothing: sox gets no WAV
    const speech = await findSpeech({ espeakBin: 'true', soxBin: 'sox' });
    if (!speech.isAvailable) return; // no sox here: the path above covers it
    const err = await speech.synthesize('您好').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpeechError);
    expect(err).toMatchObject({ reason: 'failed' });
  });

  it('synthesizes Mandarin to 8 kHz samples with espeak-ng and sox (when installed)', async () => {
    const speech = await findSpeech({ espeakBin: 'espeak-ng', soxBin: 'sox' });
    if (!speech.isAvailable) return;
    // a text starting with '-' is text, not an option (it goes on stdin)
    const samples = await speech.synthesize('-您好，这是线路测试');
    expect(samples.length / 8000).toBeGreaterThan(1);
    expect(samples.length / 8000).toBeLessThan(10);
    expect(samples.reduce((m, s) => Math.max(m, Math.abs(s)), 0)).toBeGreaterThan(3000);
  });
});
