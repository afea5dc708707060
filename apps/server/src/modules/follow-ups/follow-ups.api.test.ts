import type { FollowRecord } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, followRecords } from '../../db/schema';
import { setClockOffsetMs } from '../../lib/clock';
import {
  fetchTemplate,
  info,
  listCustomers,
  mustCreate,
  startOfTodayShanghai,
  type Template,
  valuesOf,
} from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];
let stageIds: { id: number; name: string }[] = [];

const follow = (user: string, body: Record<string, unknown>) => t.post('/api/frontend/customer/followcreate', body, as(user));
const history = async (user: string, cmCtid: number, query = '') => {
  const res = await t.get(`/api/frontend/customer/followlist?cmCtid=${cmCtid}${query}`, as(user));
  expect(res.json().code, JSON.stringify(res.json())).toBe(0);
  return res.json().data as { list: FollowRecord[]; count: number };
};
const tomorrowAt = (hour: number) => Math.floor(startOfTodayShanghai().getTime() / 1000) + 86_400 + hour * 3600;

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'other_admin']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
  const stages = (await t.get('/api/frontend/customerset/nodelist', as('admin'))).json().data.list as {
    cmNid: number;
    name: string;
  }[];
  stageIds = stages.map((s) => ({ id: s.cmNid, name: s.name }));
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('followcreate', () => {
  it('writes the record and updates the customer (follow time, next appointment, stage)', async () => {
    const id = await mustCreate(t, as('lisi'), tpl, '跟进测试一号');
    const next = tomorrowAt(10) + 37; // seconds are dropped (SPEC §5: no seconds)
    const res = await follow('lisi', { cmCtid: id, cmNid: stageIds[1].id, nextFollowTime: next, remark: '客户有意向，明天再打' });
    expect(res.json()).toMatchObject({ code: 0, msg: '跟进成功' });
    const [c] = await t.database.db.select().from(customers).where(eq(customers.id, id));
    expect(c.stageId).toBe(stageIds[1].id);
    expect(c.followAt).not.toBeNull();
    expect(c.nextFollowAt?.getTime()).toBe((next - 37) * 1000);
    const { list, count } = await history('lisi', id);
    expect(count).toBe(1);
    expect(list[0]).toMatchObject({
      followType: 0,
      remark: '客户有意向，明天再打',
      cmSidName: '李四',
      cmNidName: stageIds[1].name,
      nextFollowTime: next - 37,
      isDelete: 1,
    });
    // the list rows read the new values
    const row = (await info(t, as('lisi'), id)).json().data;
    expect(row.cmNid).toBe(stageIds[1].id);
    expect(row.followTime).not.toBe('');
  });

  it('refuses an empty follow-up, a next time before today and an over-long remark', async () => {
    const id = await mustCreate(t, as('lisi'), tpl, '跟进测试二号');
    expect((await follow('lisi', { cmCtid: id, remark: '   ' })).json()).toMatchObject({ code: 108001, msg: '请填写跟进内容' });
    const yesterday = Math.floor(startOfTodayShanghai().getTime() / 1000) - 3600;
    expect((await follow('lisi', { cmCtid: id, remark: '回访', nextFollowTime: yesterday })).json()).toMatchObject({
      code: 108002,
      msg: '下次跟进时间不能早于今天',
    });
    const long = await follow('lisi', { cmCtid: id, remark: '字'.repeat(3001) });
    expect(long.json().code).toBe(100001);
    expect(long.json().msg).toContain('跟进内容最多3000个字符');
    expect((await history('lisi', id)).count).toBe(0);
  });

  it('saves the isFollowShow control values on the customer and in the record', async () => {
    const id = await mustCreate(t, as('lisi'), tpl, '跟进测试三号');
    const level = tpl.byName.客户级别;
    const note = tpl.byName.备注;
    if (!level || !note || level.isFollowShow !== 1) throw new Error('demo template lacks 客户级别 as a follow control');
    const option = (level.dmValue as string[])[0];
    const res = await follow('lisi', {
      cmCtid: id,
      remark: '定级',
      templateControls: [
        { cbTacid: level.cbTacid, dmValue: [option] },
        // not an isFollowShow control: ignored
        { cbTacid: note.cbTacid, dmValue: ['不该保存'] },
      ],
    });
    expect(res.json().code).toBe(0);
    const row = (await info(t, as('lisi'), id)).json().data;
    expect(valuesOf(row, '客户级别')).toEqual([option]);
    expect(valuesOf(row, '备注')).toEqual([]);
    const { list } = await history('lisi', id);
    expect(list[0].templateControls).toEqual([expect.objectContaining({ name: '客户级别', dmValue: [option] })]);
  });

  it('keeps to the data scope and the tenant', async () => {
    const id = await mustCreate(t, as('lisi'), tpl, '跟进测试四号');
    expect((await follow('wangwu', { cmCtid: id, remark: '越权' })).json().code).toBe(106007);
    expect((await t.get(`/api/frontend/customer/followlist?cmCtid=${id}`, as('wangwu'))).json().code).toBe(106007);
    expect((await t.get(`/api/frontend/customer/followlist?cmCtid=${id}`, as('other_admin'))).json().code).toBe(106007);
    // the supervisor of 销售一部 may follow his team's customers
    expect((await follow('zhangsan', { cmCtid: id, remark: '主管协助跟进' })).json().code).toBe(0);
  });
});

