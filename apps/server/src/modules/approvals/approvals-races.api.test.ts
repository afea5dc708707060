import type { ApprovalTemplate } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalActions, approvalInstances } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';

/**
 * Transitions under concurrency (issue 13): the instance row is locked (select … for update) and its
 * state checked inside the transaction, so on PostgreSQL two requests at once still make one transition.
 */
let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
let flow: ApprovalTemplate;
let productId = 0;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu']) tokens[u] = await t.login(u);
  flow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
  productId = (await products(t, as('admin'))).find((p) => p.code === 'QC-001')?.id ?? 0;
  for (const name of ['张三', '王五']) ids[name] = await staffIdOf(t, as('admin'), name);
});
afterAll(async () => t.close());

const pendingOrder = async (approvers: number[]) => {
  const c = await customerOf(t, as('lisi'), `并发客户${Math.random().toString(36).slice(2, 8)}`);
  const id = await store(t, as('lisi'), orderBody(c, [{ id: productId, cost_price: 2_400_000 }]));
  const res = await t.post('/api/v1/staff/templatecreate', submitBody(flow, id, { 1: approvers }), as('lisi'));
  expect(res.json().code, JSON.stringify(res.json())).toBe(0);
  return { orderId: id, instanceId: res.json().data.instanceId as number };
};

const actionsOf = async (instanceId: number) =>
  (await t.database.db.select().from(approvalActions).where(eq(approvalActions.instanceId, instanceId))).map((a) => a.action);

