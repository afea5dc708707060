/**
 * The simulated floor for the dialer (simulate.ts): its settings with realistic defaults, the shape
 * of a run's result, and the number list, whose every fate is drawn up front from the seed.
 */
import type { PacingSettings } from './pacing';
import type { RampSettings } from './ramp';
import { type LogNormal, seededRandom } from './random';

export interface FloorConfig {
  seed: number;
  agents: number;
  numbers: number;
  /** The list comes in sources of blockSize numbers; each source answers at a rate drawn in [min, max]. */
  answerRate: { min: number; max: number; blockSize: number };
  /** Shares of all attempts that are busy and empty / out-of-service numbers (空号/停机); the rest ring out. */
  busyRate: number;
  invalidRate: number;
  ringAnswered: LogNormal;
  ringTimeoutMs: number;
  /** Busy and invalid numbers fail after a time uniform in [minMs, maxMs]. */
  failFast: { minMs: number; maxMs: number };
  talk: LogNormal;
  wrapUpMs: number;
  /** An answered call with no agent within this time is abandoned (hears the message). */
  abandonAfterMs: number;
  /** The abandon message holds the line this long. */
  abandonMessageMs: number;
  lineLimit: number;
  /** A pacing decision every tickMs, and one each time an agent becomes free. */
  tickMs: number;
  answerWindowMs: number;
  /** Weight of the prior (pacing.defaultAnswerRate) in the answer rate, in outcomes. */
  answerPriorWeight: number;
  /**
   * The prior alone is used this long after the start: fast failures (busy, 空号) end before the first
   * answers, so the first outcomes understate the answer rate.
   */
  answerWarmupMs: number;
  abandonWindowMs: number;
  /** Calls ringing longer than this are passed to pacing as ringingLong (0: never). */
  ringLongMs: number;
  /** Agents whose wrap-up ends within this time count as soon free. */
  predictHorizonMs: number;
  /** Epoch ms of the start (the day's abandon rate follows the Beijing day). */
  startAt: number;
  /** Report rows cover this much virtual time (an hour). */
  bucketMs: number;
  /** Safety stop. */
  maxDurationMs: number;
  pacing: Partial<PacingSettings>;
  /** The ratio's ceiling for small teams (ramp.ts); false: the controller alone (before issue 23). */
  ramp: Partial<RampSettings> | false;
}

export const DEFAULT_FLOOR: FloorConfig = {
  seed: 1,
  agents: 50,
  numbers: 20_000,
  answerRate: { min: 0.25, max: 0.35, blockSize: 1_000 },
  busyRate: 0.08,
  invalidRate: 0.12,
  ringAnswered: { medianMs: 9_000, sigma: 0.45, minMs: 2_000, maxMs: 40_000 },
  ringTimeoutMs: 35_000,
  failFast: { minMs: 1_500, maxMs: 6_000 },
  talk: { medianMs: 50_000, sigma: 0.8, minMs: 5_000, maxMs: 900_000 },
  wrapUpMs: 15_000,
  abandonAfterMs: 2_000,
  abandonMessageMs: 5_000,
  lineLimit: 200,
  tickMs: 1_000,
  answerWindowMs: 180_000,
  answerPriorWeight: 20,
  answerWarmupMs: 35_000,
  abandonWindowMs: 60_000,
  ringLongMs: 15_000,
  predictHorizonMs: 5_000,
  startAt: Date.UTC(2026, 10, 25, 1, 0, 0), // 09:00 Beijing
  bucketMs: 3_600_000,
  maxDurationMs: 24 * 3_600_000,
  pacing: {},
  ramp: {},
};

export interface BucketRow {
  /** Start of the bucket, ms after the start. */
  fromMs: number;
  toMs: number;
  placed: number;
  answered: number;
  connected: number;
  abandoned: number;
  /** Abandoned / answered in this bucket. */
  abandonRate: number;
  /** Answered / attempts that ended in this bucket. */
  answerRate: number;
  occupancy: number;
  ratioAvg: number;
  ratioMin: number;
  ratioMax: number;
}

export interface SimResult {
  mode: 'power' | 'adaptive';
  placed: number;
  answered: number;
  connected: number;
  abandoned: number;
  busy: number;
  invalid: number;
  noAnswer: number;
  abandonRate: number;
  avgWaitMs: number;
  /** Occupancy while the list lasted (until the last number was dialled). */
  occupancy: number;
  /** Occupancy until the last call and wrap-up ended. */
  occupancyAll: number;
  listExhaustedMs: number;
  durationMs: number;
  /** Calls placed and connected per hour while the list lasted. */
  callsPerHour: number;
  connectedPerHour: number;
  ratioAvg: number;
  maxLinesInUse: number;
  steps: { halved: number; lowered: number; raised: number };
  decisions: number;
  buckets: BucketRow[];
}

export type Outcome = 'answered' | 'busy' | 'invalid' | 'noAnswer';

/** Every number's fate, drawn up front from the seed. */
export const drawList = (c: FloorConfig) => {
  const rnd = seededRandom(c.seed);
  const blocks = Math.ceil(c.numbers / c.answerRate.blockSize);
  const blockRate = Array.from({ length: blocks }, () => rnd.uniform(c.answerRate.min, c.answerRate.max));
  const outcome: Outcome[] = [];
  const ringMs: number[] = [];
  const talkMs: number[] = [];
  for (let i = 0; i < c.numbers; i++) {
    const p = blockRate[Math.floor(i / c.answerRate.blockSize)];
    const r = rnd.next();
    const o: Outcome =
      r < p ? 'answered' : r < p + c.busyRate ? 'busy' : r < p + c.busyRate + c.invalidRate ? 'invalid' : 'noAnswer';
    outcome.push(o);
    ringMs.push(
      o === 'answered'
        ? rnd.logNormal(c.ringAnswered)
        : o === 'noAnswer'
          ? c.ringTimeoutMs
          : rnd.uniform(c.failFast.minMs, c.failFast.maxMs),
    );
    talkMs.push(o === 'answered' ? rnd.logNormal(c.talk) : 0);
  }
  return { outcome, ringMs, talkMs };
};
