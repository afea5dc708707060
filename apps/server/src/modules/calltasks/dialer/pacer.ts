/**
 * One group-call task's dialer brain, as the runner (and the simulation) drives it: it is told what
 * happened to the calls (rang out or answered, connected, abandoned), and asked how many calls to place
 * given the floor's counts now. It keeps the windows and the pacing state between decisions and gives
 * the live board's figures. Pure: time is passed in, nothing is stored outside the object.
 */
import {
  decidePacing,
  initialPacingState,
  type PacingDecision,
  type PacingInput,
  type PacingSettings,
  type PacingState,
  pacingSettings,
} from './pacing';
import { DEFAULT_RAMP, type RampSettings, RatioRamp } from './ramp';
import { type DaySnapshot, DayStats, OutcomeWindow } from './stats';

export interface PacerOptions {
  settings?: Partial<PacingSettings>;
  /** The answer rate's window (default 3 min). */
  answerWindowMs?: number;
  /** Weight of settings.defaultAnswerRate in the answer rate, in outcomes (default 20). */
  answerPriorWeight?: number;
  /**
   * The prior alone is used this long after the first decision (default 35 s, a ring time-out): busy
   * and empty numbers fail before the first answers come, so the first outcomes understate the rate.
   */
  answerWarmupMs?: number;
  /** The window in which an abandon spike is looked for (default 60 s). */
  abandonWindowMs?: number;
  /** The ratio's ceiling (ramp.ts); `false`: none (the controller alone, as before issue 23). */
  ramp?: Partial<RampSettings> | false;
}

/** The floor as the runner sees it at the moment of the decision (see PacingInput). */
export type FloorCounts = Pick<
  PacingInput,
  'freeAgents' | 'agentsSoonFree' | 'waiting' | 'linesInUse' | 'ringing' | 'ringingLong' | 'lineLimit'
> & {
  /** The agents counted as working on the task (free, talking or in wrap-up): the small-team cap. */
  teamSize?: number;
};

export interface PacerSnapshot extends DaySnapshot {
  ratio: number;
  power: boolean;
  /** The answer rate the last decision used (null before the first outcome or during the warm-up). */
  answerRate: number | null;
  recentAnswered: number;
  recentAbandoned: number;
}

export class Pacer {
  readonly settings: PacingSettings;
  private state: PacingState;
  private readonly answers: OutcomeWindow;
  private readonly recent: OutcomeWindow;
  private readonly day = new DayStats();
  private readonly prior: { rate: number; weight: number };
  private readonly warmupMs: number;
  private startedAt: number | null = null;
  private last: { ratio: number; answerRate: number | null } = { ratio: 1, answerRate: null };
  private readonly ramp: RatioRamp | null;
  private readonly minOutcomes: number;
  private outcomes = 0;

  constructor(options: PacerOptions = {}) {
    this.settings = pacingSettings(options.settings);
    this.state = initialPacingState(this.settings);
    this.answers = new OutcomeWindow(options.answerWindowMs ?? 180_000);
    this.recent = new OutcomeWindow(options.abandonWindowMs ?? 60_000);
    this.prior = { rate: this.settings.defaultAnswerRate, weight: options.answerPriorWeight ?? 20 };
    this.warmupMs = options.answerWarmupMs ?? 35_000;
    const ramp = options.ramp === false ? null : { ...DEFAULT_RAMP, ...options.ramp };
    this.ramp = ramp && !this.settings.power ? new RatioRamp(this.settings.maxRatio, this.settings.minRatio, ramp) : null;
    this.minOutcomes = ramp ? ramp.minOutcomes : 0;
  }

  /** The answer rate is measured: the warm-up is over and enough calls stopped ringing. */
  private isMeasured(now: number) {
    return this.startedAt !== null && now - this.startedAt >= this.warmupMs && this.outcomes >= this.minOutcomes;
  }

  /** A placed call stopped ringing: answered, or failed (no answer, busy, empty number). */
  rang(now: number, answered: boolean) {
    this.answers.record(now, answered);
    this.outcomes++;
    if (answered) this.day.answer(now);
  }

  /** An answered call reached an agent after waitMs. */
  connected(now: number, waitMs: number) {
    this.day.connect(now, waitMs);
    this.recent.record(now, false);
    const recent = this.recent.counts(now);
    this.ramp?.connected(this.isMeasured(now), recent.hits <= this.settings.targetAbandonRate * recent.total);
  }

  /** An answered call found no agent in time (it hears the message): the ratio drops at once. */
  abandoned(now: number) {
    this.day.abandon(now);
    this.recent.record(now, true);
    this.ramp?.abandoned();
  }

  /** How many calls to place now. */
  decide(now: number, floor: FloorCounts): PacingDecision {
    if (this.startedAt === null) this.startedAt = now;
    const answerRate = now - this.startedAt < this.warmupMs ? null : this.answers.rate(now, this.prior);
    const recent = this.recent.counts(now);
    const day = this.day.snapshot(now);
    if (floor.teamSize !== undefined) this.ramp?.team(floor.teamSize);
    const decision = decidePacing(
      {
        now,
        ...floor,
        ratioCeiling: this.ramp?.value(this.isMeasured(now)),
        answerRate,
        recentAnswered: recent.total,
        recentAbandoned: recent.hits,
        dayAnswered: day.answered,
        dayAbandoned: day.abandoned,
      },
      this.state,
      this.settings,
    );
    this.state = decision.state;
    this.last = { ratio: decision.ratio, answerRate };
    return decision;
  }

  /** The live board's figures: the day's answered / connected / abandoned, wait, the current ratio. */
  snapshot(now: number): PacerSnapshot {
    const recent = this.recent.counts(now);
    return {
      ...this.day.snapshot(now),
      ratio: this.last.ratio,
      power: this.settings.power,
      answerRate: this.last.answerRate,
      recentAnswered: recent.total,
      recentAbandoned: recent.hits,
    };
  }
}