describe('races', () => {
  it('two approvers of an 或签 node at once: exactly one advance', async () => {
    for (let round = 0; round < 3; round++) {
      const { orderId, instanceId } = await pendingOrder([ids.张三, ids.王五]);
      const [a, b] = await Promise.all([
        t.post('/api/frontend/order/verify', { order_id: orderId, node_id: 1, status: 1 }, as('zhangsan')),
        t.post('/api/frontend/order/verify', { order_id: orderId, node_id: 1, status: 1 }, as('wangwu')),
      ]);
      const codes = [a.json().code, b.json().code].sort();
      expect(codes[0]).toBe(0);
      expect(codes[1]).not.toBe(0);
      const loser = [a, b].find((r) => r.json().code !== 0);
      expect(loser?.statusCode).toBe(409);
      expect(loser?.json().msg).toBe('该审批已处理，请刷新后查看');
      expect((await actionsOf(instanceId)).filter((x) => x === 'approve')).toHaveLength(1);
      expect((await actionsOf(instanceId)).filter((x) => x === 'cc')).toHaveLength(1);
      const [inst] = await t.database.db.select().from(approvalInstances).where(eq(approvalInstances.id, instanceId));
      expect(inst.status).toBe(1);
    }
  });

  it('approve vs withdraw at once: one wins, the other gets a clear 4xx', async () => {
    for (let round = 0; round < 3; round++) {
      const { orderId, instanceId } = await pendingOrder([ids.张三]);
      const [approve, take] = await Promise.all([
        t.post('/api/frontend/order/verify', { order_id: orderId, node_id: 1, status: 1 }, as('zhangsan')),
        t.post('/api/frontend/order/withdraw', { order_id: orderId }, as('lisi')),
      ]);
      const wins = [approve, take].filter((r) => r.json().code === 0);
      expect(wins).toHaveLength(1);
      const lost = [approve, take].find((r) => r.json().code !== 0);
      expect(lost?.statusCode).toBe(409);
      expect(lost?.json().msg).toBe('该审批已处理，请刷新后查看');
      const [inst] = await t.database.db.select().from(approvalInstances).where(eq(approvalInstances.id, instanceId));
      expect(inst.status).toBe(approve.json().code === 0 ? 1 : 3);
      const detail = (await t.get(`/api/frontend/order/auditdetail?order_id=${orderId}`, as('lisi'))).json().data;
      expect(detail.verify_status).toBe(inst.status);
    }
  });

  it('an approver of two consecutive nodes double-clicks: only the node he saw passes (issue 22)', async () => {
    const created = await t.post(
      '/api/v1/merchantapp/templateadd',
      {
        name: `连续审批${Math.random().toString(36).slice(2, 6)}`,
        nodes: [
          { name: '一审', type: 0, staffIds: [ids.张三] },
          { name: '二审', type: 0, staffIds: [ids.张三] },
        ],
      },
      as('admin'),
    );
    expect(created.json().code, JSON.stringify(created.json())).toBe(0);
    const twice = (await templates(t, as('lisi'))).find((x) => x.coMatid === created.json().data.coMatid) as ApprovalTemplate;
    const [first, second] = twice.nodes.map((n) => n.nodeId);
    for (let round = 0; round < 5; round++) {
      const c = await customerOf(t, as('lisi'), `连击客户${Math.random().toString(36).slice(2, 8)}`);
      const orderId = await store(t, as('lisi'), orderBody(c, [{ id: productId, cost_price: 2_400_000 }]));
      const started = await t.post('/api/v1/staff/templatecreate', submitBody(twice, orderId), as('lisi'));
      const instanceId = started.json().data.instanceId as number;
      const clicks = await Promise.all(
        [0, 1, 2].map(() =>
          t.post('/api/frontend/order/verify', { order_id: orderId, node_id: first, status: 1 }, as('zhangsan')),
        ),
      );
      expect(clicks.filter((r) => r.json().code === 0)).toHaveLength(1);
      for (const r of clicks.filter((x) => x.json().code !== 0)) {
        expect(r.statusCode).toBe(409);
        expect(r.json().msg).toBe('您已审批过该节点，请勿重复操作');
      }
      expect((await actionsOf(instanceId)).filter((x) => x === 'approve')).toHaveLength(1);
      const [inst] = await t.database.db.select().from(approvalInstances).where(eq(approvalInstances.id, instanceId));
      expect(inst).toMatchObject({ status: 0, currentNode: 1 });
    }
    // the second node is then approved on purpose, by naming it
    const c = await customerOf(t, as('lisi'), '连击客户二审');
    const orderId = await store(t, as('lisi'), orderBody(c, [{ id: productId, cost_price: 2_400_000 }]));
    const instanceId = (await t.post('/api/v1/staff/templatecreate', submitBody(twice, orderId), as('lisi'))).json().data
      .instanceId as number;
    const act = (nodeId: number) => t.post('/api/v1/staff/approvalact', { instanceId, nodeId, status: 1 }, as('zhangsan'));
    expect((await act(first)).json().data.status).toBe(0);
    expect((await act(first)).json().msg).toBe('您已审批过该节点，请勿重复操作');
    expect((await act(second)).json().data.status).toBe(1);
    expect((await act(second)).statusCode).toBe(409);
    // a client that does not name the node is refused with a clear message
    const old = await t.post('/api/v1/staff/approvalact', { instanceId, status: 1 }, as('zhangsan'));
    expect(old.statusCode).toBe(400);
    expect(old.json().msg).toContain('审批页面已过期，请刷新后重试');
    const oldOrder = await t.post('/api/frontend/order/verify', { order_id: orderId, status: 1 }, as('zhangsan'));
    expect(oldOrder.json().msg).toContain('审批页面已过期，请刷新后重试');
  });

  it('two submits of one draft at once: one instance', async () => {
    const c = await customerOf(t, as('lisi'), '并发提交客户');
    const id = await store(t, as('lisi'), orderBody(c, [{ id: productId, cost_price: 2_400_000 }]));
    const body = submitBody(flow, id, { 1: [ids.张三] });
    const [a, b] = await Promise.all([
      t.post('/api/v1/staff/templatecreate', body, as('lisi')),
      t.post('/api/v1/staff/templatecreate', body, as('lisi')),
    ]);
    expect([a.json().code, b.json().code].filter((c) => c === 0)).toHaveLength(1);
    const rows = await t.database.db.select().from(approvalInstances).where(eq(approvalInstances.docId, id));
    expect(rows).toHaveLength(1);
  });
});
