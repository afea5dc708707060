import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPubSub } from './pubsub';
import { connectSettingsCache, registerSettingsRoot, settingsCache, settingsVersion } from './settings-cache';

// A fake database handle: what the loader reads, and how often it was asked.
const fakeDb = () => ({ value: { n: 1, list: [1, 2] }, reads: 0 });
type FakeDb = ReturnType<typeof fakeDb>;
const load = async (db: FakeDb, tenantId: number) => {
  db.reads++;
  return { tenantId, ...structuredClone(db.value) };
};

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
  vi.useRealTimers();
});
const root = () => {
  const db = fakeDb();
  cleanups.push(registerSettingsRoot(db));
  return db;
};

describe('settings cache', () => {
  it('reads a company once, keeps companies and databases apart, and hands out frozen values', async () => {
    const cache = settingsCache('t-once', load);
    const a = root();
    const b = root();
    expect((await cache.get(a, 1)).n).toBe(1);
    await cache.get(a, 1);
    expect(a.reads).toBe(1);
    await cache.get(a, 2);
    expect(a.reads).toBe(2);
    b.value.n = 7;
    expect((await cache.get(b, 1)).n).toBe(7);
    const got = await cache.get(a, 1);
    expect(Object.isFrozen(got) && Object.isFrozen(got.list)).toBe(true);
    expect(() => got.list.push(3)).toThrow(TypeError);
  });

  it('does not cache reads through a handle that is not a registered root (a transaction)', async () => {
    const cache = settingsCache('t-tx', load);
    const tx = fakeDb();
    await cache.get(tx, 1);
    await cache.get(tx, 1);
    expect(tx.reads).toBe(2);
  });

  it('an invalidation reaches every process on the bus; reads go to the database for 2 s after it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = settingsCache('t-bus', load);
    const here = root();
    const there = root();
    const busHere = createMemoryPubSub('settings-cache-test');
    const busThere = createMemoryPubSub('settings-cache-test');
    cleanups.push(await connectSettingsCache(busHere));
    cleanups.push(await connectSettingsCache(busThere));
    await cache.get(here, 1);
    await cache.get(there, 1);
    there.value.n = 2;
    const at = Date.now();
    cache.invalidate(1);
    await vi.waitFor(async () => expect((await cache.get(there, 1)).n).toBe(2));
    const reads = there.reads;
    // still settling (a write in a transaction may not be committed yet): not kept
    vi.setSystemTime(at + 1_999);
    await cache.get(there, 1);
    await cache.get(there, 1);
    expect(there.reads).toBe(reads + 2);
    // settled: kept again
    vi.setSystemTime(at + 2_001);
    await cache.get(there, 1);
    await cache.get(there, 1);
    expect(there.reads).toBe(reads + 3);
  });

  it('keeps a value at most 30 s without an invalidation, and never keeps a failed read', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = settingsCache('t-ttl', load);
    const db = root();
    await cache.get(db, 1);
    vi.setSystemTime(Date.now() + 29_999);
    await cache.get(db, 1);
    expect(db.reads).toBe(1);
    vi.setSystemTime(Date.now() + 2);
    await cache.get(db, 1);
    expect(db.reads).toBe(2);

    let fail = true;
    const flaky = settingsCache('t-fail', async (d: FakeDb, tenantId: number) => {
      if (fail) throw new Error('database gone');
      return load(d, tenantId);
    });
    await expect(flaky.get(db, 1)).rejects.toThrow('database gone');
    fail = false;
    expect((await flaky.get(db, 1)).n).toBe(1);
  });

  it('a version: a value read before a drop on any process no longer holds; none holds while a drop settles', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const version = settingsVersion('t-version');
    const busHere = createMemoryPubSub('settings-version-test');
    const busThere = createMemoryPubSub('settings-version-test');
    cleanups.push(await connectSettingsCache(busHere));
    cleanups.push(await connectSettingsCache(busThere));
    const readAt = Date.now();
    expect(version.isCurrent(1, readAt)).toBe(true);
    vi.setSystemTime(readAt + 10);
    version.invalidate(1);
    // the other company's values still hold
    expect(version.isCurrent(2, readAt)).toBe(true);
    expect(version.isCurrent(1, readAt)).toBe(false);
    // read after the drop, but while it settles: not to be kept
    vi.setSystemTime(readAt + 10 + 1_999);
    expect(version.isCurrent(1, Date.now())).toBe(false);
    // settled: a read after the drop holds, one read before it still does not
    vi.setSystemTime(readAt + 10 + 2_001);
    expect(version.isCurrent(1, Date.now())).toBe(true);
    expect(version.isCurrent(1, readAt)).toBe(false);
    expect(version.isCurrent(1, readAt + 10)).toBe(false);
  });
});
