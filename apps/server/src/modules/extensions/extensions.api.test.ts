import type { SipAdminInfo, SipInfo } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];

const sipList = async (user: string, query = '') => {
  const res = await t.get(`/api/frontend/call/siplist${query}`, as(user));
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as { list: SipAdminInfo[]; count: number };
};
const myDefault = async (user: string) => (await t.get('/api/frontend/call/sipdefault', as(user))).json().data as SipInfo | null;
const staffIdOf = async (username: string) => {
  const res = await t.get(`/api/frontend/staff/list?page=1&limit=100`, as('admin'));
  const list = res.json().data.list as { cmSid: number; username?: string; name: string }[];
  const names: Record<string, string> = { lisi: '李四', wangwu: '王五', zhangsan: '张三', zhaoliu: '赵六' };
  const found = list.find((s) => s.name === names[username]);
  if (!found) throw new Error(`no staff ${username}`);
  return found.cmSid;
};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'zhaoliu', 'other_admin']) tokens[u] = await t.login(u);
});
afterAll(async () => {
  await t.close();
});

describe('demo extensions', () => {
  it('gives each demo account its default extension; zhaoliu a device', async () => {
    expect(await myDefault('admin')).toMatchObject({ user: '8000', isDefault: 1 });
    expect(await myDefault('lisi')).toMatchObject({
      user: '8001',
      cmSidName: '李四',
      phoneState: 0,
      registerStatus: 0,
      registerState: 0,
      callStatus: 0,
      imei: '',
      cmDeid: 0,
      telephony: 'sim',
    });
    expect(await myDefault('wangwu')).toMatchObject({ user: '8002' });
    expect(await myDefault('zhangsan')).toMatchObject({ user: '8003' });
    const device = await myDefault('zhaoliu');
    expect(device?.imei).toMatch(/^\d{15}$/);
    expect(device?.cmDeid).toBeGreaterThan(0);
    expect(await myDefault('other_admin')).toBeNull();
  });
});

