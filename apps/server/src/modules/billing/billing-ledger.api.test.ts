import { randomUUID } from 'node:crypto';
import type { BillingChargeRow, BillingSummary, CallKind, RatePart } from '@crm/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingAlerts, billingCallUsage, billingLedger, billingReservations, staff } from '../../db/schema';
import { provisionCompany } from '../../db/seed/provision';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { staffChannel } from '../../lib/pubsub';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';
import * as repo from './billing.repo';
import { adjust, rateDue, recharge, rerate, reserveForDial } from './billing.service';
import { charges, overview, summary } from './billing-reports';

// Billing's money rules on the database (issue 27): the operator-only recharge, the overdraft race,
// idempotent rating under retried jobs, a property test of the ledger, the low-balance notice, data
// scope and tenant isolation, re-rating. Calls are represented by their ended records as billing
// receives them (the pending rating row calls' `call.ended` makes); the dial path itself is in
// billing-calls.api.test.ts.

const TOKEN = 'operator-token-for-the-billing-tests-0123';
let t: TestApp;
let seq = 0;

const op = (path: string, body: unknown, token: string | null = TOKEN) =>
  t.app.inject({
    method: 'POST',
    url: `/api/operator/billing/${path}`,
    payload: body as object,
    headers: token === null ? {} : { 'x-operator-token': token },
  });

const part = (first: number, inc: number, ppm: number, connect = 0): RatePart => ({
  connect_fee: connect,
  first_block: first,
  increment: inc,
  price_per_minute: ppm,
  charge_unanswered: false,
});
const allKinds = (p: RatePart) => ({ manual: p, task: p, group: p, ai: p, inbound: p });

/** A fresh company with a plan (0.10 元/分钟 on 60/60 unless told) and optionally a balance. */
const company = async (opts: { balance?: number; rate?: RatePart } = {}) => {
  seq += 1;
  const name = `计费测试${process.pid}_${seq}`;
  const { tenantId, adminId } = await provisionCompany(t.database.db, {
    companyName: name,
    adminUsername: `bill${process.pid}_${seq}`,
    adminName: '计费管理员',
    adminPhone: `138${String(process.pid % 100_000).padStart(5, '0')}${String(seq).padStart(3, '0')}`,
    password: DEMO_PASSWORD,
  });
  const plan = await op('plans', { name: `资费${name}`, rates: allKinds(opts.rate ?? part(60, 60, 1000)) });
  expect(plan.json().code, plan.body).toBe(0);
  const assign = await op('assign', {
    company: tenantId,
    plan_id: plan.json().data.id,
    effective_from: new Date(Date.now() - 86_400_000).toISOString(),
    operator: '运营',
  });
  expect(assign.json().code, assign.body).toBe(0);
  if (opts.balance)
    await recharge(t.app.db, {
      company: tenantId,
      amount: opts.balance,
      bonus: 0,
      channel: '对公转账',
      ref: `init-${seq}`,
      operator: '运营',
      remark: '',
    });
  return { tenantId, adminId, name, username: `bill${process.pid}_${seq}` };
};

/** The call as billing receives it when it ends (what the call.ended reaction writes). */
const endCall = async (
  tenantId: number,
  uuid: string,
  talk: number | null,
  kind: CallKind = 'manual',
  staffId: number | null = null,
) => {
  const endAt = new Date();
  await repo.insertPendingUsage(t.app.db, {
    callUuid: uuid,
    tenantId,
    kind,
    staffId,
    callType: kind === 'inbound' ? 4 : 1,
    caller: '02066668888',
    callee: '13912345678',
    startAt: new Date(endAt.getTime() - (talk ?? 0) * 1000 - 5000),
    answerAt: talk === null ? null : new Date(endAt.getTime() - talk * 1000),
    endAt,
    duration: talk ?? 0,
  });
};

const dialGate = (tenantId: number, kind: CallKind = 'manual') => {
  const callUuid = randomUUID();
  return t.app.db
    .transaction((tx) => reserveForDial(tx, { tenantId, callUuid, kind, at: new Date() }))
    .then((credit) => ({ callUuid, credit }));
};

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, msg: err.message };
    throw err;
  }
  return undefined;
};

