import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blackNumbers, callSettings, staff, tenants } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { toDate } from '../../lib/time';
import { createCallTestApp, mobileEnding } from '../../test/calls';
import { demoValues, fetchTemplate, mustCreate, type Template } from '../../test/customers';
import type { TestApp } from '../../test/harness';
import * as repo from './calls.repo';
import { CALL_SETTINGS_DEFAULTS, callHoursRefusal, checkServerDial } from './dial-policy';

// The one dial policy for legs the server places (issue 12): one test per rule, at both edges.
// Agents' dials pass the same functions (calls-dial.ts); their refusals are in calls.api.test.ts.

let t: TestApp;
let tpl: Template;
let tenantId: number;
let lisi: string;
let lisiActor: Actor;
let wangwuActor: Actor;
/** a Beijing wall-clock time today as a Date */
const beijing = (hhmm: string) => toDate(`2026-11-24 ${hhmm}:00+08`);
const MIDDAY = beijing('12:00');

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, msg: err.message, data: err.data };
    throw err;
  }
  return undefined;
};

const actorOf = async (username: string): Promise<Actor> => {
  const [row] = await t.database.db.select().from(staff).where(eq(staff.username, username));
  return {
    sessionId: 0,
    staffId: row.id,
    tenantId: row.tenantId,
    departmentId: row.departmentId,
    roleId: row.roleId ?? 0,
    dataScope: 1,
    isSystemRole: false,
    menuIds: new Set(),
    actions: new Set(),
    name: row.name,
  };
};

beforeAll(async () => {
  t = await createCallTestApp();
  lisi = await t.login('lisi');
  tpl = await fetchTemplate(t, await t.login('admin'));
  lisiActor = await actorOf('lisi');
  wangwuActor = await actorOf('wangwu');
  tenantId = lisiActor.tenantId;
});
afterAll(async () => {
  await t.close();
});

