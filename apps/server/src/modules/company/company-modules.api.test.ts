import type { ApprovalTemplate, CompanyModules, MenuList, Product } from '@crm/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';
import { businessToday } from '../receipts/receipts.service';

/** Company module switches (issue 14): off → the SPEC alert (403) at creation and lists; on again → works. */
let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
let product: Product;
let flow: ApprovalTemplate;
let zhangsan = 0;
const ALL_ON: CompanyModules = { order: true, receipt: true, work: true };

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'other_admin']) tokens[u] = await t.login(u);
  product = (await products(t, as('admin'))).find((p) => p.code === 'QC-001') as Product;
  flow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
  zhangsan = await staffIdOf(t, as('admin'), '张三');
});
afterAll(async () => t.close());
afterEach(async () => {
  await t.post('/api/frontend/company/modulesave', ALL_ON, as('admin'));
});

const save = (m: Partial<CompanyModules>, user = 'admin') =>
  t.post('/api/frontend/company/modulesave', { ...ALL_ON, ...m }, as(user));
const detail = async (user: string, id: number) =>
  (await t.get(`/api/frontend/customer/info?cmCtid=${id}`, as(user))).json().data as { modules: CompanyModules };
const menuIds = async (user: string) => {
  const list = (await t.get('/api/frontend/user/info', as(user))).json().data.menulist as MenuList;
  const ids: number[] = [];
  const walk = (nodes: { cmMid: number; children: unknown[] }[]) => {
    for (const n of nodes) {
      ids.push(n.cmMid);
      walk(n.children as { cmMid: number; children: unknown[] }[]);
    }
  };
  for (const app of list) walk(app.menus as never);
  return ids;
};
const refused = (res: { statusCode: number; json: () => { code: number; msg: string } }, code: number, msg: string) => {
  expect(res.statusCode, JSON.stringify(res.json())).toBe(403);
  expect(res.json()).toMatchObject({ code, msg });
};

