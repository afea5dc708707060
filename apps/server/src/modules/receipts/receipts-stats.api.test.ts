import type { ApprovalTemplate, Product, ReceiptStats } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';
import { addDays, businessToday } from './receipts.service';
import { addMonths } from './receipts-stats';

/** 回款管理 figures (issue 14): sums equal the receipts, scope, tenants, approval, the 30-day window. */
let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
let product: Product;
let flow: ApprovalTemplate;
const ids: Record<string, number> = {};
const today = () => businessToday();
const day = (n: number) => addDays(today(), n);

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'other_admin']) tokens[u] = await t.login(u);
  product = (await products(t, as('admin'))).find((p) => p.code === 'QC-001') as Product;
  flow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
  for (const name of ['张三', '李四']) ids[name] = await staffIdOf(t, as('admin'), name);
});
afterAll(async () => t.close());

const orderOf = async (name: string, amount: number) => {
  const c = await customerOf(t, as('lisi'), name);
  const id = await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: amount }]));
  await t.post('/api/v1/staff/templatecreate', submitBody(flow, id, { 1: [ids.张三] }), as('lisi'));
  expect((await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, as('zhangsan'))).json().code).toBe(
    0,
  );
  return id;
};
const planOf = async (orderId: number, amount: number, planAt: string) => {
  const res = await t.post('/api/frontend/receipt/plancreate', { order_id: orderId, amount, plan_at: planAt }, as('lisi'));
  expect(res.json().code, JSON.stringify(res.json())).toBe(0);
  return res.json().data.id as number;
};
const receive = async (orderId: number, planId: number, amount: number, at: string) => {
  const res = await t.post(
    '/api/frontend/receipt/create',
    { order_id: orderId, order_repayment_plan_id: planId, amount, repayment_at: at, pay_type: 3 },
    as('lisi'),
  );
  expect(res.json().code, JSON.stringify(res.json())).toBe(0);
  return res.json().data as { id: number; verify_status: number };
};
const stats = async (user: string, q = '') => {
  const res = await t.get(`/api/frontend/receipt/stats?${q}`, as(user));
  expect(res.json().code, JSON.stringify(res.json())).toBe(0);
  return res.json().data as ReceiptStats;
};
const monthOf = (s: ReceiptStats, m: string) => s.byMonth.find((x) => x.month === m)?.amount ?? 0;
const staffOf = (s: ReceiptStats, id: number) => s.byStaff.find((x) => x.staff_id === id)?.amount ?? 0;
const dueOf = (s: ReceiptStats, d: string) => s.dueNext30.find((x) => x.day === d) ?? { amount: 0, count: 0 };