/** The invariants after every operation: the ledger sums to the balance, nothing overdraws, the held credit is the reservations'. */
const checkBooks = async (tenantId: number) => {
  const bal = await repo.readBalance(t.app.db, tenantId);
  const { sum } = await repo.ledgerSum(t.app.db, tenantId);
  const held = (await repo.reservationsOf(t.app.db, tenantId)).reduce((s, r) => s + Number(r.amount), 0);
  expect(sum, 'ledger sum = balance').toBe(bal.balance);
  expect(bal.balance, 'balance ≥ 0').toBeGreaterThanOrEqual(0);
  expect(bal.reserved, 'reserved = reservations').toBe(held);
  expect(bal.balance - bal.reserved, 'available ≥ 0').toBeGreaterThanOrEqual(0);
  return bal;
};

const actorOf = (tenantId: number, staffId: number, over: Partial<Actor> = {}): Actor => ({
  sessionId: 0,
  staffId,
  tenantId,
  departmentId: null,
  roleId: 0,
  dataScope: 1,
  isSystemRole: false,
  menuIds: new Set(),
  actions: new Set(),
  name: 'x',
  ...over,
});

// a fresh database takes a while on a loaded machine
beforeAll(async () => {
  t = await createTestApp({ config: { billingOperatorToken: TOKEN } });
}, 300_000);
afterAll(async () => {
  await t?.close();
}, 60_000);

describe('recharges: the platform operator only', () => {
  it('refuses no token, a wrong token and a company user; records once per reference', async () => {
    const c = await company();
    const body = { company: c.tenantId, amount: 1_000_000, channel: '对公转账', ref: 'HK-001', operator: '运营甲' };
    expect((await op('recharge', body, null)).json()).toMatchObject({ code: 117001, msg: '仅平台运营人员可以操作' });
    expect((await op('recharge', body, `${TOKEN}x`)).statusCode).toBe(403);
    const admin = await t.login(c.username);
    const asUser = await t.app.inject({
      method: 'POST',
      url: '/api/operator/billing/recharge',
      payload: body,
      headers: { authorization: admin },
    });
    expect(asUser.json().code).toBe(117001);
    expect((await repo.readBalance(t.app.db, c.tenantId)).balance).toBe(0);

    const first = await op('recharge', { ...body, bonus: 50_000 });
    expect(first.json()).toMatchObject({ code: 0, data: { balance: 1_050_000, is_new: true } });
    // the same reference again (a retried CLI): nothing added twice
    expect((await op('recharge', { ...body, bonus: 50_000 })).json()).toMatchObject({
      code: 0,
      data: { balance: 1_050_000, is_new: false },
    });
    expect((await op('recharge', { ...body, amount: 2 })).json()).toMatchObject({ code: 117006 });
    // by name as well; an unknown company is named
    expect((await op('recharge', { ...body, company: c.name, ref: 'HK-002' })).json().data.balance).toBe(2_050_000);
    expect((await op('recharge', { ...body, company: '没有这家公司', ref: 'HK-003' })).json()).toMatchObject({ code: 117002 });
    expect((await op('recharge', { ...body, amount: 0, ref: 'HK-004' })).json().code).not.toBe(0);
    await checkBooks(c.tenantId);
    // the admin sees the recharges
    const list = await t.get('/api/frontend/billing/recharges', admin);
    expect(list.json().data).toMatchObject({ count: 2 });
    expect(list.json().data.list[1]).toMatchObject({
      channel: '对公转账',
      amount: 1_000_000,
      bonus: 50_000,
      ref: 'HK-001',
      operator: '运营甲',
    });
  });
});

