import { LIMITS } from '@crm/contracts';

/** The message of a chunk that did not arrive in time; it names a chunk, so ErrorBoundary says 页面资源加载失败. */
export const CHUNK_TIMEOUT_MESSAGE = 'Loading chunk timed out';

/**
 * SPEC §9 chunk-load timeout (120 s): a lazily loaded page whose JS has not arrived by then fails,
 * so the error boundary offers a reload instead of a loading page that never ends.
 */
export const withChunkTimeout =
  <T>(load: () => Promise<T>, ms: number = LIMITS.chunkLoadTimeoutMs) =>
  (): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${CHUNK_TIMEOUT_MESSAGE} (${ms / 1000} s)`)), ms);
      load().then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err);
        },
      );
    });
