import { describe, expect, it } from 'vitest';
import { DEFAULT_PACING, decidePacing, initialPacingState, type PacingInput, pacingSettings } from './pacing';
import { seededRandom } from './random';

const input = (over: Partial<PacingInput> = {}): PacingInput => ({
  now: 1_000_000,
  freeAgents: 3,
  agentsSoonFree: 0,
  waiting: 0,
  linesInUse: 0,
  ringing: 0,
  lineLimit: 100,
  answerRate: 0.25,
  recentAnswered: 0,
  recentAbandoned: 0,
  // 2.7% over the day: between the raise (2.55%) and lower (2.85%) marks, so the adjustment holds.
  dayAnswered: 1000,
  dayAbandoned: 27,
  ...over,
});
const power = pacingSettings({ power: true });
/** A state at adjustment 1 (ratio = 1 / answer rate). */
const one = () => ({ ...initialPacingState(), adjust: 1 });

describe('decidePacing: dial count', () => {
  it('dials ceil(free agents × 1/answer rate) − ringing', () => {
    const d = decidePacing(input({ ringing: 5 }), one());
    expect(d.ratio).toBe(4);
    expect(d.dial).toBe(3 * 4 - 5);
    expect(d.power).toBe(false);
    expect(decidePacing(input({ answerRate: 0.3 }), one()).dial).toBe(10); // ceil(3 / 0.3)
  });

  it('starts the day below ratio 1 / answer rate (the first burst has every agent free)', () => {
    expect(initialPacingState()).toEqual({ adjust: 0.8, lastStepAt: null, lastCutAt: null });
    expect(initialPacingState(pacingSettings({ initialAdjust: 1 })).adjust).toBe(1);
    const d = decidePacing(input({ freeAgents: 50, lineLimit: 200 }), initialPacingState());
    expect(d.ratio).toBeCloseTo(3.2);
    expect(d.dial).toBe(160);
  });

  it('counts calls that rang long as a quarter, and answered calls waiting as taking agents', () => {
    // 12 − (3 + 2 × 0.25) = 8.5 → 9
    expect(decidePacing(input({ ringing: 5, ringingLong: 2 }), one()).dial).toBe(9);
    expect(decidePacing(input({ ringing: 5, ringingLong: 2 }), one(), pacingSettings({ ringingLongWeight: 0 })).dial).toBe(9);
    expect(decidePacing(input({ ringing: 5, ringingLong: 4 }), one(), pacingSettings({ ringingLongWeight: 0 })).dial).toBe(11);
    expect(decidePacing(input({ ringing: 5, ringingLong: 4 }), one()).dial).toBe(10); // 12 − 2 = 10
    expect(decidePacing(input({ ringing: 5, ringingLong: 9 }), one()).dial).toBe(11); // 12 − 1.25 → ceil 10.75
    expect(decidePacing(input({ ringing: 5, ringingLong: 5 }), one(), power).dial).toBe(0);
    expect(decidePacing(input({ waiting: 1 }), one()).dial).toBe(8);
    expect(decidePacing(input({ waiting: 3 }), one()).dial).toBe(0);
  });

  it('never exceeds the line limit (both edges) and never goes negative', () => {
    expect(decidePacing(input({ linesInUse: 99 }), one()).dial).toBe(1);
    expect(decidePacing(input({ linesInUse: 100 }), one()).dial).toBe(0);
    expect(decidePacing(input({ linesInUse: 130 }), one()).dial).toBe(0);
    expect(decidePacing(input({ linesInUse: 88 }), one()).dial).toBe(12);
    expect(decidePacing(input({ linesInUse: 89 }), one()).dial).toBe(11);
    expect(decidePacing(input({ ringing: 40 }), one()).dial).toBe(0);
    expect(decidePacing(input({ linesInUse: 99, freeAgents: 3 }), one(), power).dial).toBe(1);
    const rnd = seededRandom(42);
    let state = one();
    for (let i = 0; i < 5_000; i++) {
      const lineLimit = Math.floor(rnd.next() * 60);
      const ringing = Math.floor(rnd.next() * 40);
      const linesInUse = ringing + Math.floor(rnd.next() * 40);
      const d = decidePacing(
        input({
          now: 1_000_000 + i * 1_000,
          freeAgents: Math.floor(rnd.next() * 50),
          agentsSoonFree: Math.floor(rnd.next() * 5),
          ringing,
          linesInUse,
          lineLimit,
          answerRate: rnd.next(),
          recentAnswered: 20,
          recentAbandoned: Math.floor(rnd.next() * 5),
          dayAnswered: 100,
          dayAbandoned: Math.floor(rnd.next() * 6),
        }),
        state,
      );
      state = d.state;
      expect(d.dial).toBeGreaterThanOrEqual(0);
      expect(d.dial).toBeLessThanOrEqual(Math.max(0, lineLimit - linesInUse));
      expect(Number.isInteger(d.dial)).toBe(true);
    }
  });

  it('places nothing with no free agent, unless predicting from wrap-up in adaptive mode', () => {
    expect(decidePacing(input({ freeAgents: 0 }), one()).dial).toBe(0);
    expect(decidePacing(input({ freeAgents: 0, ringing: 0, answerRate: 0.01 }), one()).dial).toBe(0);
    expect(decidePacing(input({ freeAgents: 0, agentsSoonFree: 2 }), one()).dial).toBe(8);
    const noPredict = pacingSettings({ predictFromWrapUp: false });
    expect(decidePacing(input({ freeAgents: 0, agentsSoonFree: 2 }), one(), noPredict).dial).toBe(0);
    expect(decidePacing(input({ freeAgents: 0, agentsSoonFree: 2 }), one(), power).dial).toBe(0);
  });

  it('power mode: ratio 1, one call per free agent, no adjustment', () => {
    const spike = input({ recentAnswered: 50, recentAbandoned: 40, dayAnswered: 50, dayAbandoned: 40, ringing: 1 });
    const d = decidePacing(spike, one(), power);
    expect(d).toMatchObject({ dial: 2, ratio: 1, power: true, step: 'none' });
    expect(d.state).toEqual(one());
  });

  it('uses the default answer rate before any outcome, and the maximum ratio when nothing answers', () => {
    expect(decidePacing(input({ answerRate: null }), one()).ratio).toBeCloseTo(1 / 0.3);
    expect(decidePacing(input({ answerRate: 0 }), one()).ratio).toBe(DEFAULT_PACING.maxRatio);
    expect(decidePacing(input({ answerRate: Number.NaN }), one()).ratio).toBeCloseTo(1 / 0.3);
    expect(decidePacing(input({ answerRate: -1 }), one()).ratio).toBe(DEFAULT_PACING.maxRatio);
  });
});

