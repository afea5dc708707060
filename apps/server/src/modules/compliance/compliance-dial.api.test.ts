import type { DialResponse } from '@crm/contracts';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRecords, dialRefusals, staff } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { setClockOffsetMs } from '../../lib/clock';
import { formatDateTime, toDate } from '../../lib/time';
import { createCallTestApp, endedCall, mobileEnding, readyLine } from '../../test/calls';
import type { TestApp } from '../../test/harness';
import { originateCustomerLeg } from '../calls/call-control';
import { checkCapsInTx } from '../calls/dial-policy';

// Calling compliance for every dial (issue 15): calling hours for manual dials, per-number caps
// across the company (agent dials and server legs count alike), each at both edges, and the
// refusal log. Numbers ending in 7 are 空号 on the sim line: each call ends at once.

let t: TestApp;
let tenantId: number;
let lisiId: number;
const tokens: Record<string, string> = {};
const ALL_DAY = { from: '00:00', to: '24:00' };
const DEFAULTS = { manualObeysHours: true, capPer5Min: 3, capPerDay: 5, dncRetentionMonths: 6 };

/** Sets the business clock to a Beijing wall-clock time ('2026-12-01 20:59:59'). */
const clockAt = (beijing: string) => {
  const at = toDate(`${beijing}+08`);
  setClockOffsetMs(at.getTime() - Date.now());
  return at;
};
const saveSettings = async (patch: Record<string, unknown>) => {
  const body = { callerNumber: '', callHours: ALL_DAY, bridgeMode: '3pcc', ...DEFAULTS, ...patch };
  const res = await t.post('/api/frontend/callsetting/save', body, tokens.admin);
  expect(res.json(), res.body).toMatchObject({ code: 0 });
};
const dial = (dstNumber: string, user = 'lisi') => t.post('/api/frontend/call/dial', { dstNumber }, tokens[user]);
/** An agent's dial that goes through; its call ended (空号) before the next. */
const dialled = async (dstNumber: string, user = 'lisi') => {
  const res = await dial(dstNumber, user);
  expect(res.json(), res.body).toMatchObject({ code: 0 });
  return endedCall(t, (res.json().data as DialResponse).uuid);
};
const refused = async (dstNumber: string, user = 'lisi') => {
  const res = await dial(dstNumber, user);
  expect(res.statusCode, res.body).toBe(400);
  return res.json() as { code: number; msg: string };
};
const serverLeg = (number: string) => originateCustomerLeg(t.app.calls, { tenantId, number, ringSeconds: 5 });
const legRefusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, msg: err.message };
    throw err;
  }
  return undefined;
};
const refusalsOf = (phone: string) =>
  t.database.db
    .select()
    .from(dialRefusals)
    .where(and(eq(dialRefusals.tenantId, tenantId), eq(dialRefusals.phone, phone)))
    .orderBy(asc(dialRefusals.id));

