import type { ApprovalTemplate, Product, ReceiptSummary } from '@crm/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../../lib/clock';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';
import { businessToday } from './receipts.service';

let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
let product: Product;
let flow: ApprovalTemplate;
const ids: Record<string, number> = {};
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'other_admin']) tokens[u] = await t.login(u);
  product = (await products(t, as('admin'))).find((p) => p.code === 'QC-001') as Product;
  flow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
  for (const name of ['张三', '李四']) ids[name] = await staffIdOf(t, as('admin'), name);
});
afterAll(async () => t.close());
afterEach(() => setClockOffsetMs(0));

/** An order of `amount` (1/1000 yuan) by lisi, approved by zhangsan unless `approve` is false. */
const orderOf = async (name: string, amount: number, approve = true) => {
  const c = await customerOf(t, as('lisi'), name);
  const id = await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: amount }]));
  if (approve) {
    await t.post('/api/v1/staff/templatecreate', submitBody(flow, id, { 1: [ids.张三] }), as('lisi'));
    const v = await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, as('zhangsan'));
    expect(v.json().code, JSON.stringify(v.json())).toBe(0);
  }
  return { customerId: c, orderId: id };
};
const day = (offsetDays: number) => businessToday(new Date(Date.now() + offsetDays * DAY));
const plan = (user: string, body: Record<string, unknown>) => t.post('/api/frontend/receipt/plancreate', body, as(user));
const mustPlan = async (orderId: number, amount: number, planAt = day(10)) => {
  const res = await plan('lisi', { order_id: orderId, amount, plan_at: planAt, remark: '' });
  expect(res.json().code, JSON.stringify(res.json())).toBe(0);
  expect(res.json().msg).toBe('添加成功！');
  return res.json().data.id as number;
};
const receipt = (user: string, body: Record<string, unknown>) => t.post('/api/frontend/receipt/create', body, as(user));
const summary = async (user: string, q: string) =>
  (await t.get(`/api/frontend/receipt/summary?${q}`, as(user))).json() as { code: number; msg: string; data: ReceiptSummary };

describe('receipt plans', () => {
  it('SPEC §5 messages at their edges (amount 0 and 999999999, remark 50/51)', async () => {
    const { orderId } = await orderOf('回款校验客户', 999_999_999);
    const base = { order_id: orderId, amount: 1000, plan_at: day(5), remark: '' };
    const cases: [unknown, string][] = [
      [{ ...base, order_id: undefined }, '请选择订单'],
      [{ ...base, amount: undefined }, '请输入金额'],
      [{ ...base, amount: 1_000_000_000 }, '金额不能超过999999999'],
      [{ ...base, amount: -1 }, '金额不能小于0'],
      [{ ...base, plan_at: '' }, '请选择日期'],
      [{ ...base, plan_at: '2026-02-30' }, '请选择日期'],
      [{ ...base, remark: 'x'.repeat(51) }, '备注最多50个字符'],
    ];
    for (const [body, msg] of cases) {
      const res = await t.post('/api/frontend/receipt/plancreate', body, as('lisi'));
      expect(res.statusCode, msg).toBe(400);
      expect(res.json().msg, JSON.stringify(res.json())).toContain(msg);
    }
    for (const amount of [0, 999_999_999]) {
      const ok = await plan('lisi', { ...base, amount, remark: 'x'.repeat(50) });
      expect(ok.json().code, JSON.stringify(ok.json())).toBe(0);
    }
    const r = await receipt('lisi', { order_id: orderId, amount: 1, repayment_at: day(0), pay_type: 3 });
    expect(r.json().msg).toContain('请选择回款计划');
  });

  it('plans never add up to more than the order (both edges), and the message says what is left', async () => {
    const { orderId } = await orderOf('回款上限客户', 1_000_000);
    await mustPlan(orderId, 600_000);
    const over = await plan('lisi', { order_id: orderId, amount: 400_001, plan_at: day(20) });
    expect(over.statusCode).toBe(400);
    expect(over.json().msg).toBe('超出订单剩余可计划金额，剩余 ¥400.00');
    const second = await mustPlan(orderId, 400_000, day(20));
    const edit = await t.post('/api/frontend/receipt/planupdate', { id: second, amount: 400_001, plan_at: day(20) }, as('lisi'));
    expect(edit.json().msg).toBe('超出订单剩余可计划金额，剩余 ¥400.00');
    const s = await summary('lisi', `order_id=${orderId}`);
    expect(s.data.plan_amount_sum).toBe(1_000_000);
    expect(s.data.plan_collection.map((p) => p.status_name)).toEqual(['未回款', '未回款']);
  });

  it('only an approved order, one the caller may read, takes plans', async () => {
    const pending = await orderOf('回款待审客户', 500_000, false);
    const res = await plan('lisi', { order_id: pending.orderId, amount: 1, plan_at: day(1) });
    expect(res.json().msg).toBe('订单审批通过后才能添加回款计划');
    const { orderId, customerId } = await orderOf('回款范围客户', 500_000);
    const planId = await mustPlan(orderId, 100_000);
    const foreign = await plan('wangwu', { order_id: orderId, amount: 1, plan_at: day(1) });
    expect(foreign.json().msg).toBe('订单不存在或您无权查看');
    expect((await t.get(`/api/frontend/receipt/planlist?order_id=${orderId}`, as('wangwu'))).json().code).not.toBe(0);
    const mine = (await t.get('/api/frontend/receipt/planlist?limit=200', as('wangwu'))).json().data.list as { id: number }[];
    expect(mine.some((p) => p.id === planId)).toBe(false);
    const other = await t.post('/api/frontend/receipt/plandel', { id: planId }, as('other_admin'));
    expect(other.json().msg).toBe('回款计划不存在或您无权查看');
    expect((await summary('other_admin', `customer_id=${customerId}`)).code).not.toBe(0);
    const admin = (await t.get('/api/frontend/receipt/planlist?limit=200', as('admin'))).json().data.list as { id: number }[];
    expect(admin.some((p) => p.id === planId)).toBe(true);
  });
});

