import { type Product, WORK_ORDER_MSG_TYPE, type WorkOrderDetail, type WorkOrderRow, type WorkType } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffChannel } from '../../lib/pubsub';
import { multipart } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store } from '../../test/orders';

let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
const ids: Record<string, number> = {};
let demoType: WorkType;
const P = '/api/frontend/workorder';

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'zhaoliu']) tokens[u] = await t.login(u);
  for (const name of ['张三', '李四', '王五', '赵六']) ids[name] = await staffIdOf(t, as('admin'), name);
  demoType = ((await t.get(`${P}/typelist`, as('lisi'))).json().data.list as WorkType[]).find(
    (x) => x.name === '售后服务',
  ) as WorkType;
});
afterAll(async () => t.close());

const post = async (path: string, body: unknown, user: string) => (await t.post(`${P}/${path}`, body, as(user))).json();
const detail = async (id: number, user: string) => (await t.get(`${P}/detail?id=${id}`, as(user))).json().data as WorkOrderDetail;
const list = async (query: string, user: string) => {
  const res = (await t.get(`${P}/list?${query}`, as(user))).json();
  expect(res.code, JSON.stringify(res)).toBe(0);
  return res.data as { count: number; list: WorkOrderRow[] };
};
const stage = (name: string) => demoType.stages.find((s) => s.name === name)?.id as number;
const create = async (user: string, customerId: number, extra: Record<string, unknown> = {}) => {
  const r = await post('create', { customer_id: customerId, type_id: demoType.id, workOrderName: '安装调试', ...extra }, user);
  expect(r.code, JSON.stringify(r)).toBe(0);
  return r.data.id as number;
};
const upload = async (user: string, name: string) => {
  const { payload, contentType } = multipart({ name, data: Buffer.from('工单附件内容'), type: 'text/plain' });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/frontend/upload/file',
    payload,
    headers: { 'content-type': contentType, authorization: as(user) },
  });
  return res.json().data as { id: number; url: string };
};
const stages = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `阶段${i + 1}` }));
const typeBody = (over: Record<string, unknown> = {}) => ({
  name: '测试类型',
  default_handler_id: ids['王五'],
  sla_hours: 24,
  stages: stages(2),
  ...over,
});

describe('work-order types (工单设置)', () => {
  it('the demo type: 受理 → 处理中 (rollback) → 回访 → 已完成, handled by 张三 within 48 hours', () => {
    expect(demoType.stages.map((s) => [s.name, s.rollback])).toEqual([
      ['受理', false],
      ['处理中', true],
      ['回访', false],
      ['已完成', false],
    ]);
    expect(demoType).toMatchObject({ default_handler_name: '张三', sla_hours: 48 });
  });

  it('limits: name 20 ok / 21 refused, 2..10 stages, unique names, an active handler; menu 139 only', async () => {
    expect((await post('typesave', typeBody({ name: '类'.repeat(21) }), 'admin')).msg).toBe('类型名称最多20个字符');
    expect((await post('typesave', typeBody({ stages: stages(1) }), 'admin')).msg).toBe('至少设置2个阶段');
    expect((await post('typesave', typeBody({ stages: stages(11) }), 'admin')).msg).toBe('最多设置10个阶段');
    expect((await post('typesave', typeBody({ stages: [{ name: '甲' }, { name: '甲' }] }), 'admin')).code).toBe(113013);
    expect((await post('typesave', typeBody({ default_handler_id: 999_999 }), 'admin')).code).toBe(113009);
    expect((await post('typesave', typeBody(), 'lisi')).code).toBe(100003);
    expect((await post('typedel', { id: demoType.id }, 'lisi')).code).toBe(100003);
    const long = await post('typesave', typeBody({ name: '类'.repeat(20), stages: stages(10) }), 'admin');
    expect(long.code, JSON.stringify(long)).toBe(0);
    const two = await post('typesave', typeBody({ name: '两阶段' }), 'admin');
    expect(two.code).toBe(0);
    expect((await post('typesave', typeBody({ name: '两阶段' }), 'admin')).code).toBe(113002);
    const saved = ((await t.get(`${P}/typelist`, as('admin'))).json().data.list as WorkType[]).find((x) => x.id === long.data.id);
    expect(saved?.stages).toHaveLength(10);
    expect((await post('typedel', { id: two.data.id }, 'admin')).code).toBe(0);
    // a deleted type's name is free again
    expect((await post('typesave', typeBody({ name: '两阶段' }), 'admin')).code).toBe(0);
  });

  it('a stage with open work orders is not removed; a type with open work orders is not deleted', async () => {
    const c = await customerOf(t, as('lisi'), '工单类型客户');
    const r = await post(
      'typesave',
      typeBody({ name: '维修', stages: [{ name: '报修' }, { name: '维修中' }, { name: '完成' }] }),
      'admin',
    );
    const type = ((await t.get(`${P}/typelist`, as('admin'))).json().data.list as WorkType[]).find(
      (x) => x.id === r.data.id,
    ) as WorkType;
    const [s1, s2, s3] = type.stages;
    await create('lisi', c, { type_id: type.id });
    const edit = (st: { id?: number; name: string }[]) =>
      post('typesave', typeBody({ id: type.id, name: '维修', stages: st }), 'admin');
    expect(
      (
        await edit([
          { id: s2.id, name: s2.name },
          { id: s3.id, name: s3.name },
        ])
      ).code,
    ).toBe(113004);
    // the open work order (in 报修) would stand in the last stage
    const lastFirst = [
      { id: s3.id, name: s3.name },
      { id: s1.id, name: s1.name },
    ];
    expect((await edit(lastFirst)).code).toBe(113004);
    expect(
      (
        await edit([
          { id: s1.id, name: '报修受理' },
          { id: s3.id, name: s3.name },
        ])
      ).code,
    ).toBe(0);
    expect((await post('typedel', { id: type.id }, 'admin')).code).toBe(113003);
    expect((await post('typedel', { id: 999_999 }, 'admin')).code).toBe(113001);
  });
});