describe('history categories, dates and deletion', () => {
  let id: number;
  beforeAll(async () => {
    id = await mustCreate(t, as('lisi'), tpl, '历史测试客户');
    await follow('lisi', { cmCtid: id, remark: '第一次跟进' });
    await follow('lisi', { cmCtid: id, remark: '第二次跟进' });
    // a pool move and a phone call, as later features write them
    const base = { tenantId: 1, customerId: id, createdAt: new Date() };
    const [c] = await t.database.db.select().from(customers).where(eq(customers.id, id));
    await t.database.db.insert(followRecords).values([
      { ...base, tenantId: c.tenantId, followType: 1, remark: '丢入公海' },
      { ...base, tenantId: c.tenantId, followType: 3, billsec: 35, remark: '' },
    ]);
  });

  it('filters by category tab: 全部, 写跟进, 公海操作, 电话', async () => {
    expect((await history('lisi', id, '&followType=-1')).count).toBe(4);
    const written = await history('lisi', id, '&followType=0');
    expect(written.list.map((r) => r.remark)).toEqual(['第二次跟进', '第一次跟进']);
    expect((await history('lisi', id, '&followType=1')).list.map((r) => r.followType)).toEqual([1]);
    expect((await history('lisi', id, '&followType=3')).list.map((r) => r.billsec)).toEqual([35]);
  });

  it('pages 10 per page and filters by a day range', async () => {
    const page = await history('lisi', id, '&limit=1&page=2');
    expect(page.count).toBe(4);
    expect(page.list).toHaveLength(1);
    const today = new Date(startOfTodayShanghai().getTime() + 8 * 3600_000).toISOString().slice(0, 10);
    expect((await history('lisi', id, `&startTime=${today}&endTime=${today}`)).count).toBe(4);
    expect((await history('lisi', id, '&startTime=2020-01-01&endTime=2020-01-31')).count).toBe(0);
  });

  it('deleting needs frontend/customer/followdel and a deletable record', async () => {
    const written = await history('lisi', id, '&followType=0');
    const target = written.list[0].cmCtfid;
    const refused = await t.post('/api/frontend/customer/followdel', { cmCtfid: target }, as('lisi'));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 100004 });
    const done = await t.post('/api/frontend/customer/followdel', { cmCtfid: target }, as('zhangsan'));
    expect(done.json()).toMatchObject({ code: 0, msg: '删除成功' });
    expect((await history('lisi', id, '&followType=0')).list.map((r) => r.remark)).toEqual(['第一次跟进']);
    const call = (await history('lisi', id, '&followType=3')).list[0];
    expect(call.isDelete).toBe(0);
    expect((await t.post('/api/frontend/customer/followdel', { cmCtfid: call.cmCtfid }, as('zhangsan'))).json()).toMatchObject({
      code: 108004,
      msg: '该跟进记录不能删除',
    });
  });
});

