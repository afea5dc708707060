import { describe, expect, it } from 'vitest';
import { MIC_MESSAGES, micErrorMessage } from './microphone';

describe('micErrorMessage', () => {
  it('maps getUserMedia failures to the SPEC §5 cases', () => {
    expect(micErrorMessage('NotAllowedError')).toBe(MIC_MESSAGES.denied);
    expect(micErrorMessage('NotFoundError')).toBe(MIC_MESSAGES.notFound);
    expect(micErrorMessage('NotReadableError')).toBe(MIC_MESSAGES.cannotOpen);
    expect(micErrorMessage('TypeError')).toBe(MIC_MESSAGES.notSupported);
  });
});