describe('creating a work order', () => {
  it('defaults to the type’s handler and now + SLA; tells the handler (msg 22); the order must be the customer’s', async () => {
    const c = await customerOf(t, as('lisi'), '工单客户甲');
    const other = await customerOf(t, as('lisi'), '工单客户乙');
    const product = (await products(t, as('admin'))).find((p) => p.code === 'QC-001') as Product;
    const otherOrder = await store(t, as('lisi'), orderBody(other, [{ id: product.id, cost_price: 2_400_000 }]));
    const ownOrder = await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: 2_400_000 }]));
    expect(
      (await post('create', { customer_id: c, type_id: demoType.id, workOrderName: 'x', order_id: otherOrder }, 'lisi')).code,
    ).toBe(113010);
    expect(
      (await post('create', { customer_id: c, type_id: demoType.id, workOrderName: 'x', handler_id: 999_999 }, 'lisi')).code,
    ).toBe(113009);
    // wangwu (本人) may not see lisi's customer
    expect((await post('create', { customer_id: c, type_id: demoType.id, workOrderName: 'x' }, 'wangwu')).code).toBe(106007);
    const seen: { msg_type: number; data: { kind: string; workOrderId: number } }[] = [];
    const off = await t.app.calls.bus.subscribe(staffChannel(ids['张三']), (m) => seen.push((m as { frame: never }).frame));
    const before = Date.now();
    const id = await create('lisi', c, { order_id: ownOrder });
    off();
    const d = await detail(id, 'lisi');
    expect(d).toMatchObject({
      follow_staff_id: ids['张三'],
      node_name: '受理',
      status: 0,
      order_id: ownOrder,
      creator_id: ids['李四'],
    });
    const due = new Date(`${d.due_at.replace(' ', 'T')}+08:00`).getTime();
    expect(due - before).toBeGreaterThanOrEqual(48 * 3_600_000 - 1000);
    expect(due - before).toBeLessThan(48 * 3_600_000 + 60_000);
    expect(d.events.map((e) => e.kind)).toEqual(['created']);
    expect(seen).toEqual([
      expect.objectContaining({
        msg_type: WORK_ORDER_MSG_TYPE,
        data: expect.objectContaining({ kind: 'assigned', workOrderId: id }),
      }),
    ]);
    // a chosen handler and due time
    const id2 = await create('lisi', c, { handler_id: ids['王五'], due_at: '2030-01-02 09:30' });
    expect(await detail(id2, 'lisi')).toMatchObject({ follow_staff_id: ids['王五'], due_at: '2030-01-02 09:30:00' });
  });
});

