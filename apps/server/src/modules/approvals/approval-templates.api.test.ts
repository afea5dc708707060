import type { ApprovalTemplate } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalInstances } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';

let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'other_admin']) tokens[u] = await t.login(u);
  for (const name of ['张三', '王五', '李四']) ids[name] = await staffIdOf(t, as('admin'), name);
});
afterAll(async () => t.close());

describe('approval templates', () => {
  it('admin CRUD; sales may read but not edit; messages', async () => {
    expect(
      (
        await t.post(
          '/api/v1/merchantapp/templateadd',
          { name: '无审批人', nodes: [{ type: 1, staffIds: [ids.张三] }] },
          as('admin'),
        )
      ).json().msg,
    ).toBe('请至少添加一个审批人节点');
    expect((await t.post('/api/v1/merchantapp/templateadd', { name: '空', nodes: [] }, as('admin'))).json().msg).toBe(
      '请至少添加一个审批节点',
    );
    expect(
      (
        await t.post(
          '/api/v1/merchantapp/templateadd',
          { name: '四人', nodes: [{ type: 0, staffIds: [1, 2, 3, 4] }] },
          as('admin'),
        )
      ).json().msg,
    ).toBe('最多选择3名！');
    expect(
      (await t.post('/api/v1/merchantapp/templateadd', { name: '订单审批', nodes: [{ type: 0 }] }, as('admin'))).json().msg,
    ).toBe('审批流程名称已存在');
    expect(
      (await t.post('/api/v1/merchantapp/templateadd', { name: '销售不能建', nodes: [{ type: 0 }] }, as('lisi'))).statusCode,
    ).toBe(403);
    const res = await t.post(
      '/api/v1/merchantapp/templateadd',
      { name: '版本测试', nodes: [{ type: 0, staffIds: [ids.张三] }], controls: [{ name: '折扣原因', dmType: 0, dmMust: 1 }] },
      as('admin'),
    );
    expect(res.json().code).toBe(0);
    const info = (await t.get(`/api/v1/merchantapp/templateinfo?id=${res.json().data.coMatid}`, as('lisi'))).json()
      .data as ApprovalTemplate;
    expect(info.templateControls.map((c) => c.dmType)).toEqual([0, 17]);
    expect(info.nodes[0]).toMatchObject({ free: 0, staffS: [{ name: '张三' }] });
    expect((await t.get('/api/v1/merchantapp/templateinfo?id=999999', as('lisi'))).json().msg).toBe('审批流程不存在或已停用');
  });

  it('editing makes a new version; a running instance keeps its own', async () => {
    const created = await t.post(
      '/api/v1/merchantapp/templateadd',
      { name: '改版流程', nodes: [{ type: 0, staffIds: [ids.张三] }] },
      as('admin'),
    );
    const coMatid = created.json().data.coMatid as number;
    const tpl = (await templates(t, as('lisi'))).find((x) => x.coMatid === coMatid) as ApprovalTemplate;
    const productId = (await products(t, as('admin'))).find((p) => p.code === 'QC-001')?.id ?? 0;
    const c = await customerOf(t, as('lisi'), '版本客户');
    const id = await store(t, as('lisi'), orderBody(c, [{ id: productId, cost_price: 2_400_000 }]));
    expect((await t.post('/api/v1/staff/templatecreate', submitBody(tpl, id), as('lisi'))).json().code).toBe(0);
    const edited = await t.post(
      '/api/v1/merchantapp/templateedit',
      { coMatid, name: '改版流程', nodes: [{ type: 0, staffIds: [ids.王五] }] },
      as('admin'),
    );
    expect(edited.json().code).toBe(0);
    expect(
      ((await t.get(`/api/v1/merchantapp/templateinfo?id=${coMatid}`, as('admin'))).json().data as ApprovalTemplate).version,
    ).toBe(2);
    // the running instance still waits for 张三 (version 1)
    expect((await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, as('wangwu'))).statusCode).toBe(
      403,
    );
    expect(
      (await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, as('zhangsan'))).json().data
        .verify_status,
    ).toBe(1);
    // a required control of the template
    const withControl = (await templates(t, as('lisi'))).find((x) => x.name === '版本测试') as ApprovalTemplate;
    const id2 = await store(t, as('lisi'), orderBody(c, [{ id: productId, cost_price: 2_400_000 }]));
    expect((await t.post('/api/v1/staff/templatecreate', submitBody(withControl, id2), as('lisi'))).json().msg).toBe(
      '请输入折扣原因',
    );
    expect((await t.post('/api/v1/merchantapp/templatedel', { coMatid }, as('admin'))).json().code).toBe(0);
    expect((await templates(t, as('lisi'))).some((x) => x.coMatid === coMatid)).toBe(false);
  });

  it('a refused submit writes nothing: the order stays 待提交 and can be submitted again', async () => {
    const flow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
    const productId = (await products(t, as('admin'))).find((p) => p.code === 'QC-001')?.id ?? 0;
    const c = await customerOf(t, as('lisi'), '拒绝提交客户');
    const id = await store(t, as('lisi'), orderBody(c, [{ id: productId, cost_price: 2_400_000 }]));
    const disabled = await t.post('/api/frontend/staff/state', { cmSid: ids.王五, actionState: 1 }, as('admin'));
    expect(disabled.json().code).toBe(0);
    const refused = await t.post('/api/v1/staff/templatecreate', submitBody(flow, id, { 1: [ids.王五] }), as('lisi'));
    expect(refused.json().msg).toBe('审批人不存在或已禁用');
    await t.post('/api/frontend/staff/state', { cmSid: ids.王五, actionState: 0 }, as('admin'));
    tokens.wangwu = await t.login('wangwu'); // disabling ended his sessions
    const instances = await t.database.db.select().from(approvalInstances).where(eq(approvalInstances.docId, id));
    expect(instances).toHaveLength(0);
    const d = (await t.get(`/api/frontend/order/auditdetail?order_id=${id}`, as('lisi'))).json().data;
    expect(d).toMatchObject({ verify_status: -1, verify_status_name: '待提交', can_submit: 1, approval: null });
    // another's order, or a missing one, cannot be submitted
    expect((await t.post('/api/v1/staff/templatecreate', submitBody(flow, id, { 1: [ids.张三] }), as('wangwu'))).json().msg).toBe(
      '只有订单负责人可以提交审批',
    );
    expect(
      (await t.post('/api/v1/staff/templatecreate', submitBody(flow, 999_999, { 1: [ids.张三] }), as('lisi'))).json().msg,
    ).toBe('订单不存在或您无权查看');
    expect((await t.post('/api/v1/staff/templatecreate', submitBody(flow, id, { 1: [ids.张三] }), as('lisi'))).json().code).toBe(
      0,
    );
  });

  it('我的审批 lists and counts', async () => {
    const before = (await t.get('/api/v1/staff/approvalcounts', as('zhangsan'))).json().data;
    const flow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
    const productId = (await products(t, as('admin'))).find((p) => p.code === 'QC-001')?.id ?? 0;
    const c = await customerOf(t, as('lisi'), '列表客户');
    const id = await store(t, as('lisi'), orderBody(c, [{ id: productId, cost_price: 2_400_000 }]));
    await t.post('/api/v1/staff/templatecreate', submitBody(flow, id, { 1: [ids.张三] }), as('lisi'));
    const after = (await t.get('/api/v1/staff/approvalcounts', as('zhangsan'))).json().data;
    expect(after.todo).toBe(before.todo + 1);
    const mine = (await t.get('/api/v1/staff/approvallist?tab=mine', as('lisi'))).json().data;
    expect(mine.list[0]).toMatchObject({
      docId: id,
      customer_name: '列表客户',
      statusName: '待审核',
      current_node_name: '主管审批',
      submitter_name: '李四',
    });
    const wb = (await t.get('/api/frontend/workbench/summary', as('zhangsan'))).json();
    if (wb.code === 0) expect(wb.data.orders.pendingApprovals).toBe(after.todo);
    await t.post('/api/frontend/order/verify', { order_id: id, node_id: 1, status: 1 }, as('zhangsan'));
    const done = (await t.get('/api/v1/staff/approvallist?tab=done', as('zhangsan'))).json().data;
    expect(done.list[0]).toMatchObject({ docId: id, statusName: '已通过' });
    const info = (await t.get(`/api/v1/staff/approvalinfo?instanceId=${mine.list[0].instanceId}`, as('wangwu'))).json();
    expect(info.msg).toBe('审批不存在或您无权查看');
    expect((await t.get('/api/v1/staff/approvallist?tab=todo', as('other_admin'))).json().data.count).toBe(0);
  });
});
