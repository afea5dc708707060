import type { ApprovalTemplate, OrderDetail, Product } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';
import { countOrderMatches, ORDER_COUNT_CAP } from './orders.service';

let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
let catalogue: Product[];
let flow: ApprovalTemplate;
let ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'zhaoliu', 'other_admin']) tokens[u] = await t.login(u);
  catalogue = await products(t, as('admin'));
  flow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
  ids = {
    admin: await staffIdOf(t, as('admin'), '系统管理员'),
    zhangsan: await staffIdOf(t, as('admin'), '张三'),
    wangwu: await staffIdOf(t, as('admin'), '王五'),
    lisi: await staffIdOf(t, as('admin'), '李四'),
  };
});
afterAll(async () => t.close());

const simple = () => catalogue.find((p) => p.code === 'QC-001') as Product;
const withVariants = () => catalogue.find((p) => p.code === 'CRM-001') as Product;
const detail = async (user: string, id: number) => {
  const res = await t.get(`/api/frontend/order/auditdetail?order_id=${id}`, as(user));
  return res.json() as { code: number; msg: string; data: OrderDetail };
};

describe('order/store', () => {
  it('SPEC §5 messages at their edge', async () => {
    const c = await customerOf(t, as('lisi'), '订单校验客户');
    const base = orderBody(c, [{ id: simple().id, cost_price: 2_400_000 }]);
    const cases: [unknown, string][] = [
      [{ ...base, product: [] }, '请选择产品'],
      [{ ...base, contact_phone: '  ' }, '请输入联系方式'],
      [{ ...base, attr: { '5': '微信' } }, '请选择签约日期'],
      [{ ...base, attr: { '2': '2026-11-01', '5': '现金' } }, '请选择付款方式'],
      [{ ...base, remark: 'x'.repeat(501) }, '备注最多500个字符'],
      [{ ...base, images: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }, '最多上传9张图片'],
      [{ ...base, images: [999999] }, '文件格式不正确'],
      [{ ...base, product: [{ id: withVariants().id, cost_price: 1, num: 1 }] }, '请选择产品规格（云呼CRM系统）'],
      [{ ...base, product: [{ id: simple().id, cost_price: 999_999_999, num: 2 }] }, '订单金额不能超过999999999'],
      [{ ...base, product: [{ id: simple().id, cost_price: 1_000_000_000, num: 1 }] }, '成交价不能超过999999999'],
    ];
    for (const [body, msg] of cases) {
      const res = await t.post('/api/frontend/order/store', body, as('lisi'));
      expect(res.statusCode, msg).toBe(400);
      expect(res.json().msg, JSON.stringify(res.json())).toContain(msg);
    }
    // exactly at the limit passes
    const edge = await t.post(
      '/api/frontend/order/store',
      { ...base, product: [{ id: simple().id, cost_price: 999_999_999, num: 1 }] },
      as('lisi'),
    );
    expect(edge.json().code).toBe(0);
  });

  it('computes totals and the min-price flag on the server; client totals are ignored', async () => {
    const c = await customerOf(t, as('lisi'), '订单金额客户');
    const crm = withVariants();
    const pro3 = crm.detailed.find(
      (v) => v.specifications_list.map((s) => s.specifications_value_name).join('/') === '专业版/3年',
    );
    expect(pro3).toBeDefined();
    const id = await store(t, as('lisi'), {
      ...orderBody(c, []),
      product: [
        { id: simple().id, cost_price: 2_000_000, num: 3, cost: 1, stand_price: 1, total_price: 5 },
        {
          id: crm.id,
          cost_price: pro3?.price ?? 0,
          num: 2,
          specifications_list: pro3?.specifications_list.map((s) => s.specifications_value_id),
        },
      ],
      cost_price: 1,
    });
    const d = (await detail('lisi', id)).data;
    expect(d.verify_status).toBe(-1);
    expect(d.verify_status_name).toBe('待提交');
    expect(d.product[0]).toMatchObject({
      product_name: '智能质检模块',
      cost_price: 2_000_000,
      num: 3,
      total_price: 6_000_000,
      is_below_min: 0,
    });
    expect(d.product[1]).toMatchObject({
      spec_name: '专业版/3年',
      num: 2,
      total_price: (pro3?.price ?? 0) * 2,
      stand_price: pro3?.minimum_price,
    });
    expect(d.total_price).toBe(6_000_000 + (pro3?.price ?? 0) * 2);
    expect(d.is_below_min).toBe(0);
    const low = await store(t, as('lisi'), orderBody(c, [{ id: simple().id, cost_price: simple().minimum_price - 1 }]));
    expect((await detail('lisi', low)).data).toMatchObject({ is_below_min: 1, product: [{ is_below_min: 1 }] });
  });

  it('only for a customer the caller may see, with the cOrder flag', async () => {
    const c = await customerOf(t, as('lisi'), '李四的私有客户');
    const body = orderBody(c, [{ id: simple().id, cost_price: 2_400_000 }]);
    expect((await t.post('/api/frontend/order/store', body, as('wangwu'))).json().msg).toBe('客户不存在或您无权查看');
    expect((await t.post('/api/frontend/order/store', body, as('other_admin'))).json().msg).toBe('客户不存在或您无权查看');
  });
});

