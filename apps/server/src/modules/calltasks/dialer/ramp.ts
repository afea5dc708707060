/**
 * The ratio's ceiling for one group task (issue 23): a predictive dialer for small teams.
 * Pure: no clock, no timers; the Pacer owns one and tells it what happened.
 *
 * Why: the adaptive controller (pacing.ts) pools the answers of many agents. With one or two agents
 * there is nothing to pool: two customers answering at once for one agent is one abandon, and one
 * agent dialled at 1 / 0.3 ≈ 3 numbers abandoned 2 of 3 and 4 of 4 answered customers. So on top of
 * the controller's ratio the dialer keeps a ceiling:
 *
 * - **start at 1** (power dialling: one line per idle agent, never an abandon) and stay there until
 *   the answer rate is measured (`isMeasured`: the Pacer's warm-up over and at least
 *   `minOutcomes` outcomes);
 * - **rise only on evidence**: each answered customer who reached an agent raises the ceiling by
 *   `risePerConnect / agents` (one agent's worth of connected calls lifts it by risePerConnect), and
 *   only while the recent abandons are within the target;
 * - **cap for small teams**: never above `teamCap(agents)` = 1 + (maxRatio − 1) × agents / (agents +
 *   teamCapHalf), i.e. with the defaults (maxRatio 5, half 25) 1 agent ≤ 1.15 lines per idle agent,
 *   2 ≤ 1.30, 3 ≤ 1.43, 5 ≤ 1.67, 10 ≤ 2.14, 20 ≤ 2.78, 50 ≤ 3.67; with a ceiling the dial count is
 *   rounded down, so one agent never has a second line (1.15 − one ringing call < 1: he is power
 *   dialled, which the bench shows is right: nothing to pool), and the lines never exceed the task's limit;
 * - **drop at once on an abandon**: the ceiling's excess over 1 is cut to `(1 − dropShare(agents))`
 *   with dropShare = min(1, dropAgents / agents): with up to dropAgents agents the ratio is back at 1
 *   at once, with more the cut is smaller (one abandon in a large team is less of a signal).
 *
 * The team is the task's agents counted as working (the runner's count of agents in work mode).
 */

export interface RampSettings {
  /** Outcomes (answered or not) needed before the ceiling may leave 1. */
  minOutcomes: number;
  /** How much one agent's worth of connected calls raises the ceiling. */
  risePerConnect: number;
  /** The team cap reaches half of maxRatio − 1 at this many agents. */
  teamCapHalf: number;
  /** Teams of up to this many agents go back to ratio 1 on an abandon. */
  dropAgents: number;
}

export const DEFAULT_RAMP: RampSettings = {
  minOutcomes: 10,
  risePerConnect: 2,
  teamCapHalf: 25,
  dropAgents: 3,
};

/** The most lines per idle agent for a team of `agents` (1 for none: nothing to pool). */
export const teamCap = (agents: number, maxRatio: number, s: RampSettings = DEFAULT_RAMP) => {
  const n = Number.isFinite(agents) && agents > 0 ? Math.floor(agents) : 0;
  if (n === 0) return 1;
  return 1 + ((maxRatio - 1) * n) / (n + s.teamCapHalf);
};

/** Share of the ceiling's excess over 1 that an abandon takes away. */
export const dropShare = (agents: number, s: RampSettings = DEFAULT_RAMP) =>
  agents <= s.dropAgents ? 1 : Math.min(1, s.dropAgents / agents);

export class RatioRamp {
  private ceiling = 1;
  private agents = 1;

  constructor(
    private readonly maxRatio: number,
    private readonly minRatio: number,
    private readonly s: RampSettings = DEFAULT_RAMP,
  ) {}

  /** The team now (from the decision's input): the cap follows it at once. */
  team(agents: number) {
    this.agents = Math.max(1, Number.isFinite(agents) ? Math.floor(agents) : 1);
  }

  /** An answered call reached an agent: evidence that dialling ahead works, if the answer rate is measured. */
  connected(isMeasured: boolean, recentWithinTarget: boolean) {
    if (!isMeasured || !recentWithinTarget) return;
    this.ceiling = Math.min(this.cap(), this.ceiling + this.s.risePerConnect / this.agents);
  }

  /** An answered call found no agent: the ratio drops at once. */
  abandoned() {
    const floor = Math.max(1, this.minRatio);
    this.ceiling = floor + (this.ceiling - floor) * (1 - dropShare(this.agents, this.s));
  }

  cap() {
    return Math.max(this.minRatio, teamCap(this.agents, this.maxRatio, this.s));
  }

  /** The highest ratio allowed now. */
  value(isMeasured: boolean) {
    if (!isMeasured) return Math.max(1, this.minRatio);
    return Math.max(this.minRatio, Math.min(this.cap(), this.ceiling));
  }
}