beforeAll(async () => {
  t = await createCallTestApp();
  for (const u of ['admin', 'lisi', 'wangwu']) tokens[u] = await t.login(u);
  const [me] = await t.database.db.select().from(staff).where(eq(staff.username, 'lisi'));
  tenantId = me.tenantId;
  lisiId = me.id;
  await readyLine(t, tokens.lisi);
  await readyLine(t, tokens.wangwu);
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('calling hours for manual dials', () => {
  it('20:59:59 Beijing is dialled, 21:00:00 refused with 110024; 08:00:00 dialled, 07:59:59 refused; logged', async () => {
    await saveSettings({ callHours: { from: '08:00', to: '21:00' } });
    try {
      const n = mobileEnding(7);
      clockAt('2026-12-01 20:59:59');
      await dialled(n);
      clockAt('2026-12-01 21:00:00');
      expect(await refused(n)).toEqual({ code: 110024, msg: '当前不在允许外呼的时段（08:00–21:00），请稍后再拨', data: null });
      clockAt('2026-12-02 07:59:59');
      expect((await refused(n)).code).toBe(110024);
      clockAt('2026-12-02 08:00:00');
      await dialled(n);
      const logged = await refusalsOf(n);
      expect(logged.map((r) => [r.code, r.origin, r.staffId])).toEqual([
        [110024, 0, lisiId],
        [110024, 0, lisiId],
      ]);
      expect(logged[0].reason).toBe('当前不在允许外呼的时段（08:00–21:00），请稍后再拨');
      expect(formatDateTime(logged[0].createdAt).slice(0, 16)).toBe('2026-12-01 21:00');
    } finally {
      await saveSettings({});
    }
  });

  it('a company may let manual dials out of the hours; server legs still obey them', async () => {
    await saveSettings({ callHours: { from: '08:00', to: '21:00' }, manualObeysHours: false });
    try {
      const n = mobileEnding(7);
      clockAt('2026-12-03 21:00:00');
      await dialled(n);
      expect(await legRefusal(serverLeg(mobileEnding(7)))).toMatchObject({ code: 110024 });
      // a task call by an agent obeys them whatever the setting
      const res = await t.post('/api/frontend/call/dial', { dstNumber: mobileEnding(7), cmStid: 5 }, tokens.lisi);
      expect(res.json().code).toBe(110024);
    } finally {
      await saveSettings({});
    }
  });
});

describe('per-number caps across the company', () => {
  it('5 minutes: the 3rd call is placed, the 4th refused until the first is 5 minutes old', async () => {
    const n = mobileEnding(7);
    const t0 = clockAt('2026-12-05 10:00:00');
    await dialled(n);
    clockAt('2026-12-05 10:01:00');
    await dialled(n, 'wangwu');
    clockAt('2026-12-05 10:02:00');
    await dialled(n); // the 3rd
    clockAt('2026-12-05 10:03:00');
    expect(await refused(n)).toMatchObject({ code: 115002, msg: '该号码5分钟内已呼叫3次，请于10:05:00后再拨' });
    // a server leg to the number is refused too, and logged as the system's
    expect(await legRefusal(serverLeg(n))).toMatchObject({ code: 115002 });
    // exactly at the edge: a call 5 minutes old no longer counts
    const [first] = await t.database.db
      .select({ startAt: callRecords.startAt })
      .from(callRecords)
      .where(eq(callRecords.calledNumber, n))
      .orderBy(asc(callRecords.startAt))
      .limit(1);
    const edge = first.startAt.getTime() + 5 * 60_000;
    expect(first.startAt.getTime() - t0.getTime()).toBeLessThan(1000);
    expect(await legRefusal(checkCapsInTx(t.app.db, tenantId, n, new Date(edge - 1)))).toMatchObject({ code: 115002 });
    await checkCapsInTx(t.app.db, tenantId, n, new Date(edge));
    clockAt('2026-12-05 10:05:01');
    await dialled(n);
    expect((await refusalsOf(n)).map((r) => [r.code, r.origin])).toEqual([
      [115002, 0],
      [115002, 1],
    ]);
  });

  it('24 hours: the 5th call is placed, the 6th refused until the first is a day old; server legs count', async () => {
    const n = mobileEnding(7);
    clockAt('2026-12-10 09:00:00');
    await dialled(n);
    clockAt('2026-12-10 10:00:00');
    const leg = await serverLeg(n);
    await endedCall(t, leg.callUuid);
    for (const hhmm of ['11:00', '12:00']) {
      clockAt(`2026-12-10 ${hhmm}:00`);
      await dialled(n);
    }
    clockAt('2026-12-10 13:00:00');
    await dialled(n); // the 5th
    clockAt('2026-12-10 14:00:00');
    expect(await refused(n)).toMatchObject({ code: 115003, msg: '该号码24小时内已呼叫5次，请于2026-12-11 09:00:00后再拨' });
    clockAt('2026-12-11 08:59:59');
    expect((await refused(n)).code).toBe(115003);
    clockAt('2026-12-11 09:00:01');
    await dialled(n);
    // a number's caps are its own: another number is dialled
    await dialled(mobileEnding(7));
  });

  it('0 is no cap; the settings take effect at once', async () => {
    await saveSettings({ capPer5Min: 0, capPerDay: 0 });
    try {
      const n = mobileEnding(7);
      clockAt('2026-12-12 10:00:00');
      for (let i = 0; i < 6; i++) await dialled(n);
      await saveSettings({ capPer5Min: 7, capPerDay: 7 });
      await dialled(n);
      expect(await refused(n)).toMatchObject({ code: 115002, msg: '该号码5分钟内已呼叫7次，请于10:05:00后再拨' });
    } finally {
      await saveSettings({});
    }
  });

  it('two legs at once to a number one call under its cap: one is placed, the other refused', async () => {
    const n = mobileEnding(7);
    clockAt('2026-12-14 10:00:00');
    await dialled(n);
    await dialled(n);
    const results = await Promise.allSettled([serverLeg(n), serverLeg(n), serverLeg(n)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const reasons = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as AppError).code] : []));
    expect(reasons).toEqual([115002, 115002]);
    const rows = await t.database.db.select().from(callRecords).where(eq(callRecords.calledNumber, n));
    expect(rows).toHaveLength(3);
    for (const r of results) if (r.status === 'fulfilled') await endedCall(t, r.value.callUuid);
  });

  it("another company's calls to the number do not count", async () => {
    const n = mobileEnding(7);
    clockAt('2026-12-15 10:00:00');
    for (let i = 0; i < 3; i++) await dialled(n);
    const other = (await t.database.db.select().from(staff).where(eq(staff.username, 'other_admin')))[0].tenantId;
    await t.post(
      '/api/frontend/callsetting/save',
      { callerNumber: '', callHours: ALL_DAY, bridgeMode: '3pcc' },
      await t.login('other_admin'),
    );
    const leg = await originateCustomerLeg(t.app.calls, { tenantId: other, number: n, ringSeconds: 5 });
    await endedCall(t, leg.callUuid);
    expect((await refused(n)).code).toBe(115002);
  });
});