describe('dial policy for server legs', () => {
  it('SPEC §5: 4 and 20 digits pass, 3 and 21 are refused; a task may dial any number with a digit', async () => {
    const dial = (number: string, taskId?: number) => checkServerDial(t.app.db, { tenantId, number, taskId }, MIDDAY);
    expect((await dial('1001')).number).toBe('1001');
    expect((await dial('1'.repeat(20))).number).toBe('1'.repeat(20));
    expect(await refusal(dial('100'))).toMatchObject({ code: 110001, msg: '请正确输入电话号码' });
    expect(await refusal(dial('1'.repeat(21)))).toMatchObject({ code: 110001 });
    expect((await dial('100', 7)).number).toBe('100');
    expect(await refusal(dial('--', 7))).toMatchObject({ code: 110001 });
  });

  it('the blacklist: 100011 with the customer, 100014 for a task; a number not on it passes', async () => {
    const phone = mobileEnding(1);
    const id = await mustCreate(t, lisi, tpl, '黑名单客户', demoValues({ 手机: phone }));
    const dial = (taskId?: number) => checkServerDial(t.app.db, { tenantId, customerId: id, taskId }, MIDDAY);
    expect((await dial()).number).toBe(phone);
    await t.database.db.insert(blackNumbers).values({ tenantId, phone, staffId: lisiActor.staffId, createdAt: new Date() });
    expect(await refusal(dial())).toMatchObject({ code: 100011, data: { cmCtid: id } });
    expect(await refusal(dial(9))).toMatchObject({ code: 100014 });
    // the neighbour number is not blacklisted
    expect((await checkServerDial(t.app.db, { tenantId, number: `${phone.slice(0, -1)}2` }, MIDDAY)).number).toBe(
      `${phone.slice(0, -1)}2`,
    );
  });

  it('calling hours 08:00–21:00 Beijing by default: 07:59 and 21:00 refused, 08:00 and 20:59 pass', async () => {
    const hours = CALL_SETTINGS_DEFAULTS.callHours;
    // the demo company calls all day (its seed); a company without settings of its own has the defaults
    await t.database.db.delete(callSettings).where(eq(callSettings.tenantId, tenantId));
    expect(callHoursRefusal(hours, beijing('07:59'))).toBe('当前不在允许外呼的时段（08:00–21:00），请稍后再拨');
    expect(callHoursRefusal(hours, beijing('08:00'))).toBeNull();
    expect(callHoursRefusal(hours, beijing('20:59'))).toBeNull();
    expect(callHoursRefusal(hours, beijing('21:00'))).not.toBeNull();
    const dial = (hhmm: string) => checkServerDial(t.app.db, { tenantId, number: mobileEnding(1) }, beijing(hhmm));
    expect(await refusal(dial('07:59'))).toMatchObject({ code: 110024 });
    expect(await dial('08:00')).toBeTruthy();
    expect(await dial('20:59')).toBeTruthy();
    expect(await refusal(dial('21:00'))).toMatchObject({
      code: 110024,
      msg: '当前不在允许外呼的时段（08:00–21:00），请稍后再拨',
    });
    // a company's own window, past midnight
    await repo.upsertCallSettings(t.app.db, tenantId, { callerNumber: '', callHoursFrom: '20:00', callHoursTo: '02:00' });
    try {
      expect(await dial('01:59')).toBeTruthy();
      expect(await refusal(dial('02:00'))).toMatchObject({ msg: '当前不在允许外呼的时段（20:00–02:00），请稍后再拨' });
      expect(await refusal(dial('19:59'))).toMatchObject({ code: 110024 });
      expect(await dial('20:00')).toBeTruthy();
    } finally {
      await repo.upsertCallSettings(t.app.db, tenantId, { callerNumber: '', callHoursFrom: '08:00', callHoursTo: '21:00' });
    }
  });

  it("the company's caller number (外显号码) when it has one, else none (the line's own)", async () => {
    const dial = () => checkServerDial(t.app.db, { tenantId, number: mobileEnding(1) }, MIDDAY);
    expect((await dial()).callerId).toBe('');
    await repo.upsertCallSettings(t.app.db, tenantId, {
      callerNumber: '4008001234',
      callHoursFrom: '08:00',
      callHoursTo: '21:00',
    });
    try {
      expect((await dial()).callerId).toBe('4008001234');
    } finally {
      await repo.upsertCallSettings(t.app.db, tenantId, { callerNumber: '', callHoursFrom: '08:00', callHoursTo: '21:00' });
    }
  });

  it('a disabled company places no leg; an active one does', async () => {
    const dial = () => checkServerDial(t.app.db, { tenantId, number: mobileEnding(1) }, MIDDAY);
    expect(await dial()).toBeTruthy();
    await t.database.db.update(tenants).set({ actionState: 1 }).where(eq(tenants.id, tenantId));
    try {
      expect(await refusal(dial())).toMatchObject({ code: 101008, msg: '所属企业已停用，请联系客服' });
    } finally {
      await t.database.db.update(tenants).set({ actionState: 0 }).where(eq(tenants.id, tenantId));
    }
  });

  it("the number by customer id on the server; an actor's leg needs the customer in his sight", async () => {
    const phone = mobileEnding(3);
    const id = await mustCreate(t, lisi, tpl, '按编号拨打', demoValues({ 手机: phone }));
    // the system (a task's leg) and the owner reach the number by id
    expect(await checkServerDial(t.app.db, { tenantId, customerId: id }, MIDDAY)).toMatchObject({ number: phone });
    expect(await checkServerDial(t.app.db, { tenantId, customerId: id, actor: lisiActor }, MIDDAY)).toMatchObject({
      number: phone,
      customer: { id },
    });
    // a colleague of own scope does not see lisi's customer
    expect(await refusal(checkServerDial(t.app.db, { tenantId, customerId: id, actor: wangwuActor }, MIDDAY))).toMatchObject({
      code: 106007,
    });
    // another company's customer is nobody's here
    expect(await refusal(checkServerDial(t.app.db, { tenantId: tenantId + 1, customerId: id }, MIDDAY))).toMatchObject({
      code: 106007,
    });
    // a typed number is matched to its customer
    expect((await checkServerDial(t.app.db, { tenantId, number: phone }, MIDDAY)).customer?.id).toBe(id);
  });
});
