import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

/** Issue 25: who may read GET /metrics besides loopback. */
describe('METRICS_TOKEN and METRICS_ALLOW', () => {
  it('default to no token and no network beyond loopback', () => {
    expect(loadConfig({}).metrics).toEqual({ token: '', allow: [] });
  });

  it('take a token of 16 characters or more and a list of addresses and CIDRs', () => {
    const c = loadConfig({ METRICS_TOKEN: 'a'.repeat(16), METRICS_ALLOW: '10.0.0.0/8, 192.168.1.5,2001:db8::/32' });
    expect(c.metrics).toEqual({ token: 'a'.repeat(16), allow: ['10.0.0.0/8', '192.168.1.5', '2001:db8::/32'] });
  });

  it('refuse to boot on a short token or a bad network', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.1/8/1', 'loopback', '::1/129']) {
      expect(() => loadConfig({ METRICS_ALLOW: bad }), bad).toThrow(/METRICS_ALLOW/);
    }
  });
});
