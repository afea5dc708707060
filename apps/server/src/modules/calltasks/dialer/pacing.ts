/**
 * Adaptive dialing ratio for group calling (人工群呼), in the spirit of VICIdial's adaptive dialer.
 * Pure: no clock, no timers, no database; the caller passes `now` and the floor's counts, keeps the
 * returned state and passes it to the next decision.
 *
 * The rule (defaults tuned with bench/dialer.ts):
 * - agents = free agents (+ agents whose wrap-up ends within the caller's horizon, adaptive mode only)
 *   − answered calls already waiting for an agent;
 * - ratio = clamp(adjust / answerRate, minRatio 1, maxRatio 5): about one answer per agent on
 *   average; power mode (`power`) pins the ratio to 1 (one call per free agent, never an abandon);
 * - calls to place now = ceil(agents × ratio − ringing), never below 0 and never above
 *   lineLimit − linesInUse; in adaptive mode a call that has rung long (`ringingLong`) counts only
 *   ringingLongWeight (0.25): it will hardly answer any more;
 * - `adjust` starts at 0.8; it is halved when the recent abandon rate spikes (over 3 × target with
 *   ≥ 15 answered in the caller's recent window, at most once a minute), multiplied by 0.9 while the
 *   day's rate is above 95 % of the target, and by 1.03 while the day's rate is under 85 % of the
 *   target and the recent rate under the target; at most one such step per 10 s; kept in [0.2, 2]
 *   (marks 70 % / 85 % before issue 23: with the ramp's drop on each abandon they left 10-agent
 *   floors at 79 %);
 * - with a `ratioCeiling` (ramp.ts, issue 23: ratio 1 at the start, rises on evidence, small-team
 *   cap, drop on abandon) the ratio stays under it and the dial count is rounded down.
 */

export interface PacingSettings {
  /** Power dialing: ratio fixed at 1. */
  power: boolean;
  /** Abandoned / answered over the day that the controller keeps under (default 3%). */
  targetAbandonRate: number;
  minRatio: number;
  maxRatio: number;
  /** Count agents whose wrap-up ends soon as free (adaptive mode only). */
  predictFromWrapUp: boolean;
  /** How much a call that rang long (input.ringingLong) still counts as ringing (0–1). */
  ringingLongWeight: number;
  /** The answer rate used when the caller has none yet. */
  defaultAnswerRate: number;
  adjustEveryMs: number;
  raiseStep: number;
  lowerStep: number;
  /** Raise when the day's (and the recent) abandon rate is below this share of the target. */
  raiseBelow: number;
  /** Lower when the day's abandon rate is above this share of the target. */
  lowerAbove: number;
  /** A recent abandon rate above spikeFactor × target halves the adjustment. */
  spikeFactor: number;
  spikeMinAnswered: number;
  spikeCooldownMs: number;
  minAdjust: number;
  maxAdjust: number;
  initialAdjust: number;
}

export const DEFAULT_PACING: PacingSettings = {
  power: false,
  targetAbandonRate: 0.03,
  minRatio: 1,
  maxRatio: 5,
  predictFromWrapUp: true,
  ringingLongWeight: 0.25,
  defaultAnswerRate: 0.3,
  adjustEveryMs: 10_000,
  raiseStep: 1.03,
  lowerStep: 0.9,
  raiseBelow: 0.85,
  lowerAbove: 0.95,
  spikeFactor: 3,
  spikeMinAnswered: 15,
  spikeCooldownMs: 60_000,
  minAdjust: 0.2,
  maxAdjust: 2,
  initialAdjust: 0.8,
};

/** Defaults overridden by `partial`; throws RangeError on settings that cannot work. */
export const pacingSettings = (partial: Partial<PacingSettings> = {}): PacingSettings => {
  const s = { ...DEFAULT_PACING, ...partial };
  if (!(s.minRatio >= 1 && s.maxRatio >= s.minRatio)) throw new RangeError('minRatio must be ≥ 1 and ≤ maxRatio');
  if (!(s.targetAbandonRate > 0 && s.targetAbandonRate < 1)) throw new RangeError('targetAbandonRate must be in (0, 1)');
  if (!(s.defaultAnswerRate > 0 && s.defaultAnswerRate <= 1)) throw new RangeError('defaultAnswerRate must be in (0, 1]');
  if (!(s.minAdjust > 0 && s.maxAdjust >= s.minAdjust)) throw new RangeError('minAdjust must be > 0 and ≤ maxAdjust');
  if (!(s.initialAdjust >= s.minAdjust && s.initialAdjust <= s.maxAdjust)) throw new RangeError('initialAdjust out of bounds');
  if (!(s.ringingLongWeight >= 0 && s.ringingLongWeight <= 1)) throw new RangeError('ringingLongWeight must be in [0, 1]');
  if (!(s.raiseStep >= 1 && s.lowerStep > 0 && s.lowerStep <= 1)) throw new RangeError('raiseStep ≥ 1, lowerStep in (0, 1]');
  return s;
};

export interface PacingState {
  adjust: number;
  lastStepAt: number | null;
  lastCutAt: number | null;
}

/** The state of a task's first decision; starting below 1 keeps the first burst (every agent free) from overshooting. */
export const initialPacingState = (settings: PacingSettings = DEFAULT_PACING): PacingState => ({
  adjust: settings.initialAdjust,
  lastStepAt: null,
  lastCutAt: null,
});

