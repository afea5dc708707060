import type { Stage } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoValues, fetchTemplate, mustCreate, type Template } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';

/** Stages (/set/node, SPEC §3 and §5): CRUD, messages, edges, permissions, tenancy. Each test makes its own stages. */
let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];

let seq = 0;
/** A name no other test uses (the suffix keeps names within 20 characters). */
const fresh = (prefix = '阶段') => {
  seq += 1;
  return `${prefix}${seq}`;
};
const list = async (user = 'admin', query = ''): Promise<Stage[]> => {
  const res = await t.get(`/api/frontend/customerset/nodelist${query}`, as(user));
  expect(res.json().code, res.body).toBe(0);
  return res.json().data.list;
};
const create = (body: Record<string, unknown>, user = 'admin') => t.post('/api/frontend/customerset/nodecreate', body, as(user));
const edit = (body: Record<string, unknown>, user = 'admin') => t.post('/api/frontend/customerset/nodeedit', body, as(user));
const del = (id: number, user = 'admin') => t.post('/api/frontend/customerset/nodedel', { id }, as(user));
const mustCreateStage = async (name = fresh(), sortNum = 0, user = 'admin') => {
  const res = await create({ name, sortNum }, user);
  expect(res.json(), name).toMatchObject({ code: 0, msg: '添加成功' });
  return res.json().data.cmNid as number;
};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'lisi', 'other_admin']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
});
afterAll(async () => {
  await t?.close();
});

describe('stage list', () => {
  it('lists the demo stages in order with their customer counts; actionState filters', async () => {
    const stages = await list();
    expect(stages.slice(0, 6).map((s) => s.name)).toEqual(['初步接触', '需求确认', '方案报价', '商务谈判', '成交', '流失']);
    for (const s of stages) {
      expect(s).toMatchObject({ actionState: expect.any(Number), customerNum: expect.any(Number) });
      expect(s.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
    const id = await mustCreateStage();
    expect((await edit({ cmNid: id, name: `停${seq}`, actionState: 1 })).json().code).toBe(0);
    expect((await list('admin', '?actionState=1')).map((s) => s.cmNid)).toContain(id);
    expect((await list('admin', '?actionState=0')).map((s) => s.cmNid)).not.toContain(id);
  });

  it('orders by sortNum, then by creation', async () => {
    const late = await mustCreateStage(fresh('排序'), 9999);
    const early = await mustCreateStage(fresh('排序'), 9999);
    const ids = (await list()).map((s) => s.cmNid);
    expect(ids.indexOf(late)).toBeLessThan(ids.indexOf(early));
    expect(ids.at(-1)).toBe(early);
  });

  it('counts the live customers in a stage', async () => {
    const id = await mustCreateStage();
    const customer = await mustCreate(t, as('admin'), tpl, fresh('阶段客户'), demoValues());
    expect((await t.post('/api/frontend/customer/stage', { cmCtid: customer, cmNid: id }, as('admin'))).json().code).toBe(0);
    expect((await list()).find((s) => s.cmNid === id)?.customerNum).toBe(1);
    expect((await t.post('/api/frontend/customer/del', { cmCtids: [customer] }, as('admin'))).json().code).toBe(0);
    expect((await list()).find((s) => s.cmNid === id)?.customerNum).toBe(0);
  });
});

describe('stage create and edit (SPEC §5 messages)', () => {
  it('creates with a trimmed name', async () => {
    const name = fresh();
    const id = await mustCreateStage(`  ${name} `);
    expect((await list()).find((s) => s.cmNid === id)).toMatchObject({ name, sortNum: 0, actionState: 0, customerNum: 0 });
  });

  it('the name is required: 请输入阶段名称', async () => {
    for (const name of ['', '   ']) {
      const res = await create({ name });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 100001, msg: '请输入阶段名称' });
    }
    expect((await create({})).json().code).toBe(100001);
  });

  it('the name holds 20 characters, not 21: 阶段名称最多20个字符', async () => {
    const twenty = `${'阶'.repeat(17)}${String(100 + seq++)}`;
    expect(twenty).toHaveLength(20);
    await mustCreateStage(twenty);
    const res = await create({ name: `${twenty}x` });
    expect(res.json()).toMatchObject({ code: 100001, msg: '阶段名称最多20个字符' });
    const id = await mustCreateStage();
    expect((await edit({ cmNid: id, name: `${twenty.slice(0, 19)}y` })).json().code).toBe(0);
    expect((await edit({ cmNid: id, name: `${twenty}y` })).json()).toMatchObject({ code: 100001, msg: '阶段名称最多20个字符' });
  });

  it('sortNum runs from 0 to 9999', async () => {
    await mustCreateStage(fresh(), 0);
    await mustCreateStage(fresh(), 9999);
    expect((await create({ name: fresh(), sortNum: 10000 })).json().code).toBe(100001);
    expect((await create({ name: fresh(), sortNum: -1 })).json().code).toBe(100001);
    expect((await create({ name: fresh(), sortNum: 1.5 })).json().code).toBe(100001);
  });

  it('a name is unique within the company: 阶段名称已存在 (107001)', async () => {
    const name = fresh();
    const id = await mustCreateStage(name);
    expect((await create({ name })).json()).toMatchObject({ code: 107001, msg: '阶段名称已存在' });
    expect((await create({ name: ` ${name}` })).json().code).toBe(107001);
    // keeping its own name on edit is fine; taking another stage's is not
    expect((await edit({ cmNid: id, name, sortNum: 5 })).json()).toMatchObject({ code: 0, msg: '保存成功' });
    const other = await mustCreateStage();
    expect((await edit({ cmNid: other, name })).json()).toMatchObject({ code: 107001, msg: '阶段名称已存在' });
    // another company may use the same name
    await mustCreateStage(name, 0, 'other_admin');
  });

  it('edits name, order and state; an unknown stage is 阶段不存在', async () => {
    const id = await mustCreateStage();
    const name = fresh('改名');
    expect((await edit({ cmNid: id, name, sortNum: 7, actionState: 1 })).json()).toMatchObject({ code: 0, msg: '保存成功' });
    expect((await list()).find((s) => s.cmNid === id)).toMatchObject({ name, sortNum: 7, actionState: 1 });
    // actionState defaults to enabled when not sent
    expect((await edit({ cmNid: id, name })).json().code).toBe(0);
    expect((await list()).find((s) => s.cmNid === id)?.actionState).toBe(0);
    expect((await edit({ cmNid: id, name, actionState: 2 })).json().code).toBe(100001);
    const missing = await edit({ cmNid: 99_999_999, name: fresh() });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 100005, msg: '阶段不存在' });
  });

  it('a disabled stage cannot be given to a customer', async () => {
    const id = await mustCreateStage();
    const customer = await mustCreate(t, as('admin'), tpl, fresh('禁用阶段客户'), demoValues());
    expect((await edit({ cmNid: id, name: fresh(), actionState: 1 })).json().code).toBe(0);
    const res = await t.post('/api/frontend/customer/stage', { cmCtid: customer, cmNid: id }, as('admin'));
    expect(res.json()).toMatchObject({ code: 100005, msg: '所选阶段不存在或已禁用' });
  });
});

