import type { RatePart } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRecords, staff } from '../../db/schema';
import { setClockOffsetMs } from '../../lib/clock';
import { advanceSeconds, createCallTestApp, endedCall, mobileEnding, readyLine, waitFor } from '../../test/calls';
import type { TestApp } from '../../test/harness';
import * as repo from './billing.repo';
import { adjust, assignPlan, createPlan, recharge } from './billing.service';

// Billing on real dials (issue 27): the one dial policy asks billing for credit (calls/dial-credit.ts),
// the call is rated from its record after hang-up by the job, and a call whose credit runs out is
// ended by the system with cause credit_exhausted. The sim line answers numbers ending in 1.

let t: TestApp;
let tenantId: number;
let lisi: string;
let admin: string;
let seq = 0;

const part = (first: number, inc: number, ppm: number): RatePart => ({
  connect_fee: 0,
  first_block: first,
  increment: inc,
  price_per_minute: ppm,
  charge_unanswered: false,
});
const usePlan = async (p: RatePart) => {
  seq += 1;
  const id = await createPlan(t.app.db, { name: `通话资费${seq}`, rates: { manual: p, task: p, group: p, ai: p, inbound: p } });
  await assignPlan(t.app.db, {
    company: tenantId,
    plan_id: id,
    effective_from: new Date(Date.now() - 3_600_000).toISOString(),
    operator: 't',
  });
};
const rated = (uuid: string) =>
  waitFor(async () => (await repo.usageOfCalls(t.app.db, tenantId, [uuid]))[0], `call ${uuid} rated`, 30_000);

beforeAll(async () => {
  t = await createCallTestApp();
  lisi = await t.login('lisi');
  admin = await t.login('admin');
  const [row] = await t.database.db.select().from(staff).where(eq(staff.username, 'lisi'));
  tenantId = row.tenantId;
}, 600_000);
afterAll(async () => {
  setClockOffsetMs(0);
  await t?.close();
}, 60_000);

describe('billing on the dial path', () => {
  it('a company with no plan dials free; with a plan and no credit the dial is refused with 余额不足 and no call is placed', async () => {
    await readyLine(t, lisi);
    const free = await t.post('/api/frontend/call/dial', { dstNumber: mobileEnding(5) }, lisi);
    expect(free.json().code, free.body).toBe(0);
    advanceSeconds(3);
    await t.post('/api/frontend/call/hangup', { uuid: free.json().data.uuid }, lisi);
    await endedCall(t, free.json().data.uuid);

    await usePlan(part(60, 60, 1000));
    await readyLine(t, lisi);
    const before = (await t.database.db.select().from(callRecords).where(eq(callRecords.tenantId, tenantId))).length;
    const res = await t.post('/api/frontend/call/dial', { dstNumber: mobileEnding(1) }, lisi);
    expect(res.json()).toMatchObject({ code: 117000, msg: '余额不足，请充值后再拨打' });
    expect((await t.database.db.select().from(callRecords).where(eq(callRecords.tenantId, tenantId))).length).toBe(before);
  });

  it('a 61 s call on 60/60 at 0.10 元/分钟 is charged 0.20 元 once, after hang-up, and the call shows it', async () => {
    await usePlan(part(60, 60, 1000));
    await recharge(t.app.db, {
      company: tenantId,
      amount: 100_000,
      bonus: 0,
      channel: '对公转账',
      ref: 'call-1',
      operator: 'o',
      remark: '',
    });
    const start = await repo.readBalance(t.app.db, tenantId);
    await readyLine(t, lisi);
    const res = await t.post('/api/frontend/call/dial', { dstNumber: mobileEnding(1) }, lisi);
    expect(res.json().code, res.body).toBe(0);
    const uuid = res.json().data.uuid as string;
    const answered = await waitFor(async () => {
      const [c] = await t.database.db.select().from(callRecords).where(eq(callRecords.uuid, uuid));
      return c?.answerAt ? c : undefined;
    }, 'answer');
    // credit is held while the call is in progress
    expect((await repo.readBalance(t.app.db, tenantId)).reserved).toBeGreaterThan(0);
    setClockOffsetMs(answered.answerAt!.getTime() + 61_000 - Date.now());
    await t.post('/api/frontend/call/hangup', { uuid }, lisi);
    const ended = await endedCall(t, uuid);
    // the business clock runs on in real time between the move and the hang-up (seconds on a loaded
    // machine): any length in 61–119 s is two 60 s blocks; the exact edges are in rating.test.ts
    expect(ended.billsec).toBeGreaterThanOrEqual(61);
    expect(ended.billsec).toBeLessThan(120);
    const duration = ended.billsec;
    expect(await rated(uuid)).toMatchObject({ billedSeconds: 120, cost: 2000, amount: 2000, duration, kind: 'manual' });
    const after = await repo.readBalance(t.app.db, tenantId);
    expect(after).toEqual({ balance: start.balance - 2000, reserved: 0 });
    const costs = (await t.get(`/api/frontend/billing/callcosts?uuids=${uuid}`, admin)).json().data;
    expect(costs).toEqual([expect.objectContaining({ call_uuid: uuid, billed_seconds: 120, cost: 2000 })]);
    const list = (await t.get('/api/frontend/billing/charges', admin)).json().data;
    expect(list.list[0]).toMatchObject({
      call_uuid: uuid,
      staff_name: '李四',
      direction: 1,
      duration,
      billed_seconds: 120,
      amount: 2000,
    });
    expect(list.list[0].callee).not.toBe('');
    // the charge's call id opens that one call in 通话记录 (/call/record?uuid=…)
    const one = (await t.post('/api/frontend/call/list', { uuid }, admin)).json().data;
    expect(one).toMatchObject({ count: 1, list: [expect.objectContaining({ uuid })] });
    expect((await t.post('/api/frontend/call/list', { uuid: 'no-such-call' }, admin)).json().data).toMatchObject({ count: 0 });
    expect((await repo.ledgerSum(t.app.db, tenantId)).sum).toBe(after.balance);
  });

  it('a call is ended by the system when its credit runs out (credit_exhausted), and never overdraws', async () => {
    // 1 元 per second on 1/1: 0.30 元 pays 3 billed seconds, so the call may talk 1 s (2 s guard)
    await usePlan(part(1, 1, 600_000));
    const bal = await repo.readBalance(t.app.db, tenantId);
    await adjust(t.app.db, {
      company: tenantId,
      amount: 30_000 - (bal.balance - bal.reserved),
      ref: 'to-0.30',
      operator: 'o',
      reason: '测试',
    });
    await readyLine(t, lisi);
    const res = await t.post('/api/frontend/call/dial', { dstNumber: mobileEnding(1) }, lisi);
    expect(res.json().code, res.body).toBe(0);
    const uuid = res.json().data.uuid as string;
    const ended = await waitFor(
      async () => {
        const [c] = await t.database.db.select().from(callRecords).where(eq(callRecords.uuid, uuid));
        return c?.state === 3 ? c : undefined;
      },
      'the credit to end the call',
      20_000,
    );
    expect(ended).toMatchObject({ hangupSide: 3, hangupCause: 'credit_exhausted' });
    const u = await rated(uuid);
    expect(Number(u.amount)).toBeLessThanOrEqual(30_000);
    const after = await repo.readBalance(t.app.db, tenantId);
    expect(after.balance).toBeGreaterThanOrEqual(0);
    expect(after.reserved).toBe(0);
    expect((await repo.ledgerSum(t.app.db, tenantId)).sum).toBe(after.balance);
  });
});