describe('stages', () => {
  it('the handler moves to the next stage only; rollback from a rollback stage; the last stage completes it', async () => {
    const c = await customerOf(t, as('lisi'), '工单阶段客户');
    const id = await create('lisi', c);
    const move = (to: string, user = 'zhangsan', remark = '') => post('transition', { id, stage_id: stage(to), remark }, user);
    expect((await move('回访')).code).toBe(113006); // skipping a stage
    expect((await move('受理')).code).toBe(113006); // the current one
    expect((await move('处理中', 'lisi')).code).toBe(113008); // the creator is not the handler
    expect((await move('处理中', 'wangwu')).code).toBe(113005); // he may not even see it
    const first = await detail(id, 'lisi');
    expect((await move('处理中', 'zhangsan', '已派工程师')).data).toMatchObject({ status: 0, node_name: '处理中' });
    expect((await move('受理')).code).toBe(0); // 处理中 allows going back
    expect((await move('处理中')).code).toBe(0);
    expect((await move('回访')).code).toBe(0);
    expect((await move('受理')).code).toBe(113006); // 回访 does not
    expect((await move('已完成')).data).toMatchObject({ status: 1, node_name: '已完成' });
    expect((await move('回访')).code).toBe(113007);
    expect((await post('edit', { id, workOrderName: '改名', priority: 2, due_at: '2030-01-01 10:00' }, 'zhangsan')).code).toBe(
      113007,
    );
    expect((await post('comment', { id, content: '客户满意' }, 'lisi')).code).toBe(0);
    const d = await detail(id, 'lisi');
    expect(d.status).toBe(1);
    expect(d.can).toEqual({ edit: false, transition: false, comment: true, transfer: false });
    expect(d.events.map((e) => [e.kind, e.from_name, e.to_name])).toEqual([
      ['created', '', '受理'],
      ['transition', '受理', '处理中'],
      ['rollback', '处理中', '受理'],
      ['transition', '受理', '处理中'],
      ['transition', '处理中', '回访'],
      ['transition', '回访', '已完成'],
      ['comment', '', ''],
    ]);
    expect(d.events[1]).toMatchObject({ content: '已派工程师', staff_name: '张三', kind_name: '推进阶段' });
    expect(d.last_time).toBe(d.events[6].created_at);
    expect(d.last_time >= first.last_time).toBe(true);
  });

  it('two racing transitions to the next stage: one passes, the other is refused', async () => {
    const c = await customerOf(t, as('lisi'), '工单并发客户');
    const id = await create('lisi', c);
    const results = await Promise.all(
      [1, 2].map(() => t.post(`${P}/transition`, { id, stage_id: stage('处理中') }, as('zhangsan'))),
    );
    expect(results.map((r) => r.json().code).sort()).toEqual([0, 113006]);
    expect((await detail(id, 'lisi')).events.filter((e) => e.kind === 'transition')).toHaveLength(1);
  });

  it('edit records the changed fields; a manager covering the handler may edit, another sales may not', async () => {
    const c = await customerOf(t, as('lisi'), '工单编辑客户');
    const id = await create('lisi', c, { handler_id: ids['王五'], due_at: '2030-05-01 10:00', description: '旧描述' });
    const body = { id, workOrderName: '安装调试', priority: 4, due_at: '2030-05-01 10:00', description: '新描述' };
    expect((await post('edit', body, 'zhaoliu')).code).toBe(113005);
    expect((await post('edit', body, 'zhangsan')).code).toBe(0); // 销售主管 of 王五's department
    const same = await post('edit', body, 'lisi');
    expect(same.code).toBe(0);
    const d = await detail(id, 'lisi');
    expect(d.events.map((e) => [e.kind, e.content])).toEqual([
      ['created', ''],
      ['edited', '修改了优先级、描述'],
    ]);
    expect(d).toMatchObject({ priority: 4, description: '新描述' });
    expect((await post('edit', { ...body, workOrderName: '' }, 'lisi')).msg).toBe('请输入工单名称');
    expect((await post('edit', { ...body, workOrderName: '名'.repeat(51) }, 'lisi')).msg).toBe('工单名称最多50个字符');
    expect((await post('edit', { ...body, workOrderName: '名'.repeat(50) }, 'lisi')).code).toBe(0);
  });
});

