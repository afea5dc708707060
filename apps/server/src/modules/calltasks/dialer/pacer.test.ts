import { describe, expect, it } from 'vitest';
import { Pacer } from './pacer';

const floor = { freeAgents: 2, linesInUse: 0, ringing: 0, lineLimit: 50 };

describe('Pacer', () => {
  it('uses the prior answer rate during the warm-up, then the window (edge: 35 s after the first decision)', () => {
    const p = new Pacer({ settings: { initialAdjust: 1, raiseStep: 1 }, ramp: false }); // adjustment held at 1
    const first = p.decide(0, floor);
    expect(first.dial).toBe(7); // ceil(2 / 0.3)
    expect(first.ratio).toBeCloseTo(1 / 0.3);
    for (let i = 0; i < 80; i++) p.rang(1_000, i % 5 === 0); // 16 of 80 answered: 20 %
    expect(p.decide(34_999, floor).ratio).toBeCloseTo(1 / 0.3);
    expect(p.snapshot(34_999).answerRate).toBeNull();
    // (16 + 0.3 × 20) / (80 + 20) = 22 %
    const d = p.decide(35_000, floor);
    expect(d.ratio).toBeCloseTo(1 / 0.22);
    expect(d.dial).toBe(10);
    expect(p.snapshot(35_000).answerRate).toBeCloseTo(0.22);
  });

  it('gives the board the day figures and the current ratio', () => {
    const p = new Pacer({ ramp: false });
    for (let i = 0; i < 10; i++) p.rang(0, true);
    p.rang(0, false);
    for (let i = 0; i < 9; i++) p.connected(1_000, i * 250);
    p.abandoned(2_000);
    // 10 % abandoned over the day: the first step lowers the adjustment (0.8 × 0.9)
    expect(p.decide(2_000, floor).step).toBe('lowered');
    expect(p.snapshot(2_000)).toMatchObject({
      answered: 10,
      connected: 9,
      abandoned: 1,
      abandonRate: 0.1,
      avgWaitMs: 1_000,
      recentAnswered: 10,
      recentAbandoned: 1,
      power: false,
    });
    expect(p.snapshot(2_000).ratio).toBeCloseTo((0.8 * 0.9) / 0.3);
  });

  it('halves the ratio when abandons spike in the last minute, not when they are older', () => {
    const spike = (p: Pacer) => {
      for (let i = 0; i < 20; i++) p.rang(0, true);
      for (let i = 0; i < 16; i++) p.connected(0, 0);
      for (let i = 0; i < 4; i++) p.abandoned(0);
    };
    const a = new Pacer();
    spike(a);
    expect(a.decide(59_999, floor).step).toBe('halved');
    const b = new Pacer();
    spike(b);
    expect(b.decide(60_000, floor).step).not.toBe('halved');
  });

  it('power dialing: ratio 1 and one call per free agent', () => {
    const p = new Pacer({ settings: { power: true } });
    expect(p.decide(0, { ...floor, ringing: 1 })).toMatchObject({ dial: 1, ratio: 1, power: true });
    expect(p.snapshot(0).power).toBe(true);
  });
});
