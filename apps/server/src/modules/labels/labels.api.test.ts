import type { LabelGroup } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoValues, fetchTemplate, mustCreate, type Template } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';

/** Tags (/set/label): groups (pid 0) hold tags. CRUD, messages, edges, permissions, tenancy; each test makes its own. */
let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];

let seq = 0;
const fresh = (prefix = '标签') => {
  seq += 1;
  return `${prefix}${seq}`;
};
const tree = async (user = 'admin', query = ''): Promise<LabelGroup[]> => {
  const res = await t.get(`/api/frontend/customerset/labellist${query}`, as(user));
  expect(res.json().code, res.body).toBe(0);
  return res.json().data.list;
};
const tagOf = async (id: number, user = 'admin') =>
  (await tree(user)).flatMap((g) => [g, ...g.children]).find((l) => l.cmClid === id);
const create = (body: Record<string, unknown>, user = 'admin') => t.post('/api/frontend/customerset/labelcreate', body, as(user));
const edit = (body: Record<string, unknown>, user = 'admin') => t.post('/api/frontend/customerset/labeledit', body, as(user));
const del = (id: number, user = 'admin') => t.post('/api/frontend/customerset/labeldel', { id }, as(user));
const mustCreateLabel = async (pid: number, name = fresh(), user = 'admin') => {
  const res = await create({ pid, name }, user);
  expect(res.json(), name).toMatchObject({ code: 0, msg: '添加成功' });
  return res.json().data.cmClid as number;
};
const tagCustomer = (cmCtid: number, cmClids: number[], user = 'admin') =>
  t.post('/api/frontend/customer/label', { cmCtids: [cmCtid], cmClids }, as(user));

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'lisi', 'other_admin']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
});
afterAll(async () => {
  await t?.close();
});

describe('tag tree', () => {
  it('lists the demo groups with their tags', async () => {
    const groups = await tree();
    const byName = Object.fromEntries(groups.map((g) => [g.name, g.children.map((c) => c.name)]));
    expect(byName.客户意向).toEqual(['高意向', '中意向', '低意向']);
    expect(byName.客户特征).toEqual(['决策人', '价格敏感', '老客户转介绍']);
    for (const g of groups) {
      expect(g.pid).toBe(0);
      for (const c of g.children) expect(c.pid).toBe(g.cmClid);
    }
  });

  it('counts the live customers carrying a tag; actionState filters', async () => {
    const group = await mustCreateLabel(0, fresh('分组'));
    const tag = await mustCreateLabel(group);
    const customer = await mustCreate(t, as('admin'), tpl, fresh('标签客户'), demoValues());
    expect((await tagCustomer(customer, [tag])).json().code).toBe(0);
    expect((await tagOf(tag))?.customerNum).toBe(1);
    expect((await edit({ cmClid: tag, pid: group, name: fresh(), actionState: 1 })).json().code).toBe(0);
    const enabled = (await tree('admin', '?actionState=0')).flatMap((g) => g.children).map((c) => c.cmClid);
    expect(enabled).not.toContain(tag);
    // the filtered tree shows a tag under its group: with the group disabled too, both are listed
    expect((await edit({ cmClid: group, pid: 0, name: fresh('分组'), actionState: 1 })).json().code).toBe(0);
    const disabled = (await tree('admin', '?actionState=1')).find((g) => g.cmClid === group);
    expect(disabled?.children.map((c) => c.cmClid)).toEqual([tag]);
  });
});