describe('comments, attachments and transfer', () => {
  it('a comment needs text or files (at most 5, the caller’s own); files reach who may see the work order only', async () => {
    const c = await customerOf(t, as('lisi'), '工单附件客户');
    const id = await create('lisi', c);
    expect((await post('comment', { id, content: '  ' }, 'lisi')).msg).toBe('请输入评论内容或上传附件');
    const mine = await Promise.all([1, 2, 3, 4, 5, 6].map((i) => upload('lisi', `现场照片${i}.txt`)));
    const others = await upload('wangwu', '别人的.txt');
    expect((await post('comment', { id, files: [others.id] }, 'lisi')).code).toBe(113011);
    expect((await post('comment', { id, files: mine.map((f) => f.id) }, 'lisi')).msg).toBe('最多上传5个附件');
    expect((await post('comment', { id, files: mine.slice(0, 5).map((f) => f.id) }, 'lisi')).code).toBe(0);
    expect((await post('comment', { id, content: '已联系客户' }, 'zhangsan')).code).toBe(0);
    const d = await detail(id, 'zhangsan');
    expect(d.events.map((e) => [e.kind, e.content, e.files.length])).toEqual([
      ['created', '', 0],
      ['comment', '', 5],
      ['comment', '已联系客户', 0],
    ]);
    const url = d.events[1].files[0].url;
    expect(d.events[1].files[0].name).toBe('现场照片1.txt');
    expect((await t.get(url, as('zhangsan'))).statusCode).toBe(200); // the handler
    expect((await t.get(url, as('wangwu'))).statusCode).toBe(404); // neither his customer nor his work order
  });

  it('transfer: to an active staff of the company; the new handler is told and may move it', async () => {
    const c = await customerOf(t, as('lisi'), '工单转交客户');
    const id = await create('lisi', c);
    expect((await post('transfer', { id, handler_id: 999_999 }, 'zhangsan')).code).toBe(113009);
    expect((await post('transfer', { id, handler_id: ids['张三'] }, 'zhangsan')).code).toBe(113009);
    expect((await post('transfer', { id, handler_id: ids['王五'] }, 'zhaoliu')).code).toBe(113005);
    const seen: { msg_type: number; data: { kind: string; workOrderId: number } }[] = [];
    const off = await t.app.calls.bus.subscribe(staffChannel(ids['王五']), (m) => seen.push((m as { frame: never }).frame));
    expect((await post('transfer', { id, handler_id: ids['王五'], remark: '王五更熟悉' }, 'zhangsan')).code).toBe(0);
    off();
    expect(seen).toEqual([
      expect.objectContaining({
        msg_type: WORK_ORDER_MSG_TYPE,
        data: expect.objectContaining({ kind: 'transfer', workOrderId: id }),
      }),
    ]);
    const d = await detail(id, 'wangwu');
    expect(d).toMatchObject({ follow_staff_id: ids['王五'], follow_staff_id_name: '王五' });
    expect(d.events.at(-1)).toMatchObject({ kind: 'transfer', from_name: '张三', to_name: '王五', content: '王五更熟悉' });
    expect((await post('transition', { id, stage_id: stage('处理中') }, 'wangwu')).code).toBe(0);
    // 张三 still manages 王五 (same department): he may move it too; 赵六 (another department) may not see it
    expect((await post('transition', { id, stage_id: stage('回访') }, 'zhangsan')).code).toBe(0);
    expect((await t.get(`${P}/detail?id=${id}`, as('zhaoliu'))).json().code).toBe(113005);
  });
});