describe('the dial credit check', () => {
  it('a company with no plan: free, nothing held (existing companies keep calling)', async () => {
    const { tenantId } = await provisionCompany(t.database.db, {
      companyName: `无资费${process.pid}`,
      adminUsername: `noplan${process.pid}`,
      adminName: 'x',
      adminPhone: `137${String(process.pid % 100_000).padStart(5, '0')}999`,
      password: DEMO_PASSWORD,
    });
    const r = await dialGate(tenantId);
    expect(r.credit).toEqual({ maxSeconds: null });
    expect(await repo.reservationsOf(t.app.db, tenantId)).toHaveLength(0);
  });

  it('no credit: 余额不足，请充值后再拨打 (117000); the first block available: allowed, at both edges', async () => {
    const c = await company();
    expect(await refusal(dialGate(c.tenantId))).toEqual({ code: 117000, msg: '余额不足，请充值后再拨打' });
    await recharge(t.app.db, {
      company: c.tenantId,
      amount: 999,
      bonus: 0,
      channel: '对公转账',
      ref: 'a',
      operator: 'o',
      remark: '',
    });
    expect(await refusal(dialGate(c.tenantId))).toMatchObject({ code: 117000 });
    await recharge(t.app.db, {
      company: c.tenantId,
      amount: 1,
      bonus: 0,
      channel: '对公转账',
      ref: 'b',
      operator: 'o',
      remark: '',
    });
    const ok = await dialGate(c.tenantId);
    // 0.10 元 pays one minute: the call may talk 58 s (2 s guard)
    expect(ok.credit).toEqual({ maxSeconds: 58 });
    // everything is held now: the next dial is refused until the first settles
    expect(await refusal(dialGate(c.tenantId))).toMatchObject({ code: 117000 });
    await endCall(c.tenantId, ok.callUuid, null);
    await rateDue(t.app.db);
    expect((await checkBooks(c.tenantId)).reserved).toBe(0);
    expect((await dialGate(c.tenantId)).credit.maxSeconds).toBe(58);
  });

  it('50 concurrent dials on credit for 10 minutes never take the balance below zero', async () => {
    const c = await company({ balance: 10_000 });
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => dialGate(c.tenantId)));
    const placed = results
      .filter((r) => r.status === 'fulfilled')
      .map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof dialGate>>>).value);
    const refused = results.filter((r) => r.status === 'rejected');
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 117000 });
    expect(placed.length).toBeGreaterThanOrEqual(1);
    const bal = await checkBooks(c.tenantId);
    expect(bal.reserved).toBeLessThanOrEqual(10_000);
    // every placed call talks its whole limit and overruns it by the guard: still paid for
    for (const p of placed) await endCall(c.tenantId, p.callUuid, (p.credit.maxSeconds as number) + 2);
    await Promise.all([rateDue(t.app.db), rateDue(t.app.db)]);
    const after = await checkBooks(c.tenantId);
    expect(after.balance).toBeGreaterThanOrEqual(0);
    expect(after.reserved).toBe(0);
    const usage = await t.app.db.select().from(billingCallUsage).where(eq(billingCallUsage.tenantId, c.tenantId));
    expect(usage.every((u) => Number(u.amount) === Number(u.cost))).toBe(true);
    expect(10_000 - after.balance).toBe(usage.reduce((s, u) => s + Number(u.amount), 0));
  });
});