export interface PacingInput {
  now: number;
  freeAgents: number;
  /** Agents in wrap-up that will be free within the caller's horizon (about one answer delay). */
  agentsSoonFree?: number;
  /** Answered calls waiting for an agent right now. */
  waiting?: number;
  /** Every line the task holds: ringing, waiting, talking, playing the abandon message. */
  linesInUse: number;
  /** Calls placed and not yet answered or failed. */
  ringing: number;
  /**
   * Of those, calls that have rung longer than most answered calls do (the caller's cut-off, e.g. the
   * 90th percentile of the answer delay): they will hardly answer, so they hold lines but no agent.
   */
  ringingLong?: number;
  lineLimit: number;
  /** Answered / finished attempts in the recent window; null when there is no outcome yet. */
  answerRate: number | null;
  /** The recent window (e.g. the last minute) of answered calls and how many of them were abandoned. */
  recentAnswered: number;
  recentAbandoned: number;
  /** The day so far. */
  dayAnswered: number;
  dayAbandoned: number;
  /**
   * The highest ratio allowed now (ramp.ts: starts at 1, rises on evidence, capped for small teams,
   * drops on an abandon); none: maxRatio. With a ceiling the dial count is rounded down (a fraction
   * of a call is not placed), so one agent at 1.1 gets a second line only once his first call has
   * rung long.
   */
  ratioCeiling?: number;
}

export type PacingStep = 'none' | 'halved' | 'lowered' | 'raised';

export interface PacingDecision {
  /** New calls to place now. */
  dial: number;
  ratio: number;
  power: boolean;
  step: PacingStep;
  state: PacingState;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const count = (v: number | undefined) => (v !== undefined && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

const nextAdjust = (input: PacingInput, state: PacingState, s: PacingSettings): { state: PacingState; step: PacingStep } => {
  const { now } = input;
  const target = s.targetAbandonRate;
  const recentRate = input.recentAnswered > 0 ? input.recentAbandoned / input.recentAnswered : 0;
  const dayRate = input.dayAnswered > 0 ? input.dayAbandoned / input.dayAnswered : 0;
  const spike =
    input.recentAnswered >= s.spikeMinAnswered &&
    recentRate > target * s.spikeFactor &&
    (state.lastCutAt === null || now - state.lastCutAt >= s.spikeCooldownMs);
  if (spike) {
    const adjust = clamp(state.adjust / 2, s.minAdjust, s.maxAdjust);
    return { state: { adjust, lastStepAt: now, lastCutAt: now }, step: 'halved' };
  }
  if (state.lastStepAt !== null && now - state.lastStepAt < s.adjustEveryMs) return { state, step: 'none' };
  if (dayRate > target * s.lowerAbove) {
    const adjust = clamp(state.adjust * s.lowerStep, s.minAdjust, s.maxAdjust);
    return { state: { ...state, adjust, lastStepAt: now }, step: adjust < state.adjust ? 'lowered' : 'none' };
  }
  if (dayRate < target * s.raiseBelow && recentRate <= target) {
    const adjust = clamp(state.adjust * s.raiseStep, s.minAdjust, s.maxAdjust);
    return { state: { ...state, adjust, lastStepAt: now }, step: adjust > state.adjust ? 'raised' : 'none' };
  }
  return { state: { ...state, lastStepAt: now }, step: 'none' };
};

/** One pacing decision: how many calls to place now, and the ratio behind it. */
export const decidePacing = (
  input: PacingInput,
  state: PacingState,
  settings: PacingSettings = DEFAULT_PACING,
): PacingDecision => {
  const room = Math.max(0, count(input.lineLimit) - count(input.linesInUse));
  if (settings.power) {
    const agents = Math.max(0, count(input.freeAgents) - count(input.waiting));
    const dial = clamp(agents - count(input.ringing), 0, room);
    return { dial, ratio: 1, power: true, step: 'none', state };
  }
  const next = nextAdjust(input, state, settings);
  // Unknown (null, NaN) → the default; nothing answering → the maximum ratio.
  const known = input.answerRate !== null && Number.isFinite(input.answerRate);
  const answerRate = known ? clamp(input.answerRate as number, 0, 1) : settings.defaultAnswerRate;
  const hasCeiling = input.ratioCeiling !== undefined && Number.isFinite(input.ratioCeiling);
  const maxRatio = hasCeiling ? clamp(input.ratioCeiling as number, settings.minRatio, settings.maxRatio) : settings.maxRatio;
  const ratio = answerRate > 0 ? clamp(next.state.adjust / answerRate, settings.minRatio, maxRatio) : maxRatio;
  const long = Math.min(count(input.ringing), count(input.ringingLong));
  const ringing = count(input.ringing) - long * (1 - settings.ringingLongWeight);
  const soon = settings.predictFromWrapUp ? count(input.agentsSoonFree) : 0;
  const agents = Math.max(0, count(input.freeAgents) + soon - count(input.waiting));
  const want =
    agents > 0 ? (hasCeiling ? Math.floor(agents * ratio - ringing + 1e-9) : Math.ceil(agents * ratio - ringing - 1e-9)) : 0;
  const dial = clamp(want, 0, room);
  return { dial, ratio, power: false, step: next.step, state: next.state };
};
