import { describe, expect, it } from 'vitest';
import { Pacer } from './pacer';
import { DEFAULT_RAMP, dropShare, RatioRamp, teamCap } from './ramp';
import { simulateFloor } from './simulate';

// The small-team rule of the group dialer (issue 23): ratio 1 at the start, rises only on evidence,
// capped by the team's size, back down at once on an abandon.

const floor = (free: number, team = free) => ({ freeAgents: free, linesInUse: 0, ringing: 0, lineLimit: 50, teamSize: team });
/** A pacer past its warm-up with a measured answer rate of 30 % (30 outcomes). */
const measured = (p: Pacer, at = 40_000) => {
  p.decide(0, floor(1));
  for (let i = 0; i < 30; i++) p.rang(at, i % 10 < 3);
};

describe('the ratio ramp', () => {
  it('caps the ratio by the team size (1 agent ≈ 1.15, 3 ≈ 1.43, 10 ≈ 2.14, 50 ≈ 3.67 with max 5)', () => {
    expect(teamCap(0, 5)).toBe(1);
    expect(teamCap(1, 5)).toBeCloseTo(1 + 4 / 26);
    expect(teamCap(1, 5)).toBeLessThan(1.2);
    expect(teamCap(3, 5)).toBeCloseTo(1 + 12 / 28);
    expect(teamCap(10, 5)).toBeCloseTo(1 + 40 / 35);
    expect(teamCap(50, 5)).toBeCloseTo(1 + 200 / 75);
    for (let n = 1; n < 200; n++) expect(teamCap(n + 1, 5)).toBeGreaterThan(teamCap(n, 5));
    expect(teamCap(10_000, 5)).toBeLessThan(5);
    expect(dropShare(1)).toBe(1);
    expect(dropShare(DEFAULT_RAMP.dropAgents)).toBe(1);
    expect(dropShare(30)).toBeCloseTo(0.1);
  });

  it('starts at 1, stays there until the answer rate is measured, then rises with each connected call', () => {
    const r = new RatioRamp(5, 1);
    r.team(10);
    expect(r.value(false)).toBe(1);
    expect(r.value(true)).toBe(1);
    r.connected(false, true); // not measured yet: no evidence
    expect(r.value(true)).toBe(1);
    r.connected(true, false); // recent abandons over target: no rise
    expect(r.value(true)).toBe(1);
    r.connected(true, true);
    expect(r.value(true)).toBeCloseTo(1.2); // 2 / 10 agents
    expect(r.value(false)).toBe(1);
    for (let i = 0; i < 100; i++) r.connected(true, true);
    expect(r.value(true)).toBeCloseTo(teamCap(10, 5));
  });

  it('drops at once on an abandon: to 1 for a small team, by a share for a large one', () => {
    const small = new RatioRamp(5, 1);
    small.team(3);
    for (let i = 0; i < 20; i++) small.connected(true, true);
    expect(small.value(true)).toBeCloseTo(teamCap(3, 5));
    small.abandoned();
    expect(small.value(true)).toBe(1);
    const large = new RatioRamp(5, 1);
    large.team(30);
    for (let i = 0; i < 200; i++) large.connected(true, true);
    const before = large.value(true);
    large.abandoned();
    expect(large.value(true)).toBeCloseTo(1 + (before - 1) * 0.9);
  });
});

describe('the Pacer with the ramp (one task)', () => {
  it('one agent: one line at the start (not 1 / 0.3 ≈ 3), never a second fresh line', () => {
    const p = new Pacer();
    const first = p.decide(0, floor(1));
    expect(first).toMatchObject({ dial: 1, ratio: 1 });
    measured(p);
    for (let i = 0; i < 50; i++) p.connected(41_000 + i, 0);
    const d = p.decide(45_000, floor(1));
    expect(d.ratio).toBeLessThanOrEqual(teamCap(1, 5));
    expect(d.dial).toBe(1);
    // his one call rings: no second line while it is fresh
    expect(p.decide(46_000, { ...floor(1), ringing: 1, linesInUse: 1 }).dial).toBe(0);
  });

  it('rises for a team once measured, drops back to 1 on an abandon (3 agents)', () => {
    const p = new Pacer();
    expect(p.decide(0, floor(3)).ratio).toBe(1);
    measured(p);
    expect(p.decide(40_000, floor(3)).ratio).toBe(1); // measured, but no connected call yet
    for (let i = 0; i < 10; i++) p.connected(41_000, 0);
    const up = p.decide(42_000, floor(3));
    expect(up.ratio).toBeGreaterThan(1);
    expect(up.ratio).toBeLessThanOrEqual(teamCap(3, 5));
    p.abandoned(43_000);
    expect(p.decide(43_000, floor(3)).ratio).toBe(1);
    expect(p.snapshot(43_000).ratio).toBe(1);
  });

  it('without the ramp the first decision dials 1 / 0.3 × 0.8 ≈ 2.7 per agent (the reported 3 lines for one agent)', () => {
    const p = new Pacer({ ramp: false });
    expect(p.decide(0, floor(1)).dial).toBe(3);
  });
});

describe('small teams on the simulated floor', () => {
  it('1, 3 and 10 agents abandon at most 3 % of answered calls; 10 agents stay busy ≥ 76 %', () => {
    for (const agents of [1, 3, 10]) {
      const r = simulateFloor({ agents, numbers: agents * 300, seed: 2, lineLimit: agents * 4 });
      expect(r.abandonRate, `${agents} agents`).toBeLessThanOrEqual(0.03);
      if (agents === 10) expect(r.occupancy).toBeGreaterThanOrEqual(0.76);
    }
    // before the ramp: one agent abandoned well above the target
    const old = simulateFloor({ agents: 1, numbers: 500, seed: 1, lineLimit: 4, ramp: false });
    expect(old.abandonRate).toBeGreaterThan(0.03);
  });
});