describe('extension management (/call/sip)', () => {
  it('lists, filters, creates, edits and deletes; only for the menu', async () => {
    const all = await sipList('admin');
    expect(all.count).toBe(6);
    expect((await sipList('admin', '?user=800')).count).toBe(6);
    expect((await sipList('admin', '?user=8001')).list[0]).toMatchObject({ user: '8001', cmSidName: '李四' });
    const lisiId = await staffIdOf('lisi');
    expect((await sipList('admin', `?cmSid=${lisiId}`)).list.map((s) => s.user)).toEqual(['8001']);
    expect((await t.get('/api/frontend/call/siplist', as('lisi'))).json().code).toBe(100003);
    expect((await sipList('other_admin')).count).toBe(0);

    const create = await t.post(
      '/api/frontend/call/sipcreate',
      { user: '8100', pwd: 'secret', server: 'sip.x', url: 'wss://sip.x', dmType: 1 },
      as('admin'),
    );
    expect(create.json()).toMatchObject({ code: 0 });
    const id = create.json().data.cmSipid as number;
    expect((await t.post('/api/frontend/call/sipcreate', { user: '8100', pwd: 'x' }, as('admin'))).json()).toMatchObject({
      code: 110012,
      msg: '分机号已存在',
    });
    // another company may use the same number
    expect((await t.post('/api/frontend/call/sipcreate', { user: '8100', pwd: 'x' }, as('other_admin'))).json().code).toBe(0);
    // an imei belongs to one extension
    const demoImei = (await myDefault('zhaoliu'))?.imei;
    const dup = await t.post(
      '/api/frontend/call/sipedit',
      { cmSipid: id, user: '8100', pwd: '', dmType: 4, imei: demoImei },
      as('admin'),
    );
    expect(dup.json()).toMatchObject({ code: 110016 });
    const edit = await t.post(
      '/api/frontend/call/sipedit',
      { cmSipid: id, user: '8101', pwd: '', dmType: 4, imei: '860000000000099', actionState: 1 },
      as('admin'),
    );
    expect(edit.json().code).toBe(0);
    const edited = (await sipList('admin', '?user=8101')).list[0];
    expect(edited).toMatchObject({ pwd: 'secret', imei: '860000000000099', actionState: 1, dmType: 4 });
    expect(edited.deviceSecret).toMatch(/^[0-9a-f]{32}$/);
    expect((await sipList('admin', '?actionState=1')).count).toBe(1);
    const renewed = await t.post('/api/frontend/call/sipdevicesecret', { cmSipid: id }, as('admin'));
    expect(renewed.json().data.deviceSecret).not.toBe(edited.deviceSecret);
    // tenant isolation
    expect((await t.post('/api/frontend/call/sipdel', { cmSipid: id }, as('other_admin'))).json().code).toBe(110013);
    expect((await t.post('/api/frontend/call/sipdel', { cmSipid: id }, as('admin'))).json().code).toBe(0);
    expect((await sipList('admin', '?user=8101')).count).toBe(0);
  });

  it('binds to staff: the first extension becomes the default; sipdefaultmy switches', async () => {
    const free = (await sipList('admin', '?user=8005')).list[0];
    const wangwu = await staffIdOf('wangwu');
    expect(
      (await t.post('/api/frontend/call/sipbindstaff', { cmSipid: free.cmSipid, cmSid: wangwu }, as('admin'))).json().code,
    ).toBe(0);
    // wangwu already had 8002 as default
    expect(await myDefault('wangwu')).toMatchObject({ user: '8002' });
    const mine = (await t.get('/api/frontend/call/sipmylist', as('wangwu'))).json().data;
    expect(mine.list.map((s: SipInfo) => s.user).sort()).toEqual(['8002', '8005']);
    expect((await t.post('/api/frontend/call/sipdefaultmy', { cmSipid: free.cmSipid }, as('wangwu'))).json().code).toBe(0);
    expect(await myDefault('wangwu')).toMatchObject({ user: '8005', isDefault: 1 });
    // someone else's extension cannot become my default
    const lisiSip = (await sipList('admin', '?user=8001')).list[0];
    expect((await t.post('/api/frontend/call/sipdefaultmy', { cmSipid: lisiSip.cmSipid }, as('wangwu'))).json().code).toBe(
      110014,
    );
    // unbinding the default promotes his other extension
    expect((await t.post('/api/frontend/call/sipbindstaff', { cmSipid: free.cmSipid, cmSid: 0 }, as('admin'))).json().code).toBe(
      0,
    );
    expect(await myDefault('wangwu')).toMatchObject({ user: '8002', isDefault: 1 });
    // a staff of another company cannot be bound
    const foreign = await t.post('/api/frontend/call/sipbindstaff', { cmSipid: free.cmSipid, cmSid: 999999 }, as('admin'));
    expect(foreign.json().code).toBe(100005);
  });

  it('phone state, register status and bound phone of the own extension', async () => {
    expect((await t.post('/api/frontend/call/sipdefaultphoneState', { phoneState: 1 }, as('lisi'))).json().code).toBe(0);
    expect((await t.post('/api/frontend/call/sipdefaultregisterStatus', { registerStatus: 3 }, as('lisi'))).json().code).toBe(0);
    expect(await myDefault('lisi')).toMatchObject({ phoneState: 1, registerStatus: 3, registerState: 0 });
    await t.post('/api/frontend/call/sipdefaultregisterStatus', { registerStatus: 1 }, as('lisi'));
    expect(await myDefault('lisi')).toMatchObject({ registerStatus: 1, registerState: 1 });
    // unregistering goes offline
    await t.post('/api/frontend/call/sipdefaultregisterStatus', { registerStatus: 0 }, as('lisi'));
    expect(await myDefault('lisi')).toMatchObject({ registerStatus: 0, phoneState: 0 });
    expect((await t.post('/api/frontend/call/sipdefaultphoneState', { phoneState: 5 }, as('lisi'))).json().code).toBe(100001);
    expect((await t.post('/api/frontend/call/sipdefaultphoneState', { phoneState: 1 }, as('other_admin'))).json()).toMatchObject({
      code: 110004,
      msg: '暂无默认分机',
    });

    const mine = await myDefault('lisi');
    const bind = (user: string, phone: string, cmSipid = mine?.cmSipid) =>
      t.post('/api/frontend/call/sipbindhone', { cmSipid, phone }, as(user));
    expect((await bind('lisi', '138 0013 8000')).json().code).toBe(0);
    expect(await myDefault('lisi')).toMatchObject({ phone: '13800138000' });
    expect((await bind('lisi', '12')).json().code).toBe(110001);
    const wangwuSip = await myDefault('wangwu');
    expect((await bind('lisi', '13800138000', wangwuSip?.cmSipid)).json().code).toBe(110014);
    expect((await bind('admin', '13800138001', wangwuSip?.cmSipid)).json().code).toBe(0);
  });
});

describe('logout', () => {
  it('takes the default extension offline even when the browser could not say so', async () => {
    const token = await t.login('wangwu');
    expect((await t.post('/api/frontend/call/sipdefaultphoneState', { phoneState: 1 }, token)).json().code).toBe(0);
    expect((await t.post('/api/frontend/call/sipdefaultregisterStatus', { registerStatus: 1 }, token)).json().code).toBe(0);
    expect(await myDefault('wangwu')).toMatchObject({ registerStatus: 1, phoneState: 1 });
    expect((await t.post('/api/frontend/logout', {}, token)).json().code).toBe(0);
    expect(await myDefault('wangwu')).toMatchObject({ registerStatus: 0, phoneState: 0 });
  });
});
