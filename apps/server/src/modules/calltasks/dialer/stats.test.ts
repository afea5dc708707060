import { describe, expect, it } from 'vitest';
import { beijingDay, DayStats, OccupancyTracker, OutcomeWindow, occupancyBetween } from './stats';

describe('OutcomeWindow', () => {
  it('keeps an outcome while it is younger than the window (edge: exactly windowMs old is out)', () => {
    const w = new OutcomeWindow(1_000);
    w.record(0, true);
    w.record(500, false);
    expect(w.counts(999)).toEqual({ total: 2, hits: 1 });
    expect(w.counts(1_000)).toEqual({ total: 1, hits: 0 });
    expect(w.counts(1_499)).toEqual({ total: 1, hits: 0 });
    expect(w.counts(1_500)).toEqual({ total: 0, hits: 0 });
    expect(w.rate(1_500)).toBeNull();
  });

  it('keeps only the newest maxCount outcomes', () => {
    const w = new OutcomeWindow(60_000, 3);
    for (const [t, hit] of [
      [0, true],
      [1, true],
      [2, false],
      [3, false],
    ] as const)
      w.record(t, hit);
    expect(w.counts(3)).toEqual({ total: 3, hits: 1 });
  });

  it('gives the rate, leaning on the prior when thin', () => {
    const w = new OutcomeWindow(60_000);
    expect(w.rate(0, { rate: 0.3, weight: 10 })).toBeCloseTo(0.3);
    w.record(0, true);
    w.record(0, false);
    w.record(0, false);
    w.record(0, false);
    expect(w.rate(0)).toBe(0.25);
    expect(w.rate(0, { rate: 0.3, weight: 4 })).toBeCloseTo((1 + 1.2) / 8);
  });

  it('stays exact over long runs (compaction) and treats an earlier time as the latest seen', () => {
    const w = new OutcomeWindow(10_000);
    for (let t = 0; t < 100_000; t += 10) w.record(t, t % 40 === 0);
    // the last 1,000 outcomes: t = 90,000 … 99,990; a quarter are hits
    expect(w.counts(99_990)).toEqual({ total: 1_000, hits: 250 });
    expect(w.counts(5)).toEqual({ total: 1_000, hits: 250 });
  });

  it('refuses a window that cannot hold anything', () => {
    expect(() => new OutcomeWindow(0)).toThrow(RangeError);
    expect(() => new OutcomeWindow(1_000, 0)).toThrow(RangeError);
  });
});

describe('DayStats', () => {
  it('gives abandoned / answered and the mean wait to an agent', () => {
    const d = new DayStats();
    const t = Date.UTC(2026, 10, 25, 2, 0, 0);
    expect(d.snapshot(t)).toEqual({ answered: 0, connected: 0, abandoned: 0, abandonRate: 0, avgWaitMs: 0 });
    for (let i = 0; i < 4; i++) d.answer(t);
    d.connect(t, 0);
    d.connect(t, 1_000);
    d.connect(t, 2_000);
    d.abandon(t);
    expect(d.snapshot(t)).toEqual({ answered: 4, connected: 3, abandoned: 1, abandonRate: 0.25, avgWaitMs: 1_000 });
  });

  it('starts over at Beijing midnight (16:00 UTC), not before', () => {
    const d = new DayStats();
    const midnight = Date.UTC(2026, 10, 25, 16, 0, 0);
    expect(beijingDay(midnight) - beijingDay(midnight - 1)).toBe(1);
    d.answer(midnight - 60_000);
    d.abandon(midnight - 60_000);
    expect(d.snapshot(midnight - 1).abandoned).toBe(1);
    expect(d.snapshot(midnight)).toMatchObject({ answered: 0, abandoned: 0, abandonRate: 0 });
  });
});

describe('OccupancyTracker', () => {
  it('is (talk + wrap-up) / logged-in time, open intervals included, time off excluded', () => {
    const o = new OccupancyTracker();
    o.set('a', 'free', 0);
    o.set('a', 'talking', 1_000);
    o.set('a', 'wrapup', 3_000);
    expect(o.snapshot(3_500)).toMatchObject({ talkingMs: 2_000, wrapupMs: 500, freeMs: 1_000, wrapup: 1, free: 0 });
    o.set('a', 'off', 4_000);
    expect(o.snapshot(9_000).occupancy).toBe(0.75);
    o.set('b', 'free', 9_000);
    const s = o.snapshot(10_000);
    expect(s.occupancy).toBe(3_000 / 5_000);
    expect(s).toMatchObject({ free: 1, talking: 0, wrapup: 0 });
    expect(o.state('a')).toBe('off');
    expect(o.state('nobody')).toBe('off');
  });

  it('gives the occupancy between two snapshots', () => {
    const o = new OccupancyTracker();
    o.set(1, 'talking', 0);
    const start = o.snapshot(0);
    const a = o.snapshot(1_000);
    o.set(1, 'free', 1_000);
    const b = o.snapshot(2_000);
    expect(occupancyBetween(a, b)).toBe(0);
    expect(occupancyBetween(start, b)).toBe(0.5);
    expect(new OccupancyTracker().snapshot(5).occupancy).toBe(0);
  });
});