describe('decidePacing: the ratio', () => {
  it('is bounded by the minimum and the maximum ratio', () => {
    expect(decidePacing(input({ answerRate: 0.01 }), one()).ratio).toBe(5);
    expect(decidePacing(input({ answerRate: 1 }), one()).ratio).toBe(1);
    const s = pacingSettings({ minRatio: 1.5, maxRatio: 2.5 });
    expect(decidePacing(input({ answerRate: 0.9 }), one(), s).ratio).toBe(1.5);
    expect(decidePacing(input({ answerRate: 0.1 }), one(), s).ratio).toBe(2.5);
    expect(decidePacing(input({ answerRate: 0.5 }), one(), s).ratio).toBe(2);
    const high = { adjust: 10, lastStepAt: null, lastCutAt: null };
    expect(decidePacing(input({ answerRate: 0.9 }), high, s).ratio).toBe(2.5);
  });

  it('halves when the recent abandon rate spikes above the target (edges: 9% of 100 no, 10% yes)', () => {
    const st = one();
    const no = decidePacing(input({ recentAnswered: 100, recentAbandoned: 9 }), st);
    expect(no.step).not.toBe('halved');
    const yes = decidePacing(input({ recentAnswered: 100, recentAbandoned: 10 }), st);
    expect(yes.step).toBe('halved');
    expect(yes.state.adjust).toBe(0.5);
    expect(yes.ratio).toBe(2); // 0.5 / 0.25
    expect(yes.dial).toBe(6);
  });

  it('needs enough answered calls in the window to call it a spike', () => {
    const st = one();
    expect(decidePacing(input({ recentAnswered: 14, recentAbandoned: 14 }), st).step).not.toBe('halved');
    expect(decidePacing(input({ recentAnswered: 15, recentAbandoned: 2 }), st).step).toBe('halved');
  });

  it('halves at most once per cool-down', () => {
    const spike = { recentAnswered: 20, recentAbandoned: 5 };
    const first = decidePacing(input({ ...spike, now: 0 }), one());
    const soon = decidePacing(input({ ...spike, now: 59_999 }), first.state);
    expect(soon.state.adjust).toBe(0.5);
    expect(soon.step).not.toBe('halved');
    const later = decidePacing(input({ ...spike, now: 60_000 }), first.state);
    expect(later.step).toBe('halved');
    expect(later.state.adjust).toBe(0.25);
    let st = later.state;
    for (let i = 2; i < 20; i++) st = decidePacing(input({ ...spike, now: i * 60_000 }), st).state;
    expect(st.adjust).toBe(DEFAULT_PACING.minAdjust);
    expect(decidePacing(input({ ...spike, now: 30 * 60_000 }), st).ratio).toBe(1);
  });

  it('raises slowly while the day is well below target, once per interval', () => {
    const a = decidePacing(input({ now: 0, dayAnswered: 100, dayAbandoned: 2 }), one());
    expect(a.step).toBe('raised');
    expect(a.state.adjust).toBeCloseTo(1.03);
    const b = decidePacing(input({ now: 9_999, dayAnswered: 100, dayAbandoned: 2 }), a.state);
    expect(b.step).toBe('none');
    expect(b.state.adjust).toBeCloseTo(1.03);
    const c = decidePacing(input({ now: 10_000, dayAnswered: 100, dayAbandoned: 2 }), a.state);
    expect(c.step).toBe('raised');
    expect(c.state.adjust).toBeCloseTo(1.03 * 1.03);
    expect(c.ratio).toBeGreaterThan(a.ratio);
    // Not while the recent minute is over target, nor near the target over the day.
    expect(
      decidePacing(input({ now: 0, dayAnswered: 100, dayAbandoned: 0, recentAnswered: 10, recentAbandoned: 1 }), one()).step,
    ).toBe('none');
    expect(decidePacing(input({ now: 0, dayAnswered: 1000, dayAbandoned: 26 }), one()).step).toBe('none');
    let st = one();
    for (let i = 0; i < 200; i++) st = decidePacing(input({ now: i * 10_000, dayAbandoned: 0 }), st).state;
    expect(st.adjust).toBe(DEFAULT_PACING.maxAdjust);
  });

  it('lowers when the day is above 95% of the target', () => {
    const d = decidePacing(input({ now: 0, dayAnswered: 1000, dayAbandoned: 29 }), one());
    expect(d.step).toBe('lowered');
    expect(d.state.adjust).toBeCloseTo(0.9);
    expect(decidePacing(input({ now: 0, dayAnswered: 1000, dayAbandoned: 28 }), one()).step).toBe('none');
  });

  it('honours the company target', () => {
    const s = pacingSettings({ targetAbandonRate: 0.01 });
    expect(decidePacing(input({ recentAnswered: 100, recentAbandoned: 4 }), one(), s).step).toBe('halved');
    expect(decidePacing(input({ recentAnswered: 100, recentAbandoned: 4 }), one()).step).not.toBe('halved');
  });

  it('refuses settings that cannot work', () => {
    expect(() => pacingSettings({ minRatio: 0.5 })).toThrow(RangeError);
    expect(() => pacingSettings({ minRatio: 3, maxRatio: 2 })).toThrow(RangeError);
    expect(() => pacingSettings({ targetAbandonRate: 0 })).toThrow(RangeError);
    expect(() => pacingSettings({ lowerStep: 1.2 })).toThrow(RangeError);
    expect(() => pacingSettings({ ringingLongWeight: 1.5 })).toThrow(RangeError);
    expect(() => pacingSettings({ initialAdjust: 0.1 })).toThrow(RangeError);
  });
});