describe('GET /api/frontend/receipt/stats', () => {
  it('sums equal the receipts by month and by staff, in the caller’s scope and company only', async () => {
    const month = today().slice(0, 7);
    const first = addMonths(month, -11);
    const before = { lisi: await stats('lisi'), admin: await stats('admin'), wangwu: await stats('wangwu') };
    const other = await stats('other_admin');
    expect(before.lisi.byMonth.map((m) => m.month)).toEqual(Array.from({ length: 12 }, (_, i) => addMonths(first, i)));
    const orderId = await orderOf('图表回款客户', 10_000_000);
    const plan = await planOf(orderId, 10_000_000, day(40));
    await receive(orderId, plan, 1_234_567, today());
    await receive(orderId, plan, 1_000, today());
    await receive(orderId, plan, 20_000, `${first}-01`); // first day of the window: in
    await receive(orderId, plan, 300_000, addDays(`${first}-01`, -1)); // the day before: out
    const after = await stats('lisi');
    expect(monthOf(after, month) - monthOf(before.lisi, month)).toBe(1_235_567);
    expect(monthOf(after, first) - monthOf(before.lisi, first)).toBe(20_000);
    expect(staffOf(after, ids.李四) - staffOf(before.lisi, ids.李四)).toBe(1_255_567);
    const sum = (s: ReceiptStats) => s.byMonth.reduce((a, m) => a + m.amount, 0);
    const staffSum = (s: ReceiptStats) => s.byStaff.reduce((a, m) => a + m.amount, 0);
    expect(sum(after)).toBe(staffSum(after));
    expect(sum(after) - sum(before.lisi)).toBe(1_255_567);
    expect(after.byStaff.find((s) => s.staff_id === ids.李四)?.name).toBe('李四');
    // a window that holds the month before sees the 300.00 too
    const wide = await stats('lisi', `start=${addMonths(first, -1)}&end=${month}`);
    expect(sum(wide) - sum(after)).toBe(monthOf(wide, addMonths(first, -1)));
    expect(monthOf(wide, addMonths(first, -1))).toBeGreaterThanOrEqual(300_000);
    // admin (all) sees them, wangwu (own) and another company do not
    expect(sum(await stats('admin')) - sum(before.admin)).toBe(1_255_567);
    expect(await stats('wangwu')).toEqual(before.wangwu);
    expect(await stats('other_admin')).toEqual(other);
    // staff_id narrows to one owner; a foreign one matches nothing
    const only = await stats('admin', `staff_id=${ids.李四}`);
    expect(only.byStaff.map((s) => s.staff_id)).toEqual([ids.李四]);
    expect(sum(only)).toBe(staffOf(only, ids.李四));
    expect(sum(await stats('other_admin', `staff_id=${ids.李四}`))).toBe(0);
  });

  it('a receipt waiting for approval is not counted; once approved it is', async () => {
    const add = await t.post(
      '/api/v1/merchantapp/templateadd',
      { name: '图表回款审批', isOrder: 2, nodes: [{ type: 0, mode: 1, staffIds: [ids.张三] }] },
      as('admin'),
    );
    expect(add.json().code, JSON.stringify(add.json())).toBe(0);
    const tpl = (
      (await t.get('/api/v1/merchantapp/templatelist?isOrder=2', as('admin'))).json().data.list as ApprovalTemplate[]
    ).find((x) => x.name === '图表回款审批') as ApprovalTemplate;
    const orderId = await orderOf('图表审批客户', 1_000_000);
    const plan = await planOf(orderId, 1_000_000, day(5));
    const set = (id: number) =>
      t.post('/api/frontend/receipt/settingsave', { remind_days: 3, approval_template_id: id }, as('admin'));
    expect((await set(tpl.coMatid)).json().code).toBe(0);
    try {
      const before = await stats('lisi');
      const r = await receive(orderId, plan, 700_000, today());
      expect(r.verify_status).toBe(0);
      const pending = await stats('lisi');
      expect(staffOf(pending, ids.李四)).toBe(staffOf(before, ids.李四));
      expect(dueOf(pending, day(5)).amount).toBe(dueOf(before, day(5)).amount);
      const summary = (await t.get(`/api/frontend/receipt/summary?order_id=${orderId}`, as('lisi'))).json().data;
      const inst = summary.plan_collection[0].product_order.product_order_repayments[0].instance_id;
      expect(
        (await t.post('/api/v1/staff/approvalact', { instanceId: inst, nodeId: 1, status: 1 }, as('zhangsan'))).json().code,
      ).toBe(0);
      const approved = await stats('lisi');
      expect(staffOf(approved, ids.李四) - staffOf(before, ids.李四)).toBe(700_000);
      expect(dueOf(before, day(5)).amount - dueOf(approved, day(5)).amount).toBe(700_000);
    } finally {
      await set(0);
    }
  });

  it('plans due from today (day 0) to day 30 are in, day 31 and past days out; paid plans drop out', async () => {
    const orderId = await orderOf('图表到期客户', 10_000_000);
    const before = await stats('lisi');
    expect(before.dueNext30.map((d) => d.day)).toEqual(Array.from({ length: 31 }, (_, i) => day(i)));
    const p0 = await planOf(orderId, 100_000, day(0));
    await planOf(orderId, 200_000, day(30));
    await planOf(orderId, 400_000, day(31));
    await planOf(orderId, 800_000, day(-1));
    const paid = await planOf(orderId, 50_000, day(10));
    await receive(orderId, paid, 50_000, today());
    await receive(orderId, p0, 30_000, today());
    const after = await stats('lisi');
    expect(dueOf(after, day(0)).amount - dueOf(before, day(0)).amount).toBe(70_000);
    expect(dueOf(after, day(0)).count - dueOf(before, day(0)).count).toBe(1);
    expect(dueOf(after, day(30)).amount - dueOf(before, day(30)).amount).toBe(200_000);
    expect(dueOf(after, day(10))).toEqual(dueOf(before, day(10)));
    const total = (s: ReceiptStats) => s.dueNext30.reduce((a, d) => a + d.amount, 0);
    expect(total(after) - total(before)).toBe(270_000);
    expect(after.dueNext30.some((d) => d.day === day(31) || d.day === day(-1))).toBe(false);
  });

  it('a window of 36 months is fine, 37 is refused; start after end is a 400', async () => {
    const month = today().slice(0, 7);
    expect((await stats('lisi', `start=${addMonths(month, -35)}&end=${month}`)).byMonth).toHaveLength(36);
    const long = await t.get(`/api/frontend/receipt/stats?start=${addMonths(month, -36)}&end=${month}`, as('lisi'));
    expect(long.json()).toMatchObject({ code: 112020, msg: '统计范围最多36个月' });
    const back = await t.get(`/api/frontend/receipt/stats?start=${month}&end=${addMonths(month, -1)}`, as('lisi'));
    expect(back.statusCode).toBe(400);
    expect(back.json().msg).toContain('开始月份不能晚于结束月份');
    const bad = await t.get('/api/frontend/receipt/stats?start=2026-13', as('lisi'));
    expect(bad.statusCode).toBe(400);
  });
});