describe('approval flow', () => {
  it('free approver node: only the picked approver verifies; CC sees it; approval marks the deal', async () => {
    const c = await customerOf(t, as('lisi'), '审批通过客户');
    const id = await store(t, as('lisi'), orderBody(c, [{ id: simple().id, cost_price: 2_400_000 }]));
    const noStaff = await t.post('/api/v1/staff/templatecreate', submitBody(flow, id), as('lisi'));
    expect(noStaff.json().msg).toBe('请选择审批人！');
    const tooMany = await t.post(
      '/api/v1/staff/templatecreate',
      submitBody(flow, id, { 1: [ids.zhangsan, ids.wangwu, ids.admin, ids.lisi] }),
      as('lisi'),
    );
    expect(tooMany.json().msg).toBe('最多选择3名！');
    const noFlow = await t.post('/api/v1/staff/templatecreate', { ...submitBody(flow, id), coMatid: 0 }, as('lisi'));
    expect(noFlow.json().msg).toBe('请选择审批流程');
    expect((await detail('lisi', id)).data.verify_status).toBe(-1);
    const ok = await t.post('/api/v1/staff/templatecreate', submitBody(flow, id, { 1: [ids.zhangsan] }), as('lisi'));
    expect(ok.json(), JSON.stringify(ok.json())).toMatchObject({ code: 0, data: { verify_status: 0 } });
    const again = await t.post('/api/v1/staff/templatecreate', submitBody(flow, id, { 1: [ids.zhangsan] }), as('lisi'));
    expect(again.json().msg).toBe('该订单已提交审批，请勿重复提交');
    // not the approver
    const wrong = await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, as('wangwu'));
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().msg).toBe('您不是当前节点的审批人');
    const todo = (await t.get('/api/v1/staff/approvallist?tab=todo', as('zhangsan'))).json().data;
    const row = todo.list.find((r: { docId: number }) => r.docId === id);
    // 审批内容 shows money like the 金额 column next to it (issue 23: not ¥2400.00 beside 2,400.00)
    expect(row?.title).toBe('订单 · 审批通过客户 · ¥2,400.00');
    expect((await detail('zhangsan', id)).data.can_verify).toBe(1);
    const res = await t.post(
      '/api/frontend/order/verify',
      { order_id: id, node_id: 1, status: 1, remark: '同意' },
      as('zhangsan'),
    );
    expect(res.json()).toMatchObject({ code: 0, msg: '审核成功', data: { verify_status: 1 } });
    const d = (await detail('lisi', id)).data;
    expect(d.verify_status_name).toBe('已通过');
    expect(d.approval?.actions.map((a) => a.action)).toEqual(['submit', 'approve', 'cc']);
    expect(d.approval?.nodes[0].staffS[0]).toMatchObject({ name: '张三', actionState: 1, remarks: '同意', freeAdd: 1 });
    const cc = (await t.get('/api/v1/staff/approvallist?tab=cc', as('admin'))).json().data;
    expect(cc.list.some((r: { docId: number }) => r.docId === id)).toBe(true);
    // effects: 成交 stage, follow record, pools' deal fact
    const info = (await t.get(`/api/frontend/customer/info?cmCtid=${c}`, as('lisi'))).json().data;
    expect(info.cmNidName).toBe('成交');
    const follows = (await t.get(`/api/frontend/customer/followlist?cmCtid=${c}`, as('lisi'))).json().data.list;
    expect(follows[0].remark).toContain('订单审批通过');
    const late = await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 2 }, as('zhangsan'));
    expect(late.statusCode).toBe(409);
  });

  it('会签 needs all; 或签 advances on the first; a rejection ends the flow', async () => {
    const big = (await templates(t, as('lisi'))).find((x) => x.name === '大额订单审批') as ApprovalTemplate;
    const c = await customerOf(t, as('lisi'), '会签客户');
    const id = await store(t, as('lisi'), orderBody(c, [{ id: simple().id, cost_price: 2_400_000 }]));
    const started = await t.post('/api/v1/staff/templatecreate', submitBody(big, id, { 2: [ids.wangwu, ids.admin] }), as('lisi'));
    expect(started.json().code).toBe(0);
    expect((await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, as('wangwu'))).statusCode).toBe(
      403,
    );
    expect(
      (await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, as('zhangsan'))).json().data
        .verify_status,
    ).toBe(0);
    expect(
      (await t.post('/api/frontend/order/verify', { order_id: id, node_id: 2, status: 1 }, as('wangwu'))).json().data
        .verify_status,
    ).toBe(0);
    expect((await t.post('/api/frontend/order/verify', { order_id: id, node_id: 2, status: 1 }, as('wangwu'))).json().msg).toBe(
      '您已审批过该节点，请等待其他审批人',
    );
    expect(
      (await t.post('/api/frontend/order/verify', { order_id: id, node_id: 2, status: 1 }, as('admin'))).json().data
        .verify_status,
    ).toBe(1);

    const id2 = await store(t, as('lisi'), orderBody(c, [{ id: simple().id, cost_price: 2_400_000 }]));
    await t.post('/api/v1/staff/templatecreate', submitBody(big, id2, { 2: [ids.wangwu, ids.admin] }), as('lisi'));
    await t.post('/api/frontend/order/verify', { order_id: id2, node_id: 1, status: 1 }, as('zhangsan'));
    const rej = await t.post(
      '/api/frontend/order/verify',
      { order_id: id2, node_id: 2, status: 2, remark: '价格太低' },
      as('wangwu'),
    );
    expect(rej.json().data.verify_status).toBe(2);
    expect((await t.post('/api/frontend/order/verify', { order_id: id2, node_id: 2, status: 1 }, as('admin'))).statusCode).toBe(
      409,
    );
    expect((await detail('lisi', id2)).data).toMatchObject({ verify_status_name: '已驳回', can_submit: 1 });
    // a rejected order can be submitted again
    const resubmit = await t.post('/api/v1/staff/templatecreate', submitBody(flow, id2, { 1: [ids.zhangsan] }), as('lisi'));
    expect(resubmit.json().data.verify_status).toBe(0);
  });

  it('withdraw by the submitter only, while pending', async () => {
    const c = await customerOf(t, as('lisi'), '撤回客户');
    const id = await store(t, as('lisi'), orderBody(c, [{ id: simple().id, cost_price: 2_400_000 }]));
    await t.post('/api/v1/staff/templatecreate', submitBody(flow, id, { 1: [ids.zhangsan] }), as('lisi'));
    expect((await t.post('/api/frontend/order/withdraw', { order_id: id }, as('zhangsan'))).json().msg).toBe(
      '只有发起人可以撤回审批',
    );
    expect((await t.post('/api/frontend/order/withdraw', { order_id: id }, as('lisi'))).json().code).toBe(0);
    expect((await detail('lisi', id)).data.verify_status_name).toBe('已撤回');
    expect((await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, as('zhangsan'))).statusCode).toBe(
      409,
    );
    const counts = (await t.get('/api/v1/staff/approvalcounts', as('zhangsan'))).json().data;
    expect(counts.todo).toBeGreaterThanOrEqual(0);
  });
});

