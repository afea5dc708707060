import { DM_TYPE, type TemplateControl } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTemplate } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';

/** Issue 11 hole 13: templatecontroledit changes only the fields sent. */

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
});
afterAll(async () => {
  await t?.close();
});

let seq = 0;
/** A select control with every field away from its default. */
const createSelect = async (): Promise<TemplateControl> => {
  seq += 1;
  const name = `编辑测试${seq}`;
  const res = await t.post(
    '/api/frontend/customer/templatecontrolcreate',
    {
      name,
      dmType: DM_TYPE.select,
      dmDesc: '请选择一项',
      options: ['甲', '乙', '丙'],
      dmMust: 1,
      isFollowShow: 1,
      isSearch: 1,
      sortNum: 77,
    },
    admin,
  );
  expect(res.json()).toMatchObject({ code: 0 });
  return controlById(res.json().data.cbTacid);
};

const controlById = async (id: number): Promise<TemplateControl> => {
  const tpl = await fetchTemplate(t, admin, '/api/frontend/customer/templatedesign');
  const c = tpl.controls.find((x) => x.cbTacid === id);
  if (!c) throw new Error(`control ${id} not found`);
  return c;
};

const edit = (body: Record<string, unknown>) => t.post('/api/frontend/customer/templatecontroledit', body, admin);

const kept = (c: TemplateControl) => ({
  pid: c.pid,
  name: c.name,
  dmType: c.dmType,
  dmDesc: c.dmDesc,
  dmValue: c.dmValue,
  dmMust: c.dmMust,
  isJudge: c.isJudge,
  isFollowShow: c.isFollowShow,
  isSearch: c.isSearch,
  sortNum: c.sortNum,
  actionState: c.actionState,
});

describe('templatecontroledit is a partial update', () => {
  it('renaming a control keeps its options, flags, hint and order', async () => {
    const before = await createSelect();
    const res = await edit({ cbTacid: before.cbTacid, name: '改名后' });
    expect(res.json()).toMatchObject({ code: 0, msg: '保存成功' });
    const after = await controlById(before.cbTacid);
    expect(kept(after)).toEqual({ ...kept(before), name: '改名后' });
    expect(after.dmValue).toEqual(['甲', '乙', '丙']);
    expect(after.dmMust).toBe(1);
  });

  it('switching a control off changes actionState only', async () => {
    const before = await createSelect();
    expect((await edit({ cbTacid: before.cbTacid, actionState: 1 })).json().code).toBe(0);
    const after = await controlById(before.cbTacid);
    expect(kept(after)).toEqual({ ...kept(before), actionState: 1 });
  });

  it('an edit with only the id changes nothing', async () => {
    const before = await createSelect();
    expect((await edit({ cbTacid: before.cbTacid })).json().code).toBe(0);
    expect(kept(await controlById(before.cbTacid))).toEqual(kept(before));
  });

  it('the rules apply to the control as it would be saved', async () => {
    const c = await createSelect();
    const judge = await edit({ cbTacid: c.cbTacid, isJudge: 1 });
    expect(judge.json()).toMatchObject({ code: 100001, msg: '只有文本、数字和电话控件可以设置查重' });
    const empty = await edit({ cbTacid: c.cbTacid, options: [] });
    expect(empty.json()).toMatchObject({ msg: '请至少添加一个选项' });
    const dup = await edit({ cbTacid: c.cbTacid, options: ['甲', '甲'] });
    expect(dup.json()).toMatchObject({ msg: '选项不能重复' });
    expect(kept(await controlById(c.cbTacid))).toEqual(kept(c));
  });

  it('the field limits still hold at both edges on a partial edit', async () => {
    const c = await createSelect();
    expect((await edit({ cbTacid: c.cbTacid, name: '名'.repeat(21) })).json().msg).toBe('控件名称最多20个字符');
    expect((await edit({ cbTacid: c.cbTacid, name: '名'.repeat(20) })).json().code).toBe(0);
    expect((await edit({ cbTacid: c.cbTacid, name: '  ' })).json().msg).toBe('请输入控件名称');
    expect((await edit({ cbTacid: c.cbTacid, sortNum: 10_000 })).json().code).toBe(100001);
    expect((await edit({ cbTacid: c.cbTacid, sortNum: 9999 })).json().code).toBe(0);
  });

  it('changing the kind of an unused control to text drops its options', async () => {
    const c = await createSelect();
    expect((await edit({ cbTacid: c.cbTacid, dmType: DM_TYPE.text })).json().code).toBe(0);
    const after = await controlById(c.cbTacid);
    expect(after).toMatchObject({ dmType: DM_TYPE.text, dmValue: '', name: c.name, dmMust: 1, sortNum: 77 });
  });

  it('another company cannot edit the control', async () => {
    const c = await createSelect();
    const other = await t.login('other_admin');
    const res = await t.post('/api/frontend/customer/templatecontroledit', { cbTacid: c.cbTacid, name: '越权' }, other);
    expect(res.statusCode).toBe(404);
    expect((await controlById(c.cbTacid)).name).toBe(c.name);
  });
});