describe('stage delete', () => {
  it('deletes an empty stage; a stage with live customers is refused (107002)', async () => {
    const id = await mustCreateStage();
    const customer = await mustCreate(t, as('admin'), tpl, fresh('占用客户'), demoValues());
    expect((await t.post('/api/frontend/customer/stage', { cmCtid: customer, cmNid: id }, as('admin'))).json().code).toBe(0);
    expect((await del(id)).json()).toMatchObject({ code: 107002, msg: '该阶段下还有客户，请先调整客户阶段或改为禁用' });
    // a deleted customer no longer holds it
    expect((await t.post('/api/frontend/customer/del', { cmCtids: [customer] }, as('admin'))).json().code).toBe(0);
    expect((await del(id)).json()).toMatchObject({ code: 0, msg: '删除成功' });
    expect((await list()).map((s) => s.cmNid)).not.toContain(id);
    expect((await del(id)).json()).toMatchObject({ code: 100005, msg: '阶段不存在' });
  });
});

describe('stage permissions and tenancy', () => {
  it('every account reads the list; only /set/node may change it (100003)', async () => {
    expect((await list('lisi')).length).toBeGreaterThan(0);
    const id = await mustCreateStage();
    expect((await create({ name: fresh() }, 'lisi')).json().code).toBe(100003);
    expect((await edit({ cmNid: id, name: fresh() }, 'lisi')).json().code).toBe(100003);
    expect((await del(id, 'lisi')).json().code).toBe(100003);
    expect((await list()).map((s) => s.cmNid)).toContain(id);
  });

  it('another company neither sees nor changes the stages (404)', async () => {
    const name = fresh('本公司');
    const id = await mustCreateStage(name);
    expect((await list('other_admin')).map((s) => s.cmNid)).not.toContain(id);
    expect((await edit({ cmNid: id, name: '被改了' }, 'other_admin')).json().code).toBe(100005);
    expect((await del(id, 'other_admin')).json().code).toBe(100005);
    expect((await list()).find((s) => s.cmNid === id)).toMatchObject({ name, actionState: 0 });
    // nor gives them to its own customers
    const otherTpl = await fetchTemplate(t, as('other_admin'));
    const theirs = await mustCreate(t, as('other_admin'), otherTpl, fresh('别家客户'), {});
    expect((await t.post('/api/frontend/customer/stage', { cmCtid: theirs, cmNid: id }, as('other_admin'))).json().code).toBe(
      100005,
    );
  });
});
