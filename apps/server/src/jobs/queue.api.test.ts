import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { queryRows } from '../db/client';
import { createTestApp, type TestApp } from '../test/harness';
import { everyInCluster, LEASE_SECONDS, takeLease } from './cluster-tick';
import { PURGE_CRON, RECYCLE_CRON, schedulePoolRecycling } from './pool-recycling';

let t: TestApp;
/** A second server instance on the same database (a cluster of two). */
let second: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  t = await createTestApp();
  second = await buildApp(t.app.config, t.database);
  await second.ready();
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
afterEach(() => vi.useRealTimers());

describe('the durable queue schedules once per cluster', () => {
  it('two instances sweep calls through one job per second, never one each', async () => {
    await sleep(3_500);
    const rows = await queryRows<{ slot: string; n: number; states: string }>(
      t.database.db,
      sql`select singleton_on::text as slot, count(*)::int as n, string_agg(state::text, ',') as states
         from (select singleton_on, state from pgboss.job where name = 'calls-sweep'
               union all select singleton_on, state from pgboss.archive where name = 'calls-sweep') j
        group by singleton_on order by singleton_on`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const r of rows) expect(r.n, r.slot).toBe(1);
    expect(rows.filter((r) => r.states === 'completed').length).toBeGreaterThanOrEqual(1);
  });

  it('pool recycling and the purge are cron schedules kept once in the database, whoever schedules them', async () => {
    await schedulePoolRecycling(t.app.queue, t.app.db, t.app.log);
    await schedulePoolRecycling(second.queue, second.db, second.log);
    const rows = await queryRows<{ name: string; cron: string }>(
      t.database.db,
      sql`select name, cron from pgboss.schedule where name in ('pools-recycle', 'customers-purge') order by name`,
    );
    expect(rows).toEqual([
      { name: 'customers-purge', cron: PURGE_CRON },
      { name: 'pools-recycle', cron: RECYCLE_CRON },
    ]);
  });

  it('a job sent on this instance starts at once, though its queue polls only every minute', async () => {
    const started: number[] = [];
    await t.app.queue.work('test-wake', { pollingIntervalSeconds: 60, concurrency: 2 }, async () => {
      started.push(Date.now());
    });
    await sleep(300);
    const sentAt = Date.now();
    for (let i = 0; i < 3; i++) await t.app.queue.send('test-wake', { i });
    for (let i = 0; i < 50 && started.length < 3; i++) await sleep(100);
    // three jobs for two workers: the third is fetched when a worker ends, not at the next poll
    expect(started).toHaveLength(3);
    expect(Math.max(...started) - sentAt).toBeLessThan(3_000);
  });

  it('a cluster tick runs on one instance at a time and passes to another when its holder stops', async () => {
    const ticks: string[] = [];
    const stopFirst = await everyInCluster(t.app.queue, 'test-tick', 200, async () => void ticks.push('first'), t.app.log);
    const stopSecond = await everyInCluster(second.queue, 'test-tick', 200, async () => void ticks.push('second'), second.log);
    await sleep(2_000);
    const holder = ticks[0];
    expect(ticks.length).toBeGreaterThanOrEqual(5);
    expect(new Set(ticks).size).toBe(1);
    // the holder stops (completes its lease): the other takes the next one within a lease
    await (holder === 'first' ? stopFirst : stopSecond)();
    const other = holder === 'first' ? 'second' : 'first';
    const stoppedAt = Date.now();
    while (!ticks.includes(other) && Date.now() - stoppedAt < (LEASE_SECONDS + 5) * 1_000) await sleep(200);
    expect(ticks).toContain(other);
    await (holder === 'first' ? stopSecond : stopFirst)();
  }, 40_000);

  it('the holder of a tick takes its next lease at once, even offered and taken in the same millisecond', async () => {
    await t.app.queue.define('test-lease', { policy: 'stately', expireInSeconds: 15 });
    // the embedded database's now() follows the process clock: stopped, the send and the fetch
    // share one millisecond (pg-boss fetched only jobs sent strictly before)
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let lease = 0; lease < 3; lease++) {
      const job = await takeLease(t.app.queue, 'test-lease');
      expect(job, `lease ${lease}`).toBeDefined();
      // held: another offer adds nothing to take
      expect(await takeLease(second.queue, 'test-lease')).toBeUndefined();
      await t.app.queue.boss.complete('test-lease', (job as { id: string }).id);
    }
  });
});