describe('visibility, collaborators and transfer', () => {
  it('a colleague sees the order only as collaborator; transfer keeps the former owner on request', async () => {
    const c = await customerOf(t, as('lisi'), '协同客户');
    const id = await store(t, as('lisi'), orderBody(c, [{ id: simple().id, cost_price: 2_400_000 }]));
    const listOf = async (u: string) =>
      ((await t.get('/api/frontend/order/list?limit=200', as(u))).json().data.list as { id: number }[]).map((r) => r.id);
    expect(await listOf('lisi')).toContain(id);
    expect(await listOf('wangwu')).not.toContain(id);
    expect((await detail('wangwu', id)).code).not.toBe(0);
    expect(await listOf('zhangsan')).toContain(id);
    expect(
      (await t.post('/api/frontend/order/cooperators', { product_order_ids: [id], staff_ids: [ids.wangwu] }, as('lisi')))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await t.post('/api/frontend/order/cooperators', { product_order_ids: [id], staff_ids: [ids.wangwu] }, as('zhangsan'))
      ).json().code,
    ).toBe(0);
    expect(await listOf('wangwu')).toContain(id);
    expect((await detail('wangwu', id)).data.cooperators.map((x) => x.linkman)).toEqual(['王五']);
    const noOwner = await t.post('/api/frontend/order/transfer', { product_order_ids: [id] }, as('zhangsan'));
    expect(noOwner.json().msg).toBe('请选择负责人');
    const moved = await t.post(
      '/api/frontend/order/transfer',
      { product_order_ids: [id], transfer_to_staff_id: ids.wangwu, set_cooperator: 1 },
      as('zhangsan'),
    );
    expect(moved.json().code).toBe(0);
    const d = (await detail('wangwu', id)).data;
    expect(d.owner.linkman).toBe('王五');
    expect(d.cooperators.map((x) => x.linkman)).toEqual(['李四']);
    // the list row names the owner and the collaborators too (one look-up of staff names for both)
    const rows = (await t.get('/api/frontend/order/list?limit=200', as('wangwu'))).json().data.list as {
      id: number;
      owner: string;
      cooperators: { linkman: string }[];
    }[];
    const row = rows.find((r) => r.id === id);
    expect(row?.owner).toBe('王五');
    expect(row?.cooperators.map((x) => x.linkman)).toEqual(['李四']);
  });

  it('tenants are isolated', async () => {
    const c = await customerOf(t, as('lisi'), '租户隔离客户');
    const id = await store(t, as('lisi'), orderBody(c, [{ id: simple().id, cost_price: 2_400_000 }]));
    expect((await detail('other_admin', id)).code).not.toBe(0);
    expect((await t.get('/api/frontend/order/list', as('other_admin'))).json().data.count).toBe(0);
    expect((await t.get('/api/frontend/product/list', as('other_admin'))).json().data.count).toBe(0);
    expect(
      (await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, as('other_admin'))).statusCode,
    ).toBe(404);
  });
});

