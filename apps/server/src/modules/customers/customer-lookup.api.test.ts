import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoValues, fetchTemplate, mustCreate, type Template } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';

/** Issue 23 (SPEC §7 GET customer/info ?cmCtid, phone): a customer is found by one of his numbers alone. */
let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];
const byPhone = (user: string, phone: string) =>
  t.get(`/api/frontend/customer/info?phone=${encodeURIComponent(phone)}`, as(user));

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'lisi', 'wangwu']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
});
afterAll(async () => t.close());

describe('customer/info by phone', () => {
  it('finds the customer by a whole number, however it is written', async () => {
    const values = demoValues({ 座机: '010-62345679' });
    const id = await mustCreate(t, as('lisi'), tpl, '按号码查找客户', values);
    for (const phone of [values.手机 as string, `+86 ${values.手机}`, '010 6234 5679']) {
      const res = await byPhone('lisi', phone);
      expect(res.json(), phone).toMatchObject({ code: 0, data: { cmCtid: id, name: '按号码查找客户' } });
    }
    // the id still wins when both are given
    const both = await t.get(`/api/frontend/customer/info?cmCtid=${id}&phone=13000000000`, as('lisi'));
    expect(both.json()).toMatchObject({ code: 0, data: { cmCtid: id } });
  });

  it('goes through the customer-access policy: outside the caller sight it is not found, a part finds nothing', async () => {
    const values = demoValues();
    await mustCreate(t, as('lisi'), tpl, '他人看不到的客户', values);
    const phone = values.手机 as string;
    const other = await byPhone('wangwu', phone);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 106007, msg: '客户不存在或您无权查看' });
    expect(other.body).not.toContain('他人看不到的客户');
    const part = await byPhone('lisi', phone.slice(-6));
    expect(part.statusCode).toBe(404);
    expect(part.json().code).toBe(106007);
    expect((await byPhone('lisi', 'abc')).json()).toMatchObject({ code: 108005, msg: '请输入正确的电话号码' });
  });

  it('refuses a query with neither an id nor a number', async () => {
    const res = await t.get('/api/frontend/customer/info', as('lisi'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 100001, msg: '请选择客户或输入电话号码' });
    expect((await t.get('/api/frontend/customer/info?cmCtid=abc', as('lisi'))).json().code).toBe(100001);
  });
});

/** Issue 23 (SPEC §7 customer list {page, limit 100, keyword}): the picker of the order and receipt pages. */
describe('customer/picklist', () => {
  type Pick = { cmCtid: number; name: string; contactPhone: string; ownerName: string };
  const pick = async (user: string, query: string) => {
    const res = await t.get(`/api/frontend/customer/picklist?${query}`, as(user));
    expect(res.json().code, res.body).toBe(0);
    return res.json().data as { list: Pick[]; count: number };
  };

  it('lists the caller own-scope private customers by name or by whole number, 100 a page at most', async () => {
    const values = demoValues();
    const id = await mustCreate(t, as('lisi'), tpl, '选择器客户甲', values);
    const byName = await pick('lisi', `keyword=${encodeURIComponent('选择器客户')}`);
    expect(byName.list.map((c) => c.cmCtid)).toContain(id);
    expect(byName.list.find((c) => c.cmCtid === id)).toMatchObject({ name: '选择器客户甲', ownerName: '李四' });
    const byNumber = await pick('lisi', `keyword=${values.手机}`);
    expect(byNumber.list.map((c) => c.cmCtid)).toEqual([id]);
    // another sales user's scope does not hold it
    expect((await pick('wangwu', `keyword=${encodeURIComponent('选择器客户甲')}`)).count).toBe(0);
    expect((await pick('wangwu', `keyword=${values.手机}`)).count).toBe(0);
    // the default page is 100 rows; more is refused
    expect((await pick('admin', '')).list.length).toBeLessThanOrEqual(100);
    const tooMany = await t.get('/api/frontend/customer/picklist?limit=101', as('admin'));
    expect(tooMany.statusCode).toBe(400);
  });
});
