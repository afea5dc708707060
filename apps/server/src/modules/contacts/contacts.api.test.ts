import type { Contact } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../../lib/clock';
import { demoValues, fetchTemplate, grantRole, mustCreate, setStrategy, type Template } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];

const contacts = async (user: string, cmCtid: number, query = '') => {
  const res = await t.get(`/api/frontend/customer/other/phone?cmCtid=${cmCtid}${query}`, as(user));
  expect(res.json().code, JSON.stringify(res.json())).toBe(0);
  return res.json().data as { list: Contact[]; count: number };
};
const addContact = (user: string, body: Record<string, unknown>) =>
  t.post('/api/frontend/customer/other/phonecreate', body, as(user));
const reveal = (user: string, query: string) => t.get(`/api/frontend/customer/phone?${query}`, as(user));

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('phone tab', () => {
  it('lists the template phone numbers first, then the added ones, 20 per page', async () => {
    const values = demoValues({ 座机: '010-62345678' });
    const id = await mustCreate(t, as('lisi'), tpl, '电话测试客户', values);
    const added = await addContact('lisi', {
      cmCtid: id,
      contactPerson: '王经理',
      contactNo: '139 0000 1234',
      contactPosition: '采购经理',
      kpType: 3,
      recommend: 1,
    });
    expect(added.json()).toMatchObject({ code: 0, msg: '添加成功' });
    const { list, count } = await contacts('lisi', id);
    expect(count).toBe(3);
    expect(list.map((c) => [c.sourceType, c.contactNo, c.contactType])).toEqual([
      [1, values.手机, 1],
      [1, '01062345678', 2],
      [2, '13900001234', 1],
    ]);
    expect(list[2]).toMatchObject({ contactPerson: '王经理', contactPosition: '采购经理', kpType: 3, recommend: 1 });
    // issue 23.5: a template number has no position of its own (the demo template has no 职位 control), never
    // the phone control's name (手机/座机, which the 类型 column already says).
    expect(list.slice(0, 2).map((c) => c.contactPosition)).toEqual(['', '']);
    expect((await contacts('lisi', id, '&kpType=3')).list.map((c) => c.contactNo)).toEqual(['13900001234']);
    expect((await contacts('lisi', id, '&contactNo=1234')).count).toBe(1);
    expect((await contacts('lisi', id, '&limit=2&page=2')).list).toHaveLength(1);
  });

  it('refuses an invalid number and a number the customer already has', async () => {
    const values = demoValues();
    const id = await mustCreate(t, as('lisi'), tpl, '电话校验客户', values);
    expect((await addContact('lisi', { cmCtid: id, contactNo: '0755-123' })).json()).toMatchObject({
      code: 108005,
      msg: '请输入正确的电话号码',
    });
    expect((await addContact('lisi', { cmCtid: id, contactNo: values.手机 })).json()).toMatchObject({
      code: 108006,
      msg: '该号码已在联系电话中',
    });
    expect((await contacts('lisi', id)).count).toBe(1);
  });

  it('edits and deletes an added number; other staff cannot touch it', async () => {
    const id = await mustCreate(t, as('lisi'), tpl, '电话编辑客户');
    const ccId = (await addContact('lisi', { cmCtid: id, contactNo: '13900005678' })).json().data.ccId;
    const edit = await t.post(
      '/api/frontend/customer/other/phoneedit',
      { ccId, cmCtid: id, contactNo: '13900005679', contactPerson: '刘总', kpType: 1 },
      as('lisi'),
    );
    expect(edit.json()).toMatchObject({ code: 0, msg: '添加/更新成功！' });
    expect((await contacts('lisi', id)).list[1]).toMatchObject({ contactNo: '13900005679', contactPerson: '刘总', kpType: 1 });
    expect((await t.post('/api/frontend/customer/other/phonedel', { ccId }, as('wangwu'))).json().code).toBe(106007);
    expect((await t.post('/api/frontend/customer/other/phonedel', { ccId }, as('lisi'))).json()).toMatchObject({
      code: 0,
      msg: '删除成功',
    });
    expect((await contacts('lisi', id)).count).toBe(1);
  });
});

describe('masked numbers and the daily reveal limit', () => {
  let id: number;
  let phone: string;
  let ccId: number;
  beforeAll(async () => {
    const values = demoValues();
    phone = values.手机;
    id = await mustCreate(t, as('lisi'), tpl, '打码测试客户', values);
    ccId = (await addContact('lisi', { cmCtid: id, contactNo: '13900009876' })).json().data.ccId;
    await setStrategy(t, as('admin'), { phoneEncryp: 1, decryptPhoneNum: 2 });
  });
  afterAll(async () => setStrategy(t, as('admin')));

  it('masks the numbers for a 销售 but not for a role holding frontend/customer/decrypt', async () => {
    const mine = await contacts('lisi', id);
    expect(mine.list.map((c) => [c.contactNo, c.encryptPhone])).toEqual([
      [`${phone.slice(0, 3)}****${phone.slice(-4)}`, 1],
      ['139****9876', 1],
    ]);
    expect((await contacts('zhangsan', id)).list.map((c) => c.encryptPhone)).toEqual([1, 1]);
    // granting 查看完整号码 (frontend/customer/decrypt) to a role shows its staff the full numbers
    await grantRole(t, as('admin'), '销售主管', { actions: ['frontend/customer/decrypt'] });
    expect((await contacts('zhangsan', id)).list.map((c) => c.contactNo)).toEqual([phone, '13900009876']);
  });

  it('reveals a number once per call and stops at decryptPhoneNum per day', async () => {
    const tacid = tpl.byName.手机.cbTacid;
    const first = await reveal('lisi', `cmCtid=${id}&cbTacid=${tacid}`);
    expect(first.json()).toMatchObject({ code: 0, data: { phone, remaining: 1 } });
    const second = await reveal('lisi', `cmCtid=${id}&sourceId=${ccId}&sourceType=2`);
    expect(second.json()).toMatchObject({ code: 0, data: { phone: '13900009876', remaining: 0 } });
    const third = await reveal('lisi', `cmCtid=${id}&cbTacid=${tacid}`);
    expect(third.json()).toMatchObject({ code: 108008, msg: '今日查看完整号码的次数已用完（每天2次），请明天再试' });
    // a role that sees full numbers is not counted; the next day the count starts again
    expect((await reveal('zhangsan', `cmCtid=${id}&cbTacid=${tacid}`)).json().data.remaining).toBeNull();
    setClockOffsetMs(86_400_000);
    try {
      expect((await reveal('lisi', `cmCtid=${id}&cbTacid=${tacid}`)).json()).toMatchObject({ code: 0, data: { phone } });
    } finally {
      setClockOffsetMs(0);
    }
  });

  it('never reveals a customer outside the data scope', async () => {
    const res = await reveal('wangwu', `cmCtid=${id}&cbTacid=${tpl.byName.手机.cbTacid}`);
    expect(res.json().code).toBe(106007);
  });

  it('keeps a masked number unchanged when it comes back from the edit form', async () => {
    const edit = await t.post(
      '/api/frontend/customer/other/phoneedit',
      { ccId, cmCtid: id, contactNo: '139****9876', contactPerson: '新联系人' },
      as('lisi'),
    );
    expect(edit.json().code).toBe(0);
    expect((await contacts('zhangsan', id)).list[1]).toMatchObject({ contactNo: '13900009876', contactPerson: '新联系人' });
  });
});
