import type { RatePart } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { billedSeconds, callCost, maxBilledSeconds, maxTalkSeconds, minimumCredit } from './rating';

// How a call is priced (issue 27): each plan shape at its edges. Money in 1/10,000 yuan.
const part = (first: number, inc: number, ppm: number, connect = 0, chargeUnanswered = false): RatePart => ({
  connect_fee: connect,
  first_block: first,
  increment: inc,
  price_per_minute: ppm,
  charge_unanswered: chargeUnanswered,
});

describe('billed seconds', () => {
  it('60/60: 1 s and 60 s bill one minute, 61 s bills two (不足一分钟按一分钟)', () => {
    const p = part(60, 60, 1000);
    expect(billedSeconds(p, 1)).toBe(60);
    expect(billedSeconds(p, 60)).toBe(60);
    expect(billedSeconds(p, 61)).toBe(120);
    expect(billedSeconds(p, 120)).toBe(120);
    expect(billedSeconds(p, 121)).toBe(180);
  });
  it('6/6: 61 s bills 66 s, 60 s bills 60 s, 1 s bills 6 s', () => {
    const p = part(6, 6, 1000);
    expect(billedSeconds(p, 61)).toBe(66);
    expect(billedSeconds(p, 60)).toBe(60);
    expect(billedSeconds(p, 66)).toBe(66);
    expect(billedSeconds(p, 67)).toBe(72);
    expect(billedSeconds(p, 1)).toBe(6);
  });
  it('30/6: 1–30 s bill 30 s, 31 s bills 36 s, 61 s bills 66 s (cgrates #118)', () => {
    const p = part(30, 6, 1000);
    expect(billedSeconds(p, 1)).toBe(30);
    expect(billedSeconds(p, 30)).toBe(30);
    expect(billedSeconds(p, 31)).toBe(36);
    expect(billedSeconds(p, 61)).toBe(66);
  });
  it('an answered call of 0 s bills nothing', () => {
    expect(billedSeconds(part(60, 60, 1000), 0)).toBe(0);
    expect(billedSeconds(part(6, 6, 1000), 0)).toBe(0);
  });
});

describe('call cost', () => {
  it('61 s at 0.10 元/分钟 on 60/60 = 0.20 元; on 6/6 = 0.11 元', () => {
    expect(callCost(part(60, 60, 1000), true, 61)).toEqual({ billed: 120, cost: 2000 });
    expect(callCost(part(6, 6, 1000), true, 61)).toEqual({ billed: 66, cost: 1100 });
  });
  it('a connect fee is added to an answered call, also one of 0 s', () => {
    expect(callCost(part(60, 60, 1000, 300), true, 61)).toEqual({ billed: 120, cost: 2300 });
    expect(callCost(part(60, 60, 1000, 300), true, 0)).toEqual({ billed: 0, cost: 300 });
  });
  it('unanswered: free, or the connect fee when the plan charges unanswered calls', () => {
    expect(callCost(part(60, 60, 1000, 300), false, 0)).toEqual({ billed: 0, cost: 0 });
    expect(callCost(part(60, 60, 1000, 300, true), false, 0)).toEqual({ billed: 0, cost: 300 });
  });
  it('rounds half up on 1/10,000 yuan, never to 0.4980 for 0.50 (ivozprovider #692)', () => {
    // 6 s at 0.0833 元/分钟 = 0.00833 元 = 83.3 units → 83; 66 s at 0.0455 = 500.5 units → 501
    expect(callCost(part(6, 6, 833), true, 6).cost).toBe(83);
    expect(callCost(part(6, 6, 455), true, 66).cost).toBe(501);
    // 5 minutes at 0.10 元 = exactly 0.50 元
    expect(callCost(part(60, 60, 1000), true, 300).cost).toBe(5000);
  });
});

describe('the longest talk a credit pays for', () => {
  it('60/60 at 0.10 元: 0.0999 元 pays nothing, 0.10 pays 60 s, 0.1999 still 60 s, 0.20 pays 120 s', () => {
    const p = part(60, 60, 1000);
    expect(minimumCredit(p)).toBe(1000);
    expect(maxBilledSeconds(p, 999)).toBe(0);
    expect(maxBilledSeconds(p, 1000)).toBe(60);
    expect(maxBilledSeconds(p, 1999)).toBe(60);
    expect(maxBilledSeconds(p, 2000)).toBe(120);
  });
  it('6/6 with a connect fee: the fee comes first; the talk limit keeps a 2 s guard', () => {
    const p = part(6, 6, 1000, 500);
    expect(maxBilledSeconds(p, 599)).toBe(0);
    expect(maxBilledSeconds(p, 600)).toBe(6);
    expect(maxBilledSeconds(p, 1600)).toBe(66);
    expect(maxTalkSeconds(p, 1600)).toBe(64);
  });
  it('whatever the credit, a call cut at its limit never costs more than the credit (exhaustive small grid)', () => {
    for (const p of [part(60, 60, 1000), part(6, 6, 777, 13), part(30, 6, 455), part(1, 1, 6000, 1)]) {
      for (let credit = minimumCredit(p); credit < minimumCredit(p) + 30_000; credit += 97) {
        const talk = maxTalkSeconds(p, credit) as number;
        // the line may overrun the timer by the guard: still within the credit
        expect(callCost(p, true, talk + 2).cost, `${JSON.stringify(p)} ${credit}`).toBeLessThanOrEqual(credit);
      }
    }
  });
  it('a plan with no per-minute price: no time limit once the connect fee is there', () => {
    expect(maxBilledSeconds(part(60, 60, 0, 100), 100)).toBeNull();
    expect(maxBilledSeconds(part(60, 60, 0, 100), 99)).toBe(0);
  });
});