describe('company module switches', () => {
  it('all on by default; only the company page (admin) changes them; bad bodies are a 400', async () => {
    expect((await t.get('/api/frontend/company/modules', as('admin'))).json().data).toEqual(ALL_ON);
    expect((await save({ order: false }, 'lisi')).statusCode).toBe(403);
    const bad = await t.post('/api/frontend/company/modulesave', { order: false, receipt: true }, as('admin'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toContain('请选择工单模块开关');
    expect((await t.get('/api/frontend/company/modules', as('admin'))).json().data).toEqual(ALL_ON);
  });

  it('订单 off: order creation, list and export say 暂无订单接口; the detail and menus follow; on again works', async () => {
    const c = await customerOf(t, as('lisi'), '模块订单客户');
    expect((await save({ order: false })).json().code).toBe(0);
    expect((await t.get('/api/frontend/company/modules', as('admin'))).json().data).toEqual({ ...ALL_ON, order: false });
    refused(
      await t.post('/api/frontend/order/store', orderBody(c, [{ id: product.id, cost_price: 1000 }]), as('lisi')),
      114001,
      '暂无订单接口',
    );
    refused(await t.get('/api/frontend/order/list', as('lisi')), 114001, '暂无订单接口');
    refused(await t.get(`/api/frontend/order/list?customer_id=${c}`, as('lisi')), 114001, '暂无订单接口');
    refused(await t.post('/api/frontend/order/export', {}, as('admin')), 114001, '暂无订单接口');
    expect((await detail('lisi', c)).modules).toEqual({ ...ALL_ON, order: false });
    // the workbench shows no order figures while the module is off
    expect((await t.get('/api/frontend/workbench/summary', as('lisi'))).json().data.orders).toBeUndefined();
    expect((await t.get('/api/frontend/workbench/summary', as('other_admin'))).json().data.orders).toBeDefined();
    const hidden = await menuIds('admin');
    expect(hidden).not.toContain(161);
    expect(hidden).toContain(163);
    // another company is not touched
    expect((await t.get('/api/frontend/order/list', as('other_admin'))).json().code).toBe(0);
    expect(await menuIds('other_admin')).toContain(161);
    expect((await save({ order: true })).json().code).toBe(0);
    await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: 1000 }]));
    expect((await t.get(`/api/frontend/order/list?customer_id=${c}`, as('lisi'))).json().data.count).toBe(1);
    expect((await detail('lisi', c)).modules).toEqual(ALL_ON);
    expect(await menuIds('admin')).toContain(161);
    expect((await t.get('/api/frontend/workbench/summary', as('lisi'))).json().data.orders).toBeDefined();
  });

  it('回款 off: plans, receipts, lists, summary and figures say 暂无回款接口; an existing receipt may still be edited', async () => {
    const c = await customerOf(t, as('lisi'), '模块回款客户');
    const orderId = await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: 1_000_000 }]));
    await t.post('/api/v1/staff/templatecreate', submitBody(flow, orderId, { 1: [zhangsan] }), as('lisi'));
    expect(
      (await t.post('/api/frontend/order/verify', { order_id: orderId, node_id: 1, status: 1 }, as('zhangsan'))).json().code,
    ).toBe(0);
    const today = businessToday();
    const plan = (
      await t.post('/api/frontend/receipt/plancreate', { order_id: orderId, amount: 500_000, plan_at: today }, as('lisi'))
    ).json().data.id as number;
    const rBody = { order_id: orderId, order_repayment_plan_id: plan, amount: 1000, repayment_at: today, pay_type: 3 };
    const rid = (await t.post('/api/frontend/receipt/create', rBody, as('lisi'))).json().data.id as number;
    expect((await save({ receipt: false })).json().code).toBe(0);
    const M = [114002, '暂无回款接口'] as const;
    refused(await t.post('/api/frontend/receipt/plancreate', { order_id: orderId, amount: 1, plan_at: today }, as('lisi')), ...M);
    refused(await t.post('/api/frontend/receipt/create', rBody, as('lisi')), ...M);
    refused(await t.get('/api/frontend/receipt/planlist', as('lisi')), ...M);
    refused(await t.get(`/api/frontend/receipt/list?order_id=${orderId}`, as('lisi')), ...M);
    refused(await t.get(`/api/frontend/receipt/summary?customer_id=${c}`, as('lisi')), ...M);
    refused(await t.get('/api/frontend/receipt/stats', as('admin')), ...M);
    refused(await t.post('/api/frontend/receipt/export', {}, as('admin')), ...M);
    expect((await detail('lisi', c)).modules).toEqual({ ...ALL_ON, receipt: false });
    expect(await menuIds('admin')).not.toContain(163);
    // orders are another module: still there
    expect((await t.get(`/api/frontend/order/list?customer_id=${c}`, as('lisi'))).json().code).toBe(0);
    const edit = await t.post(
      '/api/frontend/receipt/update',
      { id: rid, amount: 2000, repayment_at: today, pay_type: 3 },
      as('lisi'),
    );
    expect(edit.json().code, JSON.stringify(edit.json())).toBe(0);
    expect((await t.get('/api/frontend/receipt/planlist', as('other_admin'))).json().code).toBe(0);
    expect((await save({ receipt: true })).json().code).toBe(0);
    const s = (await t.get(`/api/frontend/receipt/summary?customer_id=${c}`, as('lisi'))).json().data;
    expect(s).toMatchObject({ plan_amount_sum: 500_000, repaid_amount_sum: 2000 });
    expect((await t.post('/api/frontend/receipt/create', rBody, as('lisi'))).json().code).toBe(0);
    expect(await menuIds('admin')).toContain(163);
  });

  it('工单 off: creation and the list say 暂无工单接口, the detail carries it and menu 171 hides; this company only', async () => {
    const c = await customerOf(t, as('lisi'), '模块工单客户');
    const typeId = (
      (await t.get('/api/frontend/workorder/typelist', as('lisi'))).json().data.list as { id: number; name: string }[]
    ).find((x) => x.name === '售后服务')?.id as number;
    const body = { customer_id: c, type_id: typeId, workOrderName: '模块开关工单' };
    expect((await save({ work: false })).json().code).toBe(0);
    refused(await t.post('/api/frontend/workorder/create', body, as('lisi')), 114003, '暂无工单接口');
    refused(await t.get(`/api/frontend/workorder/list?customer_id=${c}`, as('lisi')), 114003, '暂无工单接口');
    expect((await detail('lisi', c)).modules).toEqual({ ...ALL_ON, work: false });
    expect(await menuIds('admin')).not.toContain(171);
    const wb = (await t.get('/api/frontend/workbench/summary', as('lisi'))).json().data;
    expect(wb.workOrders).toBeUndefined();
    expect(wb.receipts).toBeDefined();
    expect((await t.get('/api/frontend/company/modules', as('other_admin'))).json().data).toEqual(ALL_ON);
    expect((await t.get('/api/frontend/workorder/list', as('other_admin'))).json().code).toBe(0);
    expect((await save({ work: true })).json().code).toBe(0);
    const made = await t.post('/api/frontend/workorder/create', body, as('lisi'));
    expect(made.json().code, JSON.stringify(made.json())).toBe(0);
    expect((await t.get(`/api/frontend/workorder/list?customer_id=${c}`, as('lisi'))).json().data.count).toBe(1);
    expect((await detail('lisi', c)).modules.work).toBe(true);
  });
});