describe('the order list count', () => {
  it('is exact below the cap and the planner’s estimate (never below the cap) from it; the list says which', async () => {
    const c = await customerOf(t, as('lisi'), '计数上限客户');
    for (let i = 0; i < 3; i++) await store(t, as('lisi'), orderBody(c, [{ id: simple().id, cost_price: 2_400_000 }]));
    const tenantId = (await t.database.db.select({ id: customers.tenantId }).from(customers).where(eq(customers.id, c)))[0].id;
    const filter = { tenantId, ownerIds: null, customerId: c };
    // 3 matches: under a cap of 4 exact, at a cap of 3 estimated (and at least 3)
    expect(await countOrderMatches(t.database.db, filter, 4)).toEqual({ count: 3, isCountEstimated: false });
    const capped = await countOrderMatches(t.database.db, filter, 3);
    expect(capped.isCountEstimated).toBe(true);
    expect(capped.count).toBeGreaterThanOrEqual(3);
    // the list under the real cap (10,000) counts exactly and says so
    const list = (await t.get(`/api/frontend/order/list?customer_id=${c}`, as('lisi'))).json().data;
    expect(list).toMatchObject({ count: 3, isCountEstimated: false });
    expect(ORDER_COUNT_CAP).toBe(10_000);
  });
});
