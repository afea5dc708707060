import type { CallRuntime } from '../modules/calls/call-bus';
import { hasDialerWork } from '../modules/calltasks/calltasks-runner.repo';

/** A "nothing to dial" answer of the database is trusted this long before the ticks ask again. */
export const QUIET_RECHECK_MS = 15_000;
/** A "there is work" answer is trusted this long (the ticks run meanwhile; then the database is asked again). */
const BUSY_RECHECK_MS = 10_000;
/** The ended task calls are settled at most this often in a process, whichever tick comes first. */
const SETTLE_EVERY_MS = 900;
/** The pub/sub channel (every instance with Redis, this process without) that wakes the dialers' ticks. */
export const DIALER_WAKE_CHANNEL = 'dialers:wake';

/**
 * Whether the seat, group and AI dialers' 1 s ticks (issue 25) have anything to do, shared by the
 * three ticks of one app: work exists while a task runs or a task number is being dialled (its
 * call, or a claim whose call never came, waits to be settled). Without either, no tick can dial or
 * settle anything, so the ticks skip their SQL. The answer comes from one indexed look-up
 * (`hasDialerWork`), asked again after QUIET_RECHECK_MS when quiet and BUSY_RECHECK_MS when busy;
 * a task started or resumed wakes the ticks at once (`wake`, through the pub/sub channel: every
 * instance with Redis, this one without), so a task started on an instance the wake does not reach
 * is dialled within QUIET_RECHECK_MS plus a tick. A restarted process starts not knowing, so its
 * first tick asks. Also keeps the settlement of ended task calls to one per second per process,
 * whichever of the three ticks comes first (each used to settle each second).
 */
export class DialerActivity {
  /** Date.now() of the last answer, and the answer */
  private checkedAt = Number.NEGATIVE_INFINITY;
  private isBusyNow = true;
  /** moves on each wake: an answer asked before a wake is not trusted as quiet */
  private generation = 0;
  private asking: Promise<boolean> | undefined;
  private settledAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly ask: () => Promise<boolean>,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Something may have become due (a task started): the next tick asks the database. */
  wake() {
    this.generation++;
    this.checkedAt = Number.NEGATIVE_INFINITY;
    this.isBusyNow = true;
  }

  /** Whether the ticks should run now (false: nothing can be due, skip the SQL). */
  async isBusy(): Promise<boolean> {
    const age = this.clock() - this.checkedAt;
    if (age < (this.isBusyNow ? BUSY_RECHECK_MS : QUIET_RECHECK_MS)) return this.isBusyNow;
    this.asking ??= this.askNow().finally(() => {
      this.asking = undefined;
    });
    return this.asking;
  }

  private async askNow() {
    const generation = this.generation;
    const startedAt = this.clock();
    const isBusy = await this.ask();
    // a wake during the look-up: its answer may predate the start, so ask again next time
    if (generation !== this.generation) return true;
    this.checkedAt = startedAt;
    this.isBusyNow = isBusy;
    return isBusy;
  }

  /** Runs `settle` unless a tick of this process settled less than SETTLE_EVERY_MS ago (then: nothing changed here). */
  async settleShared(settle: () => Promise<Map<number, number>>): Promise<Map<number, number>> {
    const at = this.clock();
    if (at - this.settledAt < SETTLE_EVERY_MS) return new Map();
    this.settledAt = at;
    return settle();
  }
}

const byRuntime = new WeakMap<CallRuntime, DialerActivity>();

/** The dialers' activity of one app (its calls runtime): made on first use, woken through the pub/sub. */
export const dialerActivityOf = (rt: CallRuntime): DialerActivity => {
  let activity = byRuntime.get(rt);
  if (!activity) {
    const made = new DialerActivity(() => hasDialerWork(rt.db));
    activity = made;
    byRuntime.set(rt, made);
    // until subscribed, the quiet answer is not trusted past its recheck: nothing is lost
    void rt.bus.subscribe(DIALER_WAKE_CHANNEL, () => made.wake()).catch(() => undefined);
  }
  return activity;
};

/** Wakes every instance's dialers (a task started or resumed). */
export const wakeDialers = (rt: Pick<CallRuntime, 'bus'>) => rt.bus.publish(DIALER_WAKE_CHANNEL, {});
