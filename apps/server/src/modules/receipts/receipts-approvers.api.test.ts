import type { ApprovalTemplate, Product, ReceiptSummary } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';
import { businessToday } from './receipts.service';

/**
 * A company receipt flow with a free approver node (自选审批人, issue 14): the new receipt names the
 * approvers in staffApproveNode; without them it is refused (请选择审批人！) and nothing is left behind.
 */
let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi']) tokens[u] = await t.login(u);
  for (const name of ['张三', '王五']) ids[name] = await staffIdOf(t, as('admin'), name);
});
afterAll(async () => t.close());

describe('receipt flow with a free approver node', () => {
  it('needs 1–3 picked approvers; a refused receipt leaves nothing; the picked approver decides', async () => {
    const product = (await products(t, as('admin'))).find((p) => p.code === 'QC-001') as Product;
    const orderFlow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
    const c = await customerOf(t, as('lisi'), '回款自选审批客户');
    const orderId = await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: 1_000_000 }]));
    await t.post('/api/v1/staff/templatecreate', submitBody(orderFlow, orderId, { 1: [ids.张三] }), as('lisi'));
    expect(
      (await t.post('/api/frontend/order/verify', { order_id: orderId, node_id: 1, status: 1 }, as('zhangsan'))).json().code,
    ).toBe(0);
    const today = businessToday();
    const plan = (
      await t.post('/api/frontend/receipt/plancreate', { order_id: orderId, amount: 1_000_000, plan_at: today }, as('lisi'))
    ).json().data.id as number;

    const add = await t.post(
      '/api/v1/merchantapp/templateadd',
      { name: '回款自选审批', isOrder: 2, nodes: [{ type: 0, mode: 1, staffIds: [] }] },
      as('admin'),
    );
    expect(add.json().code, JSON.stringify(add.json())).toBe(0);
    const tpl = (
      (await t.get('/api/v1/merchantapp/templatelist?isOrder=2', as('admin'))).json().data.list as ApprovalTemplate[]
    ).find((x) => x.name === '回款自选审批') as ApprovalTemplate;
    const node = tpl.nodes[0];
    expect(node.free).toBe(1);
    const set = (id: number) =>
      t.post('/api/frontend/receipt/settingsave', { remind_days: 3, approval_template_id: id }, as('admin'));
    expect((await set(tpl.coMatid)).json().code).toBe(0);
    try {
      const body = { order_id: orderId, order_repayment_plan_id: plan, amount: 400_000, repayment_at: today, pay_type: 1 };
      const none = await t.post('/api/frontend/receipt/create', body, as('lisi'));
      expect(none.statusCode).toBe(400);
      expect(none.json()).toMatchObject({ code: 111023, msg: '请选择审批人！' });
      const four = await t.post(
        '/api/frontend/receipt/create',
        { ...body, staffApproveNode: [{ nodeId: node.nodeId, staffS: [1, 2, 3, 4].map((id) => ({ id })) }] },
        as('lisi'),
      );
      expect(four.statusCode).toBe(400);
      expect(four.json().msg).toContain('最多选择3名！');
      const summary = async () =>
        (await t.get(`/api/frontend/receipt/summary?order_id=${orderId}`, as('lisi'))).json().data as ReceiptSummary;
      expect((await summary()).plan_collection[0].product_order.product_order_repayments).toEqual([]);
      const ok = await t.post(
        '/api/frontend/receipt/create',
        { ...body, staffApproveNode: [{ nodeId: node.nodeId, staffS: [{ id: ids.张三 }] }] },
        as('lisi'),
      );
      expect(ok.json().data, JSON.stringify(ok.json())).toMatchObject({ verify_status: 0 });
      const [r] = (await summary()).plan_collection[0].product_order.product_order_repayments;
      // the picked approver decides; the receipt then counts
      const act = await t.post(
        '/api/v1/staff/approvalact',
        { instanceId: r.instance_id, nodeId: node.nodeId, status: 1 },
        as('zhangsan'),
      );
      expect(act.json().code, JSON.stringify(act.json())).toBe(0);
      expect((await summary()).repaid_amount_sum).toBe(400_000);
    } finally {
      await set(0);
    }
  });
});
