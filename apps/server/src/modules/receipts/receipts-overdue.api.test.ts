import type { ApprovalTemplate, PlanRow, Product, ReceiptSummary } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';
import { isPlanOverdue, planOverdueSql } from './plan-overdue';
import { addDays, businessToday } from './receipts.service';

/**
 * The overdue rule of a receipt plan (issue 24: one rule, its TS and SQL forms tested at both edges):
 * a plan due today is not overdue, one due yesterday is — in the shown status, the planlist status
 * filter and the workbench figure alike.
 */
let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi']) tokens[u] = await t.login(u);
});
afterAll(async () => t.close());

describe('receipt plan overdue rule', () => {
  it('the TS and SQL forms agree: due today is not overdue, due yesterday is', async () => {
    const today = businessToday();
    const sqlSays = async (day: string) =>
      (
        await queryRows<{ overdue: boolean }>(t.database.db, sql`select ${planOverdueSql(sql`${day}::date`, today)} as overdue`)
      )[0].overdue;
    for (const [offset, overdue] of [
      [-2, true],
      [-1, true],
      [0, false],
      [1, false],
    ] as const) {
      const day = addDays(today, offset);
      expect(isPlanOverdue(day, today), `TS ${day}`).toBe(overdue);
      expect(await sqlSays(day), `SQL ${day}`).toBe(overdue);
    }
  });

  it('status, status filter and workbench: due today is not overdue, due yesterday is', async () => {
    const today = businessToday();
    const wb = async () => (await t.get('/api/frontend/workbench/summary', as('lisi'))).json().data.receipts;
    const before = await wb();
    const zhangsan = await staffIdOf(t, as('admin'), '张三');
    const productId = (await products(t, as('admin'))).find((p) => p.code === 'QC-001')?.id as Product['id'];
    const flow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
    const customerId = await customerOf(t, as('lisi'), '回款逾期边界客户');
    const orderId = await store(t, as('lisi'), orderBody(customerId, [{ id: productId, cost_price: 1_000_000 }]));
    await t.post('/api/v1/staff/templatecreate', submitBody(flow, orderId, { 1: [zhangsan] }), as('lisi'));
    expect(
      (await t.post('/api/frontend/order/verify', { order_id: orderId, node_id: 1, status: 1 }, as('zhangsan'))).json().code,
    ).toBe(0);
    const plan = async (planAt: string) => {
      const res = await t.post(
        '/api/frontend/receipt/plancreate',
        { order_id: orderId, amount: 300_000, plan_at: planAt },
        as('lisi'),
      );
      expect(res.json().code, JSON.stringify(res.json())).toBe(0);
      return res.json().data.id as number;
    };
    const yesterday = await plan(addDays(today, -1));
    const dueToday = await plan(today);
    const byStatus = async (status: number) =>
      (
        (await t.get(`/api/frontend/receipt/planlist?customer_id=${customerId}&status=${status}`, as('lisi'))).json().data
          .list as PlanRow[]
      ).map((p) => p.id);
    expect(await byStatus(3)).toEqual([yesterday]);
    expect(await byStatus(0)).toEqual([dueToday]);
    const summary = (await t.get(`/api/frontend/receipt/summary?customer_id=${customerId}`, as('lisi'))).json()
      .data as ReceiptSummary;
    expect(summary.plan_collection.map((p) => [p.id, p.status_name])).toEqual([
      [yesterday, '已逾期'],
      [dueToday, '未回款'],
    ]);
    const after = await wb();
    expect(after.overdue).toBe(before.overdue + 1);
    expect(after.dueIn30Days).toBe(before.dueIn30Days + 1);
  });
});