describe('stage bar', () => {
  it('changes the stage and records it in the history', async () => {
    const id = await mustCreate(t, as('lisi'), tpl, '阶段测试客户');
    const res = await t.post('/api/frontend/customer/stage', { cmCtid: id, cmNid: stageIds[0].id }, as('lisi'));
    expect(res.json().code).toBe(0);
    await t.post('/api/frontend/customer/stage', { cmCtid: id, cmNid: stageIds[2].id }, as('lisi'));
    expect((await info(t, as('lisi'), id)).json().data.cmNid).toBe(stageIds[2].id);
    const { list } = await history('lisi', id);
    expect(list[0].remark).toBe(`客户阶段由「${stageIds[0].name}」变更为「${stageIds[2].name}」`);
    expect(list[0].isDelete).toBe(0);
  });

  it('refuses a disabled stage', async () => {
    const id = await mustCreate(t, as('lisi'), tpl, '禁用阶段客户');
    const created = await t.post('/api/frontend/customerset/nodecreate', { name: '已停用阶段', sortNum: 99 }, as('admin'));
    const cmNid = created.json().data.cmNid;
    await t.post('/api/frontend/customerset/nodeedit', { cmNid, name: '已停用阶段', sortNum: 99, actionState: 1 }, as('admin'));
    const res = await t.post('/api/frontend/customer/stage', { cmCtid: id, cmNid }, as('lisi'));
    expect(res.json().msg).toBe('所选阶段不存在或已禁用');
  });
});

describe("today's appointments follow the business clock", () => {
  it('a next follow-up tomorrow appears in 今日预约 the next day', async () => {
    const id = await mustCreate(t, as('wangwu'), tpl, '明日预约客户');
    await follow('wangwu', { cmCtid: id, remark: '约明天上午', nextFollowTime: tomorrowAt(10) });
    const today = await listCustomers(t, as('wangwu'), 'subscribelist');
    expect(today.list.map((r) => r.cmCtid)).not.toContain(id);
    setClockOffsetMs(86_400_000);
    try {
      const tomorrow = await listCustomers(t, as('wangwu'), 'subscribelist');
      expect(tomorrow.list.map((r) => r.cmCtid)).toContain(id);
    } finally {
      setClockOffsetMs(0);
    }
  });
});

describe('detail permission flags', () => {
  it('info carries the flags; a role without the follow flag cannot read or write follow-ups', async () => {
    const id = await mustCreate(t, as('lisi'), tpl, '权限测试客户');
    const flags = (await info(t, as('lisi'), id)).json().data.detailFlags;
    expect(flags).toMatchObject({
      basic: 1,
      phone: 1,
      follow: 1,
      edit: 1,
      cOrder: 1,
      order: 1,
      cMoney: 1,
      cReceipt: 1,
      receipt: 1,
      work: 1,
    });
    // a role created without detail actions
    const role = await t.post(
      '/api/frontend/role/create',
      { name: '只读销售', remark: '', dataScope: 4, menuIds: [120], actions: [] },
      as('admin'),
    );
    expect(role.json().code).toBe(0);
    const depts = (await t.get('/api/frontend/department/list', as('admin'))).json().data.list as {
      cmDid: number;
      name: string;
    }[];
    const cmDid = depts.find((d) => d.name === '销售一部')?.cmDid;
    const roles = (await t.get('/api/frontend/role/list', as('admin'))).json().data.list as { cmArid: number; name: string }[];
    const roleId = roles.find((r) => r.name === '只读销售')?.cmArid;
    const staffRes = await t.post(
      '/api/frontend/staff/create',
      {
        username: 'readonly1',
        password: 'Welcome123',
        name: '只读员工',
        phone: '13700001111',
        sex: 1,
        cmDid,
        cmArid: roleId,
        merchantType: 1,
      },
      as('admin'),
    );
    expect(staffRes.json().code, JSON.stringify(staffRes.json())).toBe(0);
    const ro = await t.login('readonly1', 'Welcome123');
    expect((await info(t, ro, id)).json().data.detailFlags).toMatchObject({ follow: 0, phone: 0 });
    const refused = await t.get(`/api/frontend/customer/followlist?cmCtid=${id}`, ro);
    expect(refused.json()).toMatchObject({ code: 108009 });
    expect((await t.post('/api/frontend/customer/followcreate', { cmCtid: id, remark: 'x' }, ro)).json().code).toBe(108009);
  });
});
