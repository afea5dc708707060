import type { ApprovalTemplate, ReceiptSummary } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';
import { addDays, businessToday } from './receipts.service';

/**
 * Receipts and plans under concurrency and random sequences (issue 14): the plan row (receipts) and
 * the order row (plans) are locked inside the transaction, so on PostgreSQL two requests racing for
 * the last amount make one receipt; the summary always equals the sum of its parts.
 */
let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
let flow: ApprovalTemplate;
let productId = 0;
let zhangsan = 0;

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi']) tokens[u] = await t.login(u);
  flow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
  productId = (await products(t, as('admin'))).find((p) => p.code === 'QC-001')?.id ?? 0;
  zhangsan = await staffIdOf(t, as('admin'), '张三');
});
afterAll(async () => t.close());

const approvedOrder = async (amount: number) => {
  const c = await customerOf(t, as('lisi'), `回款并发${Math.random().toString(36).slice(2, 8)}`);
  const id = await store(t, as('lisi'), orderBody(c, [{ id: productId, cost_price: amount }]));
  await t.post('/api/v1/staff/templatecreate', submitBody(flow, id, { 1: [zhangsan] }), as('lisi'));
  expect((await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, as('zhangsan'))).json().code).toBe(
    0,
  );
  return { customerId: c, orderId: id };
};
const today = businessToday();

describe('receipt races', () => {
  it('two receipts racing for the last amount of a plan: one wins', async () => {
    const { orderId } = await approvedOrder(1_000_000);
    const plan = (
      await t.post('/api/frontend/receipt/plancreate', { order_id: orderId, amount: 1_000_000, plan_at: today }, as('lisi'))
    ).json().data.id as number;
    const body = { order_id: orderId, order_repayment_plan_id: plan, amount: 600_000, repayment_at: today, pay_type: 1 };
    const answers = await Promise.all([1, 2, 3].map(() => t.post('/api/frontend/receipt/create', body, as('lisi'))));
    const codes = answers.map((a) => a.json().code);
    expect(codes.filter((c) => c === 0)).toHaveLength(1);
    expect(answers.filter((a) => a.json().msg === '超出回款计划剩余应回金额，剩余 ¥400.00')).toHaveLength(2);
  });

  it('two plans racing for the rest of an order: one wins', async () => {
    const { orderId } = await approvedOrder(1_000_000);
    const body = { order_id: orderId, amount: 700_000, plan_at: today };
    const answers = await Promise.all([1, 2].map(() => t.post('/api/frontend/receipt/plancreate', body, as('lisi'))));
    expect(answers.map((a) => a.json().code).sort()).toEqual([0, 112001]);
  });

  it('the summary equals the sum of its parts after random create/edit/delete sequences', async () => {
    const { customerId, orderId } = await approvedOrder(5_000_000);
    let seed = 20261124;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const plans: number[] = [];
    const receipts: number[] = [];
    for (let step = 0; step < 40; step++) {
      const op = rand(6);
      const amount = rand(1_500) * 1000 + rand(1000);
      if (op === 0 || plans.length === 0) {
        const r = await t.post(
          '/api/frontend/receipt/plancreate',
          { order_id: orderId, amount, plan_at: addDays(today, rand(3) - 1) },
          as('lisi'),
        );
        if (r.json().code === 0) plans.push(r.json().data.id);
      } else if (op === 1) {
        await t.post(
          '/api/frontend/receipt/planupdate',
          { id: plans[rand(plans.length)], amount, plan_at: addDays(today, rand(3) - 1) },
          as('lisi'),
        );
      } else if (op === 2) {
        const id = plans[rand(plans.length)];
        if ((await t.post('/api/frontend/receipt/plandel', { id }, as('lisi'))).json().code === 0)
          plans.splice(plans.indexOf(id), 1);
      } else if (op === 3 || op === 4 || receipts.length === 0) {
        const r = await t.post(
          '/api/frontend/receipt/create',
          {
            order_id: orderId,
            order_repayment_plan_id: plans[rand(plans.length)],
            amount: rand(500_000),
            repayment_at: today,
            pay_type: 1 + rand(4),
          },
          as('lisi'),
        );
        if (r.json().code === 0) receipts.push(r.json().data.id);
      } else {
        const id = receipts[rand(receipts.length)];
        if (rand(2) === 0) {
          if ((await t.post('/api/frontend/receipt/del', { id }, as('lisi'))).json().code === 0)
            receipts.splice(receipts.indexOf(id), 1);
        } else {
          await t.post(
            '/api/frontend/receipt/update',
            { id, amount: rand(300_000), repayment_at: today, pay_type: 2 },
            as('lisi'),
          );
        }
      }
      const s = (await t.get(`/api/frontend/receipt/summary?customer_id=${customerId}`, as('lisi'))).json()
        .data as ReceiptSummary;
      const plansSum = s.plan_collection.reduce((n, p) => n + p.amount, 0);
      const repaidSum = s.plan_collection.reduce((n, p) => n + p.repaid_amount_sum, 0);
      expect(s.plan_amount_sum).toBe(plansSum);
      expect(s.repaid_amount_sum).toBe(repaidSum);
      expect(plansSum).toBeLessThanOrEqual(5_000_000);
      for (const p of s.plan_collection) {
        const parts = p.product_order.product_order_repayments.reduce((n, r) => n + r.amount, 0);
        expect(p.repaid_amount_sum).toBe(parts);
        expect(parts).toBeLessThanOrEqual(p.amount);
        expect(Number.isInteger(p.repaid_amount_sum)).toBe(true);
      }
      // the status filter (SQL on the stored received sum) picks exactly the plans of that derived status
      if (step % 4 === 3) {
        for (const status of [0, 1, 2, 3]) {
          const got = (
            await t.get(`/api/frontend/receipt/planlist?customer_id=${customerId}&status=${status}&limit=200`, as('lisi'))
          ).json().data as { count: number; list: { id: number }[] };
          const want = s.plan_collection.filter((p) => p.status === status).map((p) => p.id);
          expect(got.list.map((p) => p.id).sort(), `status ${status}`).toEqual(want.sort());
          expect(got.count).toBe(want.length);
        }
      }
    }
  });
});
