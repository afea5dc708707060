import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkMicrophone, MIC_MESSAGES, micErrorMessage } from './microphone';

describe('micErrorMessage', () => {
  it('maps getUserMedia failures to the SPEC §5 cases', () => {
    expect(micErrorMessage('NotAllowedError')).toBe(MIC_MESSAGES.denied);
    expect(micErrorMessage('NotFoundError')).toBe(MIC_MESSAGES.notFound);
    expect(micErrorMessage('NotReadableError')).toBe(MIC_MESSAGES.cannotOpen);
    expect(micErrorMessage('TypeError')).toBe(MIC_MESSAGES.notSupported);
  });
});

describe('checkMicrophone', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reports a microphone that never opens instead of hanging, and releases it if it opens late', async () => {
    const stop = vi.fn();
    let answer: (s: unknown) => void = () => undefined;
    vi.stubGlobal('navigator', {
      mediaDevices: { getUserMedia: () => new Promise((resolve) => (answer = resolve)) },
    });
    expect(await checkMicrophone(20)).toBe(MIC_MESSAGES.cannotOpen);
    answer({ getTracks: () => [{ stop }], getAudioTracks: () => [{}] });
    await new Promise((r) => setTimeout(r, 0));
    expect(stop).toHaveBeenCalled();
  });

  it('maps a refusal to its message', async () => {
    vi.stubGlobal('navigator', {
      mediaDevices: { getUserMedia: () => Promise.reject(Object.assign(new Error('no'), { name: 'NotAllowedError' })) },
    });
    expect(await checkMicrophone(1000)).toBe(MIC_MESSAGES.denied);
  });
});