describe('rating', () => {
  it('each call is charged once under retried and concurrent jobs and a redelivered event', async () => {
    const c = await company({ balance: 1_000_000 });
    const uuids = Array.from({ length: 30 }, () => randomUUID());
    for (const [i, u] of uuids.entries()) await endCall(c.tenantId, u, i % 5 === 0 ? null : 61);
    await Promise.all([rateDue(t.app.db), rateDue(t.app.db), rateDue(t.app.db)]);
    await rateDue(t.app.db);
    // the event delivered again: the pending row exists, nothing more is charged
    for (const u of uuids) await endCall(c.tenantId, u, 61);
    await rateDue(t.app.db);
    const rows = await t.app.db
      .select()
      .from(billingLedger)
      .where(and(eq(billingLedger.tenantId, c.tenantId), eq(billingLedger.type, 'call')));
    expect(rows).toHaveLength(24);
    expect(new Set(rows.map((r) => r.sourceId)).size).toBe(24);
    // 61 s on 60/60 at 0.10 元 = 0.20 元 each; unanswered free
    expect(rows.every((r) => Number(r.amount) === -2000)).toBe(true);
    expect((await checkBooks(c.tenantId)).balance).toBe(1_000_000 - 24 * 2000);
    // a second booking of the same call is refused by the ledger itself
    await expect(
      t.app.db.insert(billingLedger).values({
        tenantId: c.tenantId,
        type: 'call',
        amount: -1,
        balanceAfter: 0,
        sourceKind: 'call',
        sourceId: uuids[1],
        idemKey: `call:${uuids[1]}`,
      }),
    ).rejects.toThrow();
  });

  it('the durable job rates a call after its end (the queue, not the test, runs it)', async () => {
    const c = await company({ balance: 100_000 });
    const uuid = randomUUID();
    await endCall(c.tenantId, uuid, 6);
    await t.app.queue.send('billing-rate', {});
    const until = Date.now() + 20_000;
    for (;;) {
      const [u] = await repo.usageOfCalls(t.app.db, c.tenantId, [uuid]);
      if (u) {
        expect(u).toMatchObject({ billedSeconds: 60, cost: 1000, amount: 1000 });
        break;
      }
      if (Date.now() > until) throw new Error('the rating job did not run');
      await new Promise((r) => setTimeout(r, 100));
    }
    await checkBooks(c.tenantId);
  });

  it('property: random recharges, adjustments, concurrent dials, hang-ups and retried rating keep ledger sum = balance ≥ 0', async () => {
    const c = await company({ rate: part(6, 6, 1200, 100) });
    let s = 20261128;
    const rnd = (n: number) => {
      s = (s * 1103515245 + 12345) % 2_147_483_648;
      return s % n;
    };
    const open: string[] = [];
    const kinds: CallKind[] = ['manual', 'task', 'group', 'ai', 'inbound'];
    for (let step = 0; step < 120; step++) {
      const what = rnd(10);
      if (what === 0) {
        await recharge(t.app.db, {
          company: c.tenantId,
          amount: 1 + rnd(30_000),
          bonus: rnd(2) * 500,
          channel: '对公转账',
          ref: `p${step}`,
          operator: 'o',
          remark: '',
        });
      } else if (what === 1) {
        await adjust(t.app.db, {
          company: c.tenantId,
          amount: rnd(2) ? 1 + rnd(2000) : -(1 + rnd(2000)),
          ref: `adj${step}`,
          operator: 'o',
          reason: '测试',
        }).catch((e) => {
          expect(e).toMatchObject({ code: 117005 });
        });
      } else if (what <= 4) {
        // a burst of dials at once
        const burst = await Promise.allSettled(Array.from({ length: 1 + rnd(6) }, () => dialGate(c.tenantId, kinds[rnd(4)])));
        for (const b of burst) {
          if (b.status === 'fulfilled') open.push(b.value.callUuid);
          else expect(b.reason).toMatchObject({ code: 117000 });
        }
      } else if (what <= 7 && open.length > 0) {
        const uuid = open.splice(rnd(open.length), 1)[0];
        const [held] = await t.app.db.select().from(billingReservations).where(eq(billingReservations.callUuid, uuid));
        const talk = rnd(3) === 0 ? null : rnd((held?.maxSeconds ?? 10) + 3);
        await endCall(c.tenantId, uuid, talk, held?.kind as CallKind);
      } else if (what === 8) {
        // an inbound call: nothing reserved, charged at most what is available
        await endCall(c.tenantId, randomUUID(), rnd(120), 'inbound');
      } else {
        await Promise.all(Array.from({ length: 1 + rnd(3) }, () => rateDue(t.app.db)));
      }
      await checkBooks(c.tenantId);
    }
    for (const uuid of open) await endCall(c.tenantId, uuid, 1);
    await rateDue(t.app.db);
    expect((await checkBooks(c.tenantId)).reserved).toBe(0);
  });

  it('re-rating after a plan correction is an audited adjustment per changed call, never an edit', async () => {
    const c = await company({ balance: 100_000 });
    const uuids = [randomUUID(), randomUUID()];
    for (const u of uuids) await endCall(c.tenantId, u, 61);
    await rateDue(t.app.db);
    const before = await t.app.db.select().from(billingLedger).where(eq(billingLedger.tenantId, c.tenantId));
    // the plan should have been 6/6: 61 s → 66 s = 0.11 元, 0.09 元 back per call
    const fixed = await op('plans', { name: `更正${c.name}`, rates: allKinds(part(6, 6, 1000)) });
    await op('assign', {
      company: c.tenantId,
      plan_id: fixed.json().data.id,
      effective_from: new Date(Date.now() - 86_400_000).toISOString(),
      operator: '运营',
    });
    const r = await op('rerate', {
      company: c.tenantId,
      from: new Date(Date.now() - 3_600_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
      operator: '运营乙',
      reason: '资费配置错误更正',
    });
    expect(r.json()).toMatchObject({ code: 0, data: { calls: 2, adjusted: 2, delta: 1800, balance: 100_000 - 2 * 1100 } });
    const after = await t.app.db.select().from(billingLedger).where(eq(billingLedger.tenantId, c.tenantId));
    // the old rows are untouched; two adjustment rows were added
    for (const old of before) expect(after.find((a) => a.id === old.id)).toEqual(old);
    expect(after.filter((a) => a.sourceKind === 'rerate').map((a) => Number(a.amount))).toEqual([900, 900]);
    expect((await repo.usageOfCalls(t.app.db, c.tenantId, uuids)).map((u) => [u.billedSeconds, Number(u.cost)])).toEqual([
      [66, 1100],
      [66, 1100],
    ]);
    await checkBooks(c.tenantId);
    // the same re-rating again changes nothing
    expect(
      (
        await op('rerate', {
          company: c.tenantId,
          from: new Date(Date.now() - 3_600_000).toISOString(),
          to: new Date(Date.now() + 60_000).toISOString(),
          operator: 'x',
          reason: 'y',
        })
      ).json().data,
    ).toMatchObject({ adjusted: 0, delta: 0 });
  });
});

describe('low balance', () => {
  it('admins are told once per threshold crossing (socket msg_type 24 and the header list)', async () => {
    const c = await company({ balance: 60_000 });
    const admin = await t.login(c.username);
    expect((await t.post('/api/frontend/billing/settings', { thresholds: [10_000, 50_000] }, admin)).json().code).toBe(0);
    const frames: { msg_type: number; data: { threshold: number } }[] = [];
    const unsubscribe = await t.app.calls.bus.subscribe(staffChannel(c.adminId), (m) => {
      const frame = (m as { frame?: { msg_type: number; data: { threshold: number } } }).frame;
      if (frame?.msg_type === 24) frames.push(frame);
    });
    const move = (amount: number, ref: string) =>
      adjust(t.app.db, { company: c.tenantId, amount, ref, operator: 'o', reason: 'r' }, t.app.calls.bus);
    await move(-5_000, 'a'); // 5.5 元: above both
    await move(-5_000, 'b'); // 5.0 元: at 5 元, not below
    expect(frames).toHaveLength(0);
    await move(-1, 'c'); // 4.9999 元: crosses 5 元
    await move(-10_000, 'd'); // 3.9999: still below, no second notice
    expect(frames.map((f) => f.data.threshold)).toEqual([50_000]);
    await recharge(t.app.db, {
      company: c.tenantId,
      amount: 20_000,
      bonus: 0,
      channel: '对公转账',
      ref: 'up',
      operator: 'o',
      remark: '',
    }); // 5.9999
    await move(-20_000, 'e'); // 3.9999: crosses 5 元 again
    await move(-35_000, 'f'); // 0.4999: crosses 1 元
    expect(frames.map((f) => f.data.threshold)).toEqual([50_000, 50_000, 10_000]);
    unsubscribe();
    const alerts = (await t.get('/api/frontend/billing/alerts', admin)).json().data;
    expect(alerts.unread).toBe(3);
    expect(alerts.list[0].text).toBe('账户余额已低于1.00元，当前余额0.50元，请及时充值');
    await t.post('/api/frontend/billing/alertsread', {}, admin);
    expect((await t.get('/api/frontend/billing/alerts', admin)).json().data.unread).toBe(0);
    const card = (await t.get('/api/frontend/billing/overview', admin)).json().data;
    expect(card).toMatchObject({ scope: 'company', balance: 4_999, is_low: true, thresholds: [50_000, 10_000] });
    expect(await t.app.db.select().from(billingAlerts).where(eq(billingAlerts.tenantId, c.tenantId))).toHaveLength(3);
  });
});

describe('the 消费明细 reads', () => {
  it('tenant isolation and data scope: another company sees none of it; a staff member only his own charges', async () => {
    const c = await company({ balance: 1_000_000 });
    const [other] = await t.database.db.select().from(staff).where(eq(staff.username, 'other_admin'));
    const mine = randomUUID();
    const theirs = randomUUID();
    await endCall(c.tenantId, mine, 61, 'manual', c.adminId);
    await endCall(c.tenantId, theirs, 30, 'task', c.adminId + 100_000);
    await rateDue(t.app.db);
    const admin = await t.login(c.username);
    const all = (await t.get('/api/frontend/billing/charges', admin)).json().data as { list: BillingChargeRow[]; count: number };
    expect(all.count).toBe(2);
    expect(all.list.map((r) => r.call_uuid).sort()).toEqual([mine, theirs].sort());
    expect(all.list.find((r) => r.call_uuid === mine)).toMatchObject({
      kind: 'manual',
      duration: 61,
      billed_seconds: 120,
      first_block: 60,
      increment: 60,
      rate: 1000,
      amount: 2000,
      cost: 2000,
      line: '02066668888',
    });
    // another company's admin: his own (empty) books, and the uuid of this company's call gives nothing
    const otherToken = await t.login('other_admin');
    expect((await t.get('/api/frontend/billing/charges', otherToken)).json().data.count).toBe(0);
    expect((await t.get(`/api/frontend/billing/callcosts?uuids=${mine}`, otherToken)).json().data).toEqual([]);
    expect((await t.get('/api/frontend/billing/overview', otherToken)).json().data).toMatchObject({ balance: 0, month_spend: 0 });
    expect(other.tenantId).not.toBe(c.tenantId);
    // a staff member whose role does not see the company: his own charges only, no balance, no recharges
    const own = actorOf(c.tenantId, c.adminId);
    const ownList = await charges(t.app.db, own, { start: '', end: '', number: '', page: 1, limit: 20 });
    expect(ownList.list.map((r) => r.call_uuid)).toEqual([mine]);
    expect(await overview(t.app.db, own)).toMatchObject({ scope: 'own', balance: null, month_spend: 2000 });
    // a role without the menu gets nothing
    const lisi = await t.login('lisi');
    expect((await t.get('/api/frontend/billing/charges', lisi)).json().code).toBe(100003);
  });

  it('汇总 rows sum exactly to the total and to the 消费明细 list; the chart to the same; filters and the range are checked', async () => {
    const c = await company({ balance: 1_000_000, rate: part(6, 6, 777, 13) });
    const kinds: CallKind[] = ['manual', 'task', 'group', 'ai', 'inbound'];
    for (let i = 0; i < 25; i++)
      await endCall(c.tenantId, randomUUID(), (i * 37) % 200, kinds[i % 5], i % 3 === 0 ? null : c.adminId);
    await rateDue(t.app.db);
    const admin = await t.login(c.username);
    const list = (await t.get('/api/frontend/billing/charges?limit=200', admin)).json().data as { list: BillingChargeRow[] };
    const listSum = list.list.reduce((s, r) => s + r.amount, 0);
    for (const by of ['staff', 'day', 'line', 'kind']) {
      const res = (await t.get(`/api/frontend/billing/summary?group_by=${by}`, admin)).json().data as BillingSummary;
      expect(
        res.rows.reduce((s, r) => s + r.amount, 0),
        by,
      ).toBe(res.total.amount);
      expect(res.total.amount, by).toBe(listSum);
      expect(res.total.count, by).toBe(list.list.length);
    }
    const chart = (await t.get('/api/frontend/billing/chart', admin)).json().data;
    expect(chart.totals.reduce((s: number, v: number) => s + v, 0)).toBe(listSum);
    const byKind = (await t.get('/api/frontend/billing/charges?kind=task', admin)).json().data;
    expect(byKind.list.every((r: BillingChargeRow) => r.kind === 'task')).toBe(true);
    expect((await t.get('/api/frontend/billing/charges?number=6666', admin)).json().data.count).toBe(list.list.length);
    expect((await t.get('/api/frontend/billing/charges?number=5555', admin)).json().data.count).toBe(0);
    expect((await t.get('/api/frontend/billing/charges?start=2026-02-02&end=2026-02-01', admin)).json()).toMatchObject({
      code: 117004,
    });
    expect((await t.get('/api/frontend/billing/charges?kind=nonsense', admin)).json().code).not.toBe(0);
    expect(1_000_000 - (await checkBooks(c.tenantId)).balance).toBe(listSum);
  });

  it('exports 消费明细 as .xlsx through the one export path', async () => {
    const c = await company({ balance: 1_000_000 });
    await endCall(c.tenantId, randomUUID(), 61, 'manual', c.adminId);
    await rateDue(t.app.db);
    const admin = await t.login(c.username);
    const res = await t.post('/api/frontend/billing/export', { start: '', end: '' }, admin);
    expect(res.json().code, res.body).toBe(0);
    const jobId = res.json().data.jobId as string;
    const until = Date.now() + 30_000;
    for (;;) {
      const job = (await t.get(`/api/frontend/customer/job?jobId=${jobId}`, admin)).json().data;
      if (job?.status === 'done') {
        expect(job).toMatchObject({ kind: 'billing-export', total: 1, processed: 1 });
        expect(job.fileName).toMatch(/^消费明细_\d{12}\.xlsx$/);
        break;
      }
      if (job?.status === 'failed' || Date.now() > until) throw new Error(`export: ${JSON.stringify(job)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
});
