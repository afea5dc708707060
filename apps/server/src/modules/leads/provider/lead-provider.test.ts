import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidCreditCode } from '../credit-code';
import { capitalWanOf, ProviderError, providerDetails, providerSearch, statusOf } from './lead-provider';
import { type ProviderTestDouble, startProviderTestDouble } from './provider-test-double';
import { ProviderLimiter } from './rate-limit';

let double: ProviderTestDouble;
const creds = () => ({ url: double.url, key: 'key-a', secret: 'secret-a' });

beforeAll(async () => {
  double = await startProviderTestDouble({ keys: { 'key-a': 'secret-a', 'key-b': 'secret-b' }, qps: 5 });
});
afterAll(async () => {
  await double.close();
});

describe('the provider adapter against its test double', () => {
  it('fuzzy search answers well-formed companies carrying the word; details add capital, phones and WGS-84 coordinates', async () => {
    const limiter = new ProviderLimiter(50, 100);
    const hits = await providerSearch(limiter, 1, creds(), '华信');
    expect(hits.length).toBeGreaterThanOrEqual(3);
    for (const h of hits) {
      expect(h.name).toContain('华信');
      expect(isValidCreditCode(h.creditCode)).toBe(true);
      expect([1, 2, 3]).toContain(h.status);
    }
    const detail = await providerDetails(limiter, 1, creds(), (hits[0] as (typeof hits)[number]).creditCode);
    expect(detail?.name).toBe(hits[0]?.name);
    expect(detail?.capitalWan).toBeGreaterThan(0);
    expect(detail?.industryCode).toMatch(/^\d{2}$/);
    expect(detail?.lat).not.toBeNull();
  });

  it('the same query gives the same companies (deterministic double)', async () => {
    const limiter = new ProviderLimiter(50, 100);
    const a = await providerSearch(limiter, 1, creds(), '腾达物流');
    const b = await providerSearch(limiter, 1, creds(), '腾达物流');
    expect(a.map((h) => h.creditCode)).toEqual(b.map((h) => h.creditCode));
  });

  it('a wrong secret is an auth failure, not retried', async () => {
    const before = double.requests.length;
    const err = await providerSearch(new ProviderLimiter(50, 100), 1, { ...creds(), secret: 'wrong' }, '华信').catch((e) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).kind).toBe('auth');
    expect(double.requests.length - before).toBe(1);
  });

  it('an outage is retried, then reported as down', async () => {
    double.setFailing(true);
    const before = double.requests.length;
    try {
      const err = await providerSearch(new ProviderLimiter(50, 100), 1, creds(), '华信').catch((e) => e);
      expect((err as ProviderError).kind).toBe('down');
      expect(double.requests.length - before).toBe(3);
    } finally {
      double.setFailing(false);
    }
  });

  it('concurrent users of one company never push its key past the rate (5 a second)', async () => {
    const limiter = new ProviderLimiter(5 * 0.95, 100);
    const start = double.requests.length;
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        providerSearch(limiter, 7, { ...creds(), key: 'key-b', secret: 'secret-b' }, `并发${i}`),
      ),
    );
    expect(answers.every((a) => a.length > 0)).toBe(true);
    const mine = double.requests.slice(start).filter((r) => r.key === 'key-b');
    expect(mine).toHaveLength(16);
    expect(double.maxPerSecond('key-b')).toBeLessThanOrEqual(5);
    // and the limit did not serialise more than it must: 16 calls at ~4.75/s take about 3 s
    expect((mine.at(-1)?.at ?? 0) - (mine[0]?.at ?? 0)).toBeLessThan(6000);
  }, 30_000);

  it('reads capital and status texts', () => {
    expect(capitalWanOf('100万元人民币')).toBe(100);
    expect(capitalWanOf('1.5亿元人民币')).toBe(15000);
    expect(capitalWanOf('500000元')).toBe(50);
    expect(capitalWanOf('')).toBe(0);
    expect(statusOf('存续（在营、开业、在册）')).toBe(1);
    expect(statusOf('注销')).toBe(2);
    expect(statusOf('吊销，未注销')).toBe(3);
  });
});
