import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoValues, fetchTemplate, freshMobile, mustCreate, type Template } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';

/**
 * SPEC §5/§9 limits of the customer detail drawer, each at both edges, with the literal values
 * (not the imported constants) so that a changed constant fails: follow remark 3,000; follow page
 * 10 (at most 100); contact page 20 (at most 100); contact person 20 and position 30; discard
 * reason text 30. Each test makes its own customer.
 */
let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];

let seq = 0;
const customer = async () => {
  seq += 1;
  return mustCreate(t, as('lisi'), tpl, `边界客户${seq}`, demoValues());
};
const follow = (body: Record<string, unknown>) => t.post('/api/frontend/customer/followcreate', body, as('lisi'));
const followList = (query: string) => t.get(`/api/frontend/customer/followlist?${query}`, as('lisi'));
const addContact = (body: Record<string, unknown>) => t.post('/api/frontend/customer/other/phonecreate', body, as('lisi'));
const contactList = (query: string) => t.get(`/api/frontend/customer/other/phone?${query}`, as('lisi'));

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'lisi']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
});
afterAll(async () => {
  await t?.close();
});

describe('follow-ups', () => {
  it('a remark of 3,000 characters is kept whole; 3,001 is refused', async () => {
    const id = await customer();
    const full = '跟'.repeat(3000);
    expect((await follow({ cmCtid: id, remark: full })).json()).toMatchObject({ code: 0 });
    const list = (await followList(`cmCtid=${id}&followType=0`)).json().data.list as { remark: string }[];
    expect(list[0].remark).toBe(full);
    const res = await follow({ cmCtid: id, remark: '跟'.repeat(3001) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 100001, msg: '跟进内容最多3000个字符' });
    expect((await followList(`cmCtid=${id}&followType=0`)).json().data.count).toBe(1);
  });

  it('10 records a page by default; a page holds at most 100', async () => {
    const id = await customer();
    for (let i = 1; i <= 11; i++) expect((await follow({ cmCtid: id, remark: `第${i}次` })).json().code).toBe(0);
    const first = (await followList(`cmCtid=${id}&followType=0`)).json().data;
    expect(first.count).toBe(11);
    expect(first.list).toHaveLength(10);
    expect((await followList(`cmCtid=${id}&followType=0&page=2`)).json().data.list).toHaveLength(1);
    expect((await followList(`cmCtid=${id}&followType=0&limit=100`)).json().data.list).toHaveLength(11);
    expect((await followList(`cmCtid=${id}&followType=0&limit=101`)).json().code).toBe(100001);
    expect((await followList(`cmCtid=${id}&followType=0&limit=0`)).json().code).toBe(100001);
  });
});

describe('contacts (phone tab)', () => {
  it('20 numbers a page by default; a page holds at most 100', async () => {
    const id = await customer();
    // the template's own 手机 is the first number; 20 more make 21
    for (let i = 0; i < 20; i++) expect((await addContact({ cmCtid: id, contactNo: freshMobile() })).json().code).toBe(0);
    const first = (await contactList(`cmCtid=${id}`)).json().data;
    expect(first.count).toBe(21);
    expect(first.list).toHaveLength(20);
    expect((await contactList(`cmCtid=${id}&page=2`)).json().data.list).toHaveLength(1);
    expect((await contactList(`cmCtid=${id}&limit=100`)).json().data.list).toHaveLength(21);
    expect((await contactList(`cmCtid=${id}&limit=101`)).json().code).toBe(100001);
  });

  it('a contact person holds 20 characters and a position 30; one more is refused', async () => {
    const id = await customer();
    const ok = await addContact({
      cmCtid: id,
      contactNo: freshMobile(),
      contactPerson: '联'.repeat(20),
      contactPosition: '职'.repeat(30),
    });
    expect(ok.json()).toMatchObject({ code: 0 });
    expect((await addContact({ cmCtid: id, contactNo: freshMobile(), contactPerson: '联'.repeat(21) })).json()).toMatchObject({
      code: 100001,
      msg: '联系人最多20个字符',
    });
    expect((await addContact({ cmCtid: id, contactNo: freshMobile(), contactPosition: '职'.repeat(31) })).json()).toMatchObject({
      code: 100001,
      msg: '职位最多30个字符',
    });
    expect((await contactList(`cmCtid=${id}`)).json().data.count).toBe(2);
  });
});

describe('discard to a pool', () => {
  it('the other-reason text holds 30 characters; 31 is refused', async () => {
    const pool = await t.post('/api/frontend/customerset/highseasdcreate', { name: `边界公海${seq}` }, as('admin'));
    expect(pool.json().code, pool.body).toBe(0);
    const cmHsid = pool.json().data.cmHsid as number;
    const refused = await customer();
    const long = await t.post(
      '/api/frontend/customer/followdown',
      { cmCtids: [refused], cmHsid, cmCdid: 0, reason: '因'.repeat(31) },
      as('lisi'),
    );
    expect(long.json()).toMatchObject({ msg: '丢弃理由最多30个字符' });
    const kept = await customer();
    const res = await t.post(
      '/api/frontend/customer/followdown',
      { cmCtids: [kept], cmHsid, cmCdid: 0, reason: '因'.repeat(30) },
      as('lisi'),
    );
    expect(res.json()).toMatchObject({ code: 0 });
    const mine = (await t.post('/api/frontend/customer/minelist', { limit: 200 }, as('lisi'))).json().data.list as {
      cmCtid: number;
    }[];
    expect(mine.map((r) => r.cmCtid)).toContain(refused);
    expect(mine.map((r) => r.cmCtid)).not.toContain(kept);
  });
});