describe('receipts', () => {
  it('a receipt never exceeds what its plan still expects; statuses follow the receipts and the clock', async () => {
    const { orderId, customerId } = await orderOf('回款记录客户', 1_000_000);
    const first = await mustPlan(orderId, 600_000, day(0));
    const second = await mustPlan(orderId, 400_000, day(3));
    const base = { order_id: orderId, order_repayment_plan_id: first, repayment_at: day(0), pay_type: 3, remark: '' };
    expect((await receipt('lisi', { ...base, amount: 1, pay_type: 5 })).json().msg).toBe('请选择付款方式');
    expect((await receipt('lisi', { ...base, order_repayment_plan_id: second + 1000, amount: 1 })).json().msg).toBe(
      '请选择回款计划',
    );
    const part = await receipt('lisi', { ...base, amount: 200_000, remark: 'x'.repeat(50) });
    expect(part.json().code, JSON.stringify(part.json())).toBe(0);
    // SPEC §8's catalogue (issue 23): 添加成功！ for a new plan or receipt, 更新成功！ for an edit
    expect(part.json().msg).toBe('添加成功！');
    const edited = await t.post('/api/frontend/receipt/planupdate', { id: second, amount: 400_000, plan_at: day(3) }, as('lisi'));
    expect(edited.json()).toMatchObject({ code: 0, msg: '更新成功！' });
    const receiptId = (part.json().data as { id: number }).id;
    const editedReceipt = await t.post('/api/frontend/receipt/update', { ...base, id: receiptId, amount: 200_000 }, as('lisi'));
    expect(editedReceipt.json()).toMatchObject({ code: 0, msg: '更新成功！' });
    expect((await receipt('lisi', { ...base, amount: 400_001 })).json().msg).toBe('超出回款计划剩余应回金额，剩余 ¥400.00');
    let s = await summary('lisi', `customer_id=${customerId}`);
    expect(s.data).toMatchObject({ repaid_amount_sum: 200_000, plan_amount_sum: 1_000_000 });
    expect(s.data.plan_collection.map((p) => [p.status_name, p.repaid_amount_sum])).toEqual([
      ['部分回款', 200_000],
      ['未回款', 0],
    ]);
    expect(s.data.plan_collection[0].product_order.product_order_repayments).toMatchObject([
      { amount: 200_000, pay_type: 3, pay_type_name: '微信', order_repayment_plan_id: first },
    ]);
    // the plan's date is today: overdue from the next business day on, not before
    setClockOffsetMs(DAY);
    s = await summary('lisi', `customer_id=${customerId}`);
    expect(s.data.plan_collection.map((p) => p.status_name)).toEqual(['已逾期', '未回款']);
    const overdue = (await t.get(`/api/frontend/receipt/planlist?customer_id=${customerId}&status=3`, as('lisi'))).json().data;
    expect(overdue.list.map((p: { id: number }) => p.id)).toEqual([first]);
    const rest = await receipt('lisi', { ...base, amount: 400_000, pay_type: 1 });
    expect(rest.json().code).toBe(0);
    s = await summary('lisi', `customer_id=${customerId}`);
    expect(s.data.plan_collection.map((p) => p.status_name)).toEqual(['已回款', '未回款']);
    expect(s.data.repaid_amount_sum).toBe(600_000);
    // a plan with receipts is not deleted; a plan is not cut below what it received
    expect((await t.post('/api/frontend/receipt/plandel', { id: first }, as('lisi'))).json().msg).toBe(
      '该回款计划已有回款记录，请先删除回款记录',
    );
    const cut = await t.post('/api/frontend/receipt/planupdate', { id: first, amount: 599_999, plan_at: day(0) }, as('lisi'));
    expect(cut.json().msg).toBe('计划金额不能小于已回款金额 ¥600.00');
    // edit within the cap, delete, then the plan goes
    const rid = rest.json().data.id as number;
    const edit = await t.post(
      '/api/frontend/receipt/update',
      { id: rid, amount: 400_001, repayment_at: day(0), pay_type: 2 },
      as('lisi'),
    );
    expect(edit.json().msg).toBe('超出回款计划剩余应回金额，剩余 ¥400.00');
    expect(
      (await t.post('/api/frontend/receipt/update', { id: rid, amount: 0, repayment_at: day(0), pay_type: 2 }, as('lisi'))).json()
        .code,
    ).toBe(0);
    const list = (await t.get(`/api/frontend/receipt/list?order_id=${orderId}`, as('lisi'))).json().data;
    expect(list.count).toBe(2);
    const past = (await t.get(`/api/frontend/receipt/list?order_id=${orderId}&page=9`, as('lisi'))).json().data;
    expect(past).toEqual({ count: 2, list: [] });
    const pastPlans = (await t.get(`/api/frontend/receipt/planlist?order_id=${orderId}&status=3&page=9`, as('lisi'))).json().data;
    expect(pastPlans).toEqual({ count: 1, list: [] });
    for (const r of list.list) expect((await t.post('/api/frontend/receipt/del', { id: r.id }, as('lisi'))).json().code).toBe(0);
    expect((await t.post('/api/frontend/receipt/plandel', { id: first }, as('lisi'))).json().code).toBe(0);
    s = await summary('lisi', `customer_id=${customerId}`);
    expect(s.data).toMatchObject({ repaid_amount_sum: 0, plan_amount_sum: 400_000 });
  });

  it('with a company receipt flow a receipt counts only once approved', async () => {
    const add = await t.post(
      '/api/v1/merchantapp/templateadd',
      { name: '回款审批', isOrder: 2, nodes: [{ type: 0, mode: 1, staffIds: [ids.张三] }] },
      as('admin'),
    );
    expect(add.json().code, JSON.stringify(add.json())).toBe(0);
    const tpl = (
      (await t.get('/api/v1/merchantapp/templatelist?isOrder=2', as('admin'))).json().data.list as ApprovalTemplate[]
    )[0];
    expect(
      (
        await t.post('/api/frontend/receipt/settingsave', { remind_days: 3, approval_template_id: flow.coMatid }, as('admin'))
      ).json().msg,
    ).toBe('请选择回款审批流程');
    const set = await t.post(
      '/api/frontend/receipt/settingsave',
      { remind_days: 3, approval_template_id: tpl.coMatid },
      as('admin'),
    );
    expect(set.json().code).toBe(0);
    try {
      const { orderId } = await orderOf('回款审批客户', 1_000_000);
      const p = await mustPlan(orderId, 1_000_000);
      const r = await receipt('lisi', {
        order_id: orderId,
        order_repayment_plan_id: p,
        amount: 700_000,
        repayment_at: day(0),
        pay_type: 1,
      });
      expect(r.json().data, JSON.stringify(r.json())).toMatchObject({ verify_status: 0 });
      let s = await summary('lisi', `order_id=${orderId}`);
      expect(s.data.repaid_amount_sum).toBe(0);
      // pending holds the plan: only 300.00 is left
      const more = await receipt('lisi', {
        order_id: orderId,
        order_repayment_plan_id: p,
        amount: 300_001,
        repayment_at: day(0),
        pay_type: 1,
      });
      expect(more.json().msg).toBe('超出回款计划剩余应回金额，剩余 ¥300.00');
      expect((await t.post('/api/frontend/receipt/del', { id: r.json().data.id }, as('lisi'))).json().msg).toBe(
        '回款审批中，不能修改或删除',
      );
      const inst = s.data.plan_collection[0].product_order.product_order_repayments[0].instance_id;
      const act = await t.post('/api/v1/staff/approvalact', { instanceId: inst, nodeId: 1, status: 1 }, as('zhangsan'));
      expect(act.json().code, JSON.stringify(act.json())).toBe(0);
      s = await summary('lisi', `order_id=${orderId}`);
      expect(s.data.repaid_amount_sum).toBe(700_000);
      expect(s.data.plan_collection[0].status_name).toBe('部分回款');
    } finally {
      await t.post('/api/frontend/receipt/settingsave', { remind_days: 3, approval_template_id: 0 }, as('admin'));
    }
  });

  it('workbench shows received this month, plans due in 30 days and overdue ones', async () => {
    const wb = async () => (await t.get('/api/frontend/workbench/summary', as('lisi'))).json().data.receipts;
    const before = await wb();
    const { orderId } = await orderOf('回款工作台客户', 1_000_000);
    const p = await mustPlan(orderId, 500_000, day(5));
    await mustPlan(orderId, 500_000, day(-1));
    await receipt('lisi', { order_id: orderId, order_repayment_plan_id: p, amount: 100_000, repayment_at: day(0), pay_type: 4 });
    const after = await wb();
    expect(after.dueIn30Days).toBe(before.dueIn30Days + 1);
    expect(after.overdue).toBe(before.overdue + 1);
    expect(after.monthReceived).toBe(before.monthReceived + 100_000);
  });
});

