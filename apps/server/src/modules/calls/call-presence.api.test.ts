import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { callPresence } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { presenceBeat, presenceLogin } from './call-presence';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const seenOf = async (connId: string) =>
  (await t.app.db.select({ seenAt: callPresence.seenAt }).from(callPresence).where(eq(callPresence.connId, connId)))[0]?.seenAt;

it('heartbeats of several sockets are written together within a second, each only in its own company', async () => {
  const ids = ['beat-a', 'beat-b', 'beat-other'];
  for (const connId of ids) await presenceLogin(t.app.db, { connId, tenantId: 1, staffId: 1, instanceId: 'beat-test' });
  const old = new Date(Date.now() - 60_000);
  await t.app.db.update(callPresence).set({ seenAt: old }).where(inArray(callPresence.connId, ids));

  const before = Date.now();
  presenceBeat(t.app.db, 1, 'beat-a');
  presenceBeat(t.app.db, 1, 'beat-b');
  // a beat naming another company does not move this company's socket
  presenceBeat(t.app.db, 2, 'beat-other');
  expect((await seenOf('beat-a'))?.getTime()).toBe(old.getTime());

  await expect
    .poll(async () => (await seenOf('beat-b'))?.getTime() ?? 0, { timeout: 3_000, interval: 100 })
    .toBeGreaterThanOrEqual(before);
  expect((await seenOf('beat-a'))?.getTime()).toBeGreaterThanOrEqual(before);
  expect(Date.now() - before).toBeLessThan(2_500);
  expect((await seenOf('beat-other'))?.getTime()).toBe(old.getTime());
});
