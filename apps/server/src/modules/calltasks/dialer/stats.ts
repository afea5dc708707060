/**
 * Accumulators behind the dialer's decisions and the group-call board. Pure: every method takes
 * `now` (ms, a clock that does not go backwards; an earlier time is treated as the latest one seen).
 */

const DAY_MS = 86_400_000;
const BEIJING_OFFSET_MS = 8 * 3_600_000;

/** The Beijing calendar day of an epoch-ms time, as a day number. */
export const beijingDay = (now: number) => Math.floor((now + BEIJING_OFFSET_MS) / DAY_MS);

/**
 * Timestamped yes/no outcomes over a sliding window: an outcome recorded at t counts while
 * now − t < windowMs (one exactly windowMs old is out), and only the newest maxCount count.
 */
export class OutcomeWindow {
  private readonly at: number[] = [];
  private readonly hit: boolean[] = [];
  private head = 0;
  private hits = 0;
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    readonly windowMs: number,
    readonly maxCount = Number.POSITIVE_INFINITY,
  ) {
    if (!(windowMs > 0)) throw new RangeError('windowMs must be > 0');
    if (!(maxCount >= 1)) throw new RangeError('maxCount must be ≥ 1');
  }

  record(now: number, hit: boolean) {
    const t = Math.max(now, this.last);
    this.last = t;
    this.at.push(t);
    this.hit.push(hit);
    if (hit) this.hits++;
    this.prune(t);
  }

  /** Outcomes in the window, and how many of them were hits. */
  counts(now: number): { total: number; hits: number } {
    this.prune(Math.max(now, this.last));
    return { total: this.at.length - this.head, hits: this.hits };
  }

  /**
   * Hits / total in the window; with a prior, (hits + prior.rate × prior.weight) / (total + prior.weight),
   * so a thin window leans on the prior. Null when there is neither an outcome nor a prior.
   */
  rate(now: number, prior?: { rate: number; weight: number }): number | null {
    const { total, hits } = this.counts(now);
    const w = prior && prior.weight > 0 ? prior.weight : 0;
    if (total + w === 0) return null;
    return (hits + (prior ? prior.rate * w : 0)) / (total + w);
  }

  private prune(now: number) {
    const from = now - this.windowMs;
    while (this.head < this.at.length && (this.at[this.head] <= from || this.at.length - this.head > this.maxCount)) {
      if (this.hit[this.head]) this.hits--;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.at.length) {
      this.at.splice(0, this.head);
      this.hit.splice(0, this.head);
      this.head = 0;
    }
  }
}

export interface DaySnapshot {
  answered: number;
  connected: number;
  abandoned: number;
  /** abandoned / answered (0 before the first answer). */
  abandonRate: number;
  /** Mean time from answer to an agent over the connected calls, ms (0 before the first). */
  avgWaitMs: number;
}

/** Answered, connected and abandoned calls of the (Beijing) day; starts over when the day changes. */
export class DayStats {
  private day: number | null = null;
  private answered = 0;
  private connected = 0;
  private abandoned = 0;
  private waitSum = 0;

  /** A customer answered (every abandoned call was answered first). */
  answer(now: number) {
    this.roll(now);
    this.answered++;
  }

  /** An answered call reached an agent after waitMs. */
  connect(now: number, waitMs: number) {
    this.roll(now);
    this.connected++;
    this.waitSum += Math.max(0, waitMs);
  }

  /** An answered call found no agent in time. */
  abandon(now: number) {
    this.roll(now);
    this.abandoned++;
  }

  snapshot(now: number): DaySnapshot {
    this.roll(now);
    return {
      answered: this.answered,
      connected: this.connected,
      abandoned: this.abandoned,
      abandonRate: this.answered > 0 ? this.abandoned / this.answered : 0,
      avgWaitMs: this.connected > 0 ? this.waitSum / this.connected : 0,
    };
  }

  private roll(now: number) {
    const d = beijingDay(now);
    if (this.day === null || d > this.day) {
      if (this.day !== null) {
        this.answered = 0;
        this.connected = 0;
        this.abandoned = 0;
        this.waitSum = 0;
      }
      this.day = d;
    }
  }
}

export type AgentState = 'off' | 'free' | 'talking' | 'wrapup';

export interface OccupancySnapshot {
  /** Accumulated ms per state (off excluded), open intervals counted up to now. */
  freeMs: number;
  talkingMs: number;
  wrapupMs: number;
  /** (talking + wrap-up) / logged-in time; 0 before anyone logged in. */
  occupancy: number;
  /** Agents in each state now. */
  free: number;
  talking: number;
  wrapup: number;
}

/** Agent occupancy: talk + wrap-up time over logged-in time, from state changes. */
export class OccupancyTracker {
  private readonly agents = new Map<string | number, { state: AgentState; since: number }>();
  private readonly totals = { free: 0, talking: 0, wrapup: 0 };
  private readonly now = { free: 0, talking: 0, wrapup: 0 };
  private last = Number.NEGATIVE_INFINITY;

  set(agent: string | number, state: AgentState, now: number) {
    const t = Math.max(now, this.last);
    this.last = t;
    const cur = this.agents.get(agent);
    if (cur) {
      if (cur.state !== 'off') {
        this.totals[cur.state] += t - cur.since;
        this.now[cur.state]--;
      }
    }
    if (state !== 'off') this.now[state]++;
    this.agents.set(agent, { state, since: t });
  }

  state(agent: string | number): AgentState {
    return this.agents.get(agent)?.state ?? 'off';
  }

  snapshot(now: number): OccupancySnapshot {
    const t = Math.max(now, this.last);
    const ms = { ...this.totals };
    for (const a of this.agents.values()) if (a.state !== 'off') ms[a.state] += t - a.since;
    const busy = ms.talking + ms.wrapup;
    const logged = busy + ms.free;
    return {
      freeMs: ms.free,
      talkingMs: ms.talking,
      wrapupMs: ms.wrapup,
      occupancy: logged > 0 ? busy / logged : 0,
      free: this.now.free,
      talking: this.now.talking,
      wrapup: this.now.wrapup,
    };
  }
}

/** Occupancy between two snapshots (e.g. one simulated hour). */
export const occupancyBetween = (a: OccupancySnapshot, b: OccupancySnapshot) => {
  const busy = b.talkingMs - a.talkingMs + (b.wrapupMs - a.wrapupMs);
  const logged = busy + (b.freeMs - a.freeMs);
  return logged > 0 ? busy / logged : 0;
};