describe('tag create and edit (SPEC §5 messages)', () => {
  it('creates a group and a tag in it, names trimmed', async () => {
    const groupName = fresh('分组');
    const group = await mustCreateLabel(0, ` ${groupName} `);
    const tag = await mustCreateLabel(group, fresh());
    const found = (await tree()).find((g) => g.cmClid === group);
    expect(found).toMatchObject({ name: groupName, pid: 0, actionState: 0 });
    expect(found?.children.map((c) => c.cmClid)).toEqual([tag]);
  });

  it('the name is required (请输入标签名称) and holds 20 characters, not 21', async () => {
    const group = await mustCreateLabel(0, fresh('分组'));
    for (const name of ['', '  '])
      expect((await create({ pid: group, name })).json()).toMatchObject({ code: 100001, msg: '请输入标签名称' });
    const twenty = `${'签'.repeat(16)}${String(1000 + seq++)}`;
    expect(twenty).toHaveLength(20);
    const tag = await mustCreateLabel(group, twenty);
    expect((await create({ pid: group, name: `${twenty}x` })).json()).toMatchObject({
      code: 100001,
      msg: '标签名称最多20个字符',
    });
    expect((await edit({ cmClid: tag, pid: group, name: `${twenty}x` })).json()).toMatchObject({
      code: 100001,
      msg: '标签名称最多20个字符',
    });
  });

  it('sortNum runs from 0 to 9999', async () => {
    const group = await mustCreateLabel(0, fresh('分组'));
    expect((await create({ pid: group, name: fresh(), sortNum: 9999 })).json().code).toBe(0);
    expect((await create({ pid: group, name: fresh(), sortNum: 10000 })).json().code).toBe(100001);
    expect((await create({ pid: group, name: fresh(), sortNum: -1 })).json().code).toBe(100001);
  });

  it('a tag sits in a group: not under a tag nor under a missing group (107006)', async () => {
    const group = await mustCreateLabel(0, fresh('分组'));
    const tag = await mustCreateLabel(group);
    const msg = '标签必须放在一个标签分组下';
    expect((await create({ pid: tag, name: fresh() })).json()).toMatchObject({ code: 107006, msg });
    expect((await create({ pid: 99_999_999, name: fresh() })).json()).toMatchObject({ code: 107006, msg });
    // a group stays a group and a tag stays a tag
    expect((await edit({ cmClid: tag, pid: 0, name: fresh() })).json()).toMatchObject({
      code: 107006,
      msg: '标签分组和标签不能互相转换',
    });
    expect((await edit({ cmClid: group, pid: tag, name: fresh() })).json().code).toBe(107006);
    // a tag may move to another group
    const other = await mustCreateLabel(0, fresh('分组'));
    expect((await edit({ cmClid: tag, pid: other, name: fresh() })).json()).toMatchObject({ code: 0, msg: '保存成功' });
    expect((await tagOf(tag))?.pid).toBe(other);
  });

  it('a name is unique within its group (107003), not across groups', async () => {
    const g1 = await mustCreateLabel(0, fresh('分组'));
    const g2 = await mustCreateLabel(0, fresh('分组'));
    const name = fresh();
    const tag = await mustCreateLabel(g1, name);
    expect((await create({ pid: g1, name })).json()).toMatchObject({ code: 107003, msg: '同一分组下已存在相同名称的标签' });
    await mustCreateLabel(g2, name);
    expect((await edit({ cmClid: tag, pid: g1, name, sortNum: 3 })).json().code).toBe(0);
    expect((await edit({ cmClid: tag, pid: g2, name })).json().code).toBe(107003);
    // and another company may use it
    const theirs = await mustCreateLabel(0, fresh('分组'), 'other_admin');
    await mustCreateLabel(theirs, name, 'other_admin');
  });

  it('an unknown tag is 标签不存在 (404)', async () => {
    const res = await edit({ cmClid: 99_999_999, pid: 0, name: fresh() });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 100005, msg: '标签不存在' });
    expect((await del(99_999_999)).json()).toMatchObject({ code: 100005, msg: '标签不存在' });
  });

  it('only enabled tags, never groups, go on a customer', async () => {
    const group = await mustCreateLabel(0, fresh('分组'));
    const tag = await mustCreateLabel(group);
    const customer = await mustCreate(t, as('admin'), tpl, fresh('上标签'), demoValues());
    const msg = '所选标签不存在或已禁用';
    expect((await tagCustomer(customer, [group])).json()).toMatchObject({ code: 100005, msg });
    expect((await edit({ cmClid: tag, pid: group, name: fresh(), actionState: 1 })).json().code).toBe(0);
    expect((await tagCustomer(customer, [tag])).json()).toMatchObject({ code: 100005, msg });
  });
});

describe('tag delete', () => {
  it('a group with tags is refused (107005); a tag in use is refused (107004); otherwise deleted', async () => {
    const group = await mustCreateLabel(0, fresh('分组'));
    const tag = await mustCreateLabel(group);
    const customer = await mustCreate(t, as('admin'), tpl, fresh('用标签'), demoValues());
    expect((await tagCustomer(customer, [tag])).json().code).toBe(0);
    expect((await del(group)).json()).toMatchObject({ code: 107005, msg: '该分组下还有标签，请先删除分组内的标签' });
    expect((await del(tag)).json()).toMatchObject({ code: 107004, msg: '该标签已被客户使用，请先移除或改为禁用' });
    // a deleted customer does not hold it any more
    expect((await t.post('/api/frontend/customer/del', { cmCtids: [customer] }, as('admin'))).json().code).toBe(0);
    expect((await del(tag)).json()).toMatchObject({ code: 0, msg: '删除成功' });
    expect((await del(group)).json()).toMatchObject({ code: 0, msg: '删除成功' });
    expect((await tree()).map((g) => g.cmClid)).not.toContain(group);
  });
});

describe('tag permissions and tenancy', () => {
  it('every account reads the tree; only /set/label may change it (100003)', async () => {
    expect((await tree('lisi')).length).toBeGreaterThan(0);
    const group = await mustCreateLabel(0, fresh('分组'));
    expect((await create({ pid: group, name: fresh() }, 'lisi')).json().code).toBe(100003);
    expect((await edit({ cmClid: group, pid: 0, name: fresh() }, 'lisi')).json().code).toBe(100003);
    expect((await del(group, 'lisi')).json().code).toBe(100003);
    expect(await tagOf(group)).toBeDefined();
  });

  it('another company neither sees, uses nor changes the tags (404)', async () => {
    const groupName = fresh('分组');
    const group = await mustCreateLabel(0, groupName);
    const tag = await mustCreateLabel(group);
    const theirTree = (await tree('other_admin')).flatMap((g) => [g, ...g.children]).map((l) => l.cmClid);
    expect(theirTree).not.toContain(group);
    expect(theirTree).not.toContain(tag);
    expect((await create({ pid: group, name: fresh() }, 'other_admin')).json().code).toBe(107006);
    expect((await edit({ cmClid: tag, pid: group, name: '被改了' }, 'other_admin')).json().code).toBe(100005);
    expect((await del(tag, 'other_admin')).json().code).toBe(100005);
    expect((await del(group, 'other_admin')).json().code).toBe(100005);
    expect(await tagOf(group)).toMatchObject({ name: groupName });
    const otherTpl = await fetchTemplate(t, as('other_admin'));
    const theirs = await mustCreate(t, as('other_admin'), otherTpl, fresh('别家客户'), {});
    expect((await tagCustomer(theirs, [tag], 'other_admin')).json().code).toBe(100005);
  });
});
