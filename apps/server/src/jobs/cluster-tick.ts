import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from './queue';

/** How long one instance holds a tick's lease (one queue job) before it hands it on or takes it again. */
export const LEASE_SECONDS = 10;
/**
 * A lease job still active this long after it started is failed by the queue's maintenance (every
 * 20 s): the lease of an instance that died (kill -9) passes to another within about 45 s.
 */
const LEASE_EXPIRE_SECONDS = LEASE_SECONDS + 5;

/**
 * Offers a tick's next lease (a send that adds nothing while one waits) and takes it if it is free.
 * The fetch ignores the job's start time: pg-boss takes only jobs whose `start_after` (the send's
 * `now()`) is before the fetch's `now()`, and the embedded database's clock counts milliseconds, so a
 * fetch in the same millisecond as its send found nothing and the holder lost its own lease for
 * LEASE_SECONDS (the dialers paused; seen as a rare flake of the seat-task tests). A lease is never
 * sent to start later, so nothing waits that should not be taken.
 */
export const takeLease = async (queue: JobQueue, name: string) => {
  await queue.send(name, {}, { singletonKey: name, retryLimit: 0 });
  const [job] = await queue.boss.fetch(name, { ignoreStartAfter: true });
  return job;
};

/**
 * A tick that runs once in the cluster every `everyMs` (the dialers' ticks, issue 15/16), through
 * the durable queue without a job each tick (issue 25: a job a second cost every instance a send,
 * two polls and a completion each second). The queue `name` is `stately`: at most one lease job
 * waiting and one active. Every instance offers the next lease (a send that adds nothing while one
 * waits) and tries to take it, every LEASE_SECONDS; the instance that takes it runs `tick` every
 * `everyMs` for LEASE_SECONDS, completes the job and at once offers and takes the next one, so it
 * keeps ticking while it lives; another instance takes over within a lease after it stops (and
 * within the expiry plus maintenance after a kill -9). Idle, each instance costs the database about
 * three statements per lease. The first offer is made at once; the returned stop ends this
 * instance's lease (awaited) and is also run when the queue stops.
 */
export const everyInCluster = async (
  queue: JobQueue,
  name: string,
  everyMs: number,
  tick: () => Promise<void>,
  log: FastifyBaseLogger,
): Promise<() => Promise<void>> => {
  await queue.define(name, { policy: 'stately', expireInSeconds: LEASE_EXPIRE_SECONDS });
  const state = { isStopped: false, cancelSleep: () => {} };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, ms));
      timer.unref?.();
      state.cancelSleep = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  /** Runs the tick every `everyMs` until the lease ends (or the stop), then completes the job. */
  const hold = async (jobId: string) => {
    const until = Date.now() + LEASE_SECONDS * 1000;
    try {
      while (!state.isStopped) {
        const started = Date.now();
        try {
          await tick();
        } catch (err) {
          log.error({ err, queue: name }, 'cluster tick failed');
        }
        const next = started + everyMs;
        if (next >= until || state.isStopped) break;
        await sleep(next - Date.now());
      }
    } finally {
      await queue.boss.complete(name, jobId).catch((err) => log.warn({ err, queue: name }, 'cluster tick lease not completed'));
    }
  };

  /** Offers the next lease and tries to take it; true when this instance took it and held it. */
  const offerAndTake = async () => {
    const job = await takeLease(queue, name);
    if (!job) return false;
    await hold(job.id);
    return true;
  };

  const loop = async () => {
    while (!state.isStopped) {
      let held = false;
      try {
        held = await offerAndTake();
      } catch (err) {
        if (!state.isStopped) log.error({ err, queue: name }, 'cluster tick lease offer failed');
      }
      // the holder takes the next lease at once; the others ask again in a lease's time
      if (!held && !state.isStopped) await sleep(LEASE_SECONDS * 1000);
    }
  };
  const running = loop();
  const stop = async () => {
    state.isStopped = true;
    state.cancelSleep();
    await running;
  };
  queue.onStop(stop);
  return stop;
};
