import { describe, expect, it } from 'vitest';
import { loadConfig, parseTrustProxy } from './config';

/** Issue 11 hole 4: X-Forwarded-For is believed only when TRUST_PROXY says so. */
describe('TRUST_PROXY', () => {
  it('is off by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('accepts true, a hop count and a list of addresses, CIDRs or named ranges', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    const hops = parseTrustProxy('2');
    expect(typeof hops).toBe('function');
    const trusts = hops as (address: string, hop: number) => boolean;
    expect([trusts('10.0.0.1', 0), trusts('10.0.0.1', 1), trusts('10.0.0.1', 2)]).toEqual([true, true, false]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'loopback',
    ]);
  });

  it('refuses to boot on anything else', () => {
    for (const bad of ['yes', '10.0.0.300', '10.0.0.0/33', 'proxy.example.com', '1.2.3.4/8/9']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY/);
    }
  });
});