describe('detail flags (SPEC §6 cMoney, cReceipt, receipt), enforced on the server', () => {
  it('a role without them can neither plan, record nor read receipts', async () => {
    const { orderId, customerId } = await orderOf('回款权限客户', 1_000_000);
    const planId = await mustPlan(orderId, 500_000);
    type Role = { cmArid: number; name: string; remark: string; dataScope: number; menuIds: number[]; actions: string[] };
    const role = ((await t.get('/api/frontend/role/list', as('admin'))).json().data.list as Role[]).find(
      (r) => r.name === '销售',
    ) as Role;
    const edit = (actions: string[]) =>
      t.post(
        '/api/frontend/role/edit',
        { cmArid: role.cmArid, name: role.name, remark: role.remark, dataScope: role.dataScope, menuIds: role.menuIds, actions },
        as('admin'),
      );
    const flags = ['cMoney', 'cReceipt', 'receipt'].map((k) => `frontend/customer/detail/${k}`);
    expect(flags.every((f) => role.actions.includes(f))).toBe(true);
    expect((await edit(role.actions.filter((a) => !flags.includes(a)))).json().code).toBe(0);
    try {
      const denied = [
        await plan('lisi', { order_id: orderId, amount: 1, plan_at: day(1) }),
        await t.post('/api/frontend/receipt/plandel', { id: planId }, as('lisi')),
        await receipt('lisi', {
          order_id: orderId,
          order_repayment_plan_id: planId,
          amount: 1,
          repayment_at: day(0),
          pay_type: 1,
        }),
        await t.get(`/api/frontend/receipt/summary?customer_id=${customerId}`, as('lisi')),
        await t.get(`/api/frontend/receipt/planlist?customer_id=${customerId}`, as('lisi')),
      ];
      for (const res of denied) expect(res.json().msg).toBe('您没有查看该内容的权限，请联系管理员');
    } finally {
      expect((await edit(role.actions)).json().code).toBe(0);
    }
    expect((await summary('lisi', `customer_id=${customerId}`)).data.plan_amount_sum).toBe(500_000);
  });
});
