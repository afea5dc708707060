import { LIMITS } from '@crm/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withChunkTimeout } from './chunkLoad';

describe('chunk-load timeout (SPEC §9, issue 23)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is 120 s', () => {
    expect(LIMITS.chunkLoadTimeoutMs).toBe(120_000);
  });

  it('fails a page whose chunk has not arrived after 120 s, with a message the error boundary reads as a chunk failure', async () => {
    const load = withChunkTimeout(() => new Promise<never>(() => {}));
    let isSettled = false;
    const result = load().catch((e: Error) => e);
    void result.then(() => {
      isSettled = true;
    });
    await vi.advanceTimersByTimeAsync(119_999);
    expect(isSettled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = (await result) as Error;
    expect(err.message).toMatch(/^Loading chunk/);
  });

  it('passes a chunk that arrives in time, and its own failure', async () => {
    await expect(withChunkTimeout(async () => 'page')()).resolves.toBe('page');
    await expect(withChunkTimeout(async () => Promise.reject(new Error('dynamically imported module')))()).rejects.toThrow(
      'dynamically imported module',
    );
  });
});
