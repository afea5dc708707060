import type { ApprovalTemplate } from '@crm/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client';
import { approvalInstances, receipts } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';
import { authenticate } from '../auth/auth.service';
import { businessToday, createReceipt } from './receipts.service';

/**
 * A receipt under a company receipt flow and the start of its approval are one transaction (issue 24):
 * when the process dies at the approval's start, no pending receipt without an approval is left
 * holding its plan. The "crash" is a database that fails at the insert of the approval instance and
 * answers nothing afterwards (no clean-up can run).
 */
let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];

/** The database as seen by a process that dies when it starts writing the approval instance. */
const dyingAtApprovalStart = (db: Db): Db => {
  let dead = false;
  const DB_CALLS = ['select', 'insert', 'update', 'delete', 'execute', 'transaction'];
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(obj, prop) {
        const v = Reflect.get(obj, prop, obj);
        if (typeof v !== 'function') return v;
        if (dead && typeof prop === 'string' && DB_CALLS.includes(prop))
          return () => {
            throw new Error('the process is gone');
          };
        if (prop === 'insert')
          return (table: unknown) => {
            if (table === approvalInstances) {
              dead = true;
              throw new Error('the process died at the approval start');
            }
            return v.call(obj, table);
          };
        if (prop === 'transaction')
          return (cb: (tx: object) => unknown, cfg?: unknown) => v.call(obj, (tx: object) => cb(wrap(tx)), cfg);
        return v.bind(obj);
      },
    });
  return wrap(db);
};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi']) tokens[u] = await t.login(u);
});
afterAll(async () => t.close());

describe('receipt and its approval start', () => {
  it('a crash at the approval start leaves no receipt and the plan free', async () => {
    const zhangsan = await staffIdOf(t, as('admin'), '张三');
    const productId = (await products(t, as('admin'))).find((p) => p.code === 'QC-001')?.id ?? 0;
    const orderFlow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
    const c = await customerOf(t, as('lisi'), '回款审批崩溃客户');
    const orderId = await store(t, as('lisi'), orderBody(c, [{ id: productId, cost_price: 1_000_000 }]));
    await t.post('/api/v1/staff/templatecreate', submitBody(orderFlow, orderId, { 1: [zhangsan] }), as('lisi'));
    expect(
      (await t.post('/api/frontend/order/verify', { order_id: orderId, node_id: 1, status: 1 }, as('zhangsan'))).json().code,
    ).toBe(0);
    const today = businessToday();
    const planId = (
      await t.post('/api/frontend/receipt/plancreate', { order_id: orderId, amount: 1_000_000, plan_at: today }, as('lisi'))
    ).json().data.id as number;
    const add = await t.post(
      '/api/v1/merchantapp/templateadd',
      { name: '回款崩溃审批', isOrder: 2, nodes: [{ type: 0, mode: 1, staffIds: [zhangsan] }] },
      as('admin'),
    );
    expect(add.json().code, JSON.stringify(add.json())).toBe(0);
    const flow = (
      (await t.get('/api/v1/merchantapp/templatelist?isOrder=2', as('admin'))).json().data.list as ApprovalTemplate[]
    ).find((x) => x.name === '回款崩溃审批') as ApprovalTemplate;
    const setFlow = (id: number) =>
      t.post('/api/frontend/receipt/settingsave', { remind_days: 3, approval_template_id: id }, as('admin'));
    expect((await setFlow(flow.coMatid)).json().code).toBe(0);
    try {
      const actor = await authenticate(t.database.db, as('lisi'));
      if (!actor) throw new Error('no actor');
      const body = {
        order_id: orderId,
        order_repayment_plan_id: planId,
        amount: 1_000_000,
        repayment_at: today,
        pay_type: 1 as const,
        remark: '',
        staffApproveNode: [],
      };
      // whatever the dying process still tried (a clean-up) failed too
      await expect(createReceipt(dyingAtApprovalStart(t.database.db), undefined, actor, body)).rejects.toThrow(
        /the process (died at the approval start|is gone)/,
      );
      // nothing of the receipt is left, so the plan's whole amount is still free for a new receipt
      const left = await t.database.db
        .select({ id: receipts.id })
        .from(receipts)
        .where(and(eq(receipts.tenantId, actor.tenantId), eq(receipts.planId, planId)));
      expect(left).toEqual([]);
      const again = await t.post('/api/frontend/receipt/create', body, as('lisi'));
      expect(again.json().code, JSON.stringify(again.json())).toBe(0);
      expect(again.json().data.verify_status).toBe(0);
    } finally {
      await setFlow(0);
    }
  });
});
