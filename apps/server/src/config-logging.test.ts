import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

/** Issue 23: a newcomer's `npm start` printed two info lines for every request; they are for production logs. */
describe('LOG_REQUESTS', () => {
  it('is off by default outside production and on in production', () => {
    expect(loadConfig({}).logRequests).toBe(false);
    expect(loadConfig({ NODE_ENV: 'test' }).logRequests).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).logRequests).toBe(true);
  });

  it('follows an explicit 0 or 1 and refuses anything else', () => {
    expect(loadConfig({ LOG_REQUESTS: '1' }).logRequests).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', LOG_REQUESTS: '0' }).logRequests).toBe(false);
    expect(() => loadConfig({ LOG_REQUESTS: 'yes' })).toThrow(/LOG_REQUESTS/);
  });
});