describe('lists and counts', () => {
  it('tabs: mine, assigned, all in data scope; a customer’s work orders; counts of open ones', async () => {
    const c = await customerOf(t, as('lisi'), '工单列表客户');
    const a = await create('lisi', c, { workOrderName: '列表甲' });
    const b = await create('lisi', c, { workOrderName: '列表乙', handler_id: ids['王五'] });
    const ids_ = (l: { list: WorkOrderRow[] }) => l.list.map((r) => r.id);
    expect(ids_(await list(`customer_id=${c}`, 'lisi'))).toEqual([b, a]);
    expect((await t.get(`${P}/list?customer_id=${c}`, as('wangwu'))).json().code).toBe(106007);
    expect(ids_(await list('tab=mine&keyword=列表', 'lisi'))).toEqual([b, a]);
    expect(ids_(await list('tab=assigned&keyword=列表', 'wangwu'))).toEqual([b]);
    expect(ids_(await list('tab=all&keyword=列表', 'wangwu'))).toEqual([b]);
    expect(ids_(await list('tab=all&keyword=列表', 'zhangsan'))).toEqual([b, a]);
    expect(ids_(await list('tab=all&keyword=列表', 'zhaoliu'))).toEqual([]);
    expect(ids_(await list('keyword=工单列表客户', 'admin'))).toEqual([b, a]);
    const page = await list('tab=mine&limit=1&page=2', 'lisi');
    expect(page.list).toHaveLength(1);
    const row = (await list(`customer_id=${c}`, 'lisi')).list[1];
    expect(row).toMatchObject({
      workOrderName: '列表甲',
      follow_staff_id_name: '张三',
      node_name: '受理',
      customer_name: '工单列表客户',
      type_name: '售后服务',
      overdue: false,
    });
    const counts = async (u: string) => (await t.get(`${P}/counts`, as(u))).json().data;
    const before = await counts('wangwu');
    await create('lisi', c, { workOrderName: '列表丙', handler_id: ids['王五'] });
    expect(await counts('wangwu')).toMatchObject({ assigned: before.assigned + 1, all: before.all + 1, mine: before.mine });
  });

  it('工单管理 needs menu 171 and creating needs the detail flag work', async () => {
    const role = await t.post(
      '/api/frontend/role/create',
      { name: '无工单', dataScope: 4, menuIds: [122], actions: ['frontend/customer/detail/basic'] },
      as('admin'),
    );
    expect(role.json().code, JSON.stringify(role.json())).toBe(0);
    const dept = (
      (await t.get('/api/frontend/department/list', as('admin'))).json().data.list as { cmDid: number; name: string }[]
    ).find((d) => d.name === '销售一部')?.cmDid;
    const staff = await t.post(
      '/api/frontend/staff/create',
      {
        username: 'nowork',
        password: 'demo123456',
        name: '无工单员工',
        phone: '13311112222',
        workNumber: 'S901',
        sex: 1,
        email: '',
        cmDid: dept,
        cmArid: role.json().data.cmArid,
        merchantType: 1,
      },
      as('admin'),
    );
    expect(staff.json().code, JSON.stringify(staff.json())).toBe(0);
    const token = await t.login('nowork');
    const c = await customerOf(t, as('lisi'), '无工单权限客户');
    expect((await t.get(`${P}/list?tab=all`, token)).json().code).toBe(100003);
    expect((await t.get(`${P}/list?customer_id=${c}`, token)).json().code).toBe(108009);
    expect((await t.post(`${P}/create`, { customer_id: c, type_id: demoType.id, workOrderName: 'x' }, token)).json().code).toBe(
      108009,
    );
    expect((await t.post(`${P}/export`, {}, token)).json().code).toBe(100003);
  });
});

describe('isolation', () => {
  it('another company sees none of the demo company’s types or work orders', async () => {
    const other = await t.login('other_admin');
    const c = await customerOf(t, as('lisi'), '工单隔离客户');
    const id = await create('lisi', c, { workOrderName: '隔离工单' });
    expect(((await t.get(`${P}/typelist`, other)).json().data.list as WorkType[]).map((x) => x.name)).not.toContain('售后服务');
    expect((await t.get(`${P}/detail?id=${id}`, other)).json().code).toBe(113005);
    expect((await t.get(`${P}/list?tab=all&keyword=隔离`, other)).json().data.count).toBe(0);
    expect((await t.post(`${P}/comment`, { id, content: '越权' }, other)).json().code).toBe(113005);
    expect((await t.post(`${P}/create`, { customer_id: c, type_id: demoType.id, workOrderName: 'x' }, other)).json().code).toBe(
      106007,
    );
    // the workbench counts the caller's open work orders
    const wb = (await t.get('/api/frontend/workbench/summary', as('zhangsan'))).json().data.workOrders;
    expect(wb).toEqual((await t.get(`${P}/counts`, as('zhangsan'))).json().data);
    expect(wb.assigned).toBeGreaterThan(0);
  });
});
