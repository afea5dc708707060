import type { CallFrame, CallRecordRow, DialResponse, PoolRules } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../../lib/clock';
import { advanceSeconds, callSocket, createCallTestApp, endedCall, mobileEnding, register } from '../../test/calls';
import {
  createCustomer,
  demoValues,
  fetchTemplate,
  freshMobile,
  listCustomers,
  multipart,
  mustCreate,
  setStrategy,
  type Template,
} from '../../test/customers';
import type { TestApp } from '../../test/harness';

/** Issue 11: the one customer-access policy — phone filters (hole 2), files (hole 3), calls (hole 6), duplicates (hole 10). */

let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];
let reasonId = 0;
let poolId = 0;

const rules: PoolRules = {
  recycle: { isOn: 0, noFollowDays: 0, noDealDays: 0, logic: 'or', cmNids: [], cmClids: [] },
  claim: { dailyMax: 0, cooldownDays: 0 },
};

/** A customer of `user` holding `phone` as its 手机. */
let named = 0;
const privateCustomer = (user: string, phone: string, name = `访问测试客户${++named}号`) =>
  mustCreate(t, as(user), tpl, name, demoValues({ 手机: phone }));

/** A customer created by 李四 and discarded into the pool every department may use. */
const poolCustomer = async (phone: string) => {
  const id = await privateCustomer('lisi', phone);
  const res = await t.post('/api/frontend/customer/followdown', { cmCtids: [id], cmHsid: poolId, cmCdid: reasonId }, as('lisi'));
  expect(res.json(), res.body).toMatchObject({ code: 0 });
  return id;
};

const ids = (list: { cmCtid: number }[]) => list.map((r) => r.cmCtid);

beforeAll(async () => {
  t = await createCallTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'zhaoliu']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
  reasonId = (await t.post('/api/frontend/customerset/discardcreate', { name: '访问测试', sortNum: 9 }, as('admin'))).json().data
    .cmCdid;
  const pool = await t.post('/api/frontend/customerset/highseasdcreate', { name: '访问测试公海', useRules: rules }, as('admin'));
  expect(pool.json()).toMatchObject({ code: 0 });
  poolId = pool.json().data.cmHsid;
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('hole 2: a masked number is found only by the complete number', () => {
  it('seaslist contactPhone (seaPhoneEncryp): a prefix finds nothing, the whole number finds the customer', async () => {
    await setStrategy(t, as('admin'), { seaPhoneEncryp: 1 });
    const phone = freshMobile();
    const id = await poolCustomer(phone);
    for (const part of [phone.slice(0, 6), phone.slice(0, 10), phone.slice(3)]) {
      expect(ids((await listCustomers(t, as('wangwu'), 'seaslist', { contactPhone: part })).list), part).not.toContain(id);
    }
    const whole = await listCustomers(t, as('wangwu'), 'seaslist', { contactPhone: phone });
    expect(ids(whole.list)).toEqual([id]);
    expect(whole.list[0]).toMatchObject({ encryptPhone: 1, contactPhone: `${phone.slice(0, 3)}****${phone.slice(-4)}` });
  });

  it('a phone filter without digits matches nothing (abc, %, *)', async () => {
    await setStrategy(t, as('admin'), { seaPhoneEncryp: 0 });
    await poolCustomer(freshMobile());
    await privateCustomer('lisi', freshMobile());
    const phoneControl = tpl.byName.手机.cbTacid;
    for (const text of ['abc', '%', '*', '_']) {
      expect((await listCustomers(t, as('wangwu'), 'seaslist', { contactPhone: text })).count, text).toBe(0);
      expect((await listCustomers(t, as('lisi'), 'minelist', { contactPhone: text })).count, text).toBe(0);
      const byControl = await listCustomers(t, as('lisi'), 'minelist', {
        templateControls: [{ cbTacid: phoneControl, dmValue: [text] }],
      });
      expect(byControl.count, text).toBe(0);
    }
  });

  it('minelist contactPhone and templateControls with phoneEncryp: whole numbers only; unmasked, a part still finds', async () => {
    const phone = freshMobile();
    const id = await privateCustomer('lisi', phone);
    const phoneControl = tpl.byName.手机.cbTacid;
    const byControl = (value: string) => ({ templateControls: [{ cbTacid: phoneControl, dmValue: [value] }] });

    await setStrategy(t, as('admin'), { phoneEncryp: 1 });
    for (const part of [phone.slice(0, 6), phone.slice(0, 10), phone.slice(-5)]) {
      expect(ids((await listCustomers(t, as('lisi'), 'minelist', { contactPhone: part })).list), part).not.toContain(id);
      expect(ids((await listCustomers(t, as('lisi'), 'minelist', byControl(part))).list), part).not.toContain(id);
    }
    expect(ids((await listCustomers(t, as('lisi'), 'minelist', { contactPhone: phone })).list)).toEqual([id]);
    expect(ids((await listCustomers(t, as('lisi'), 'minelist', byControl(phone))).list)).toEqual([id]);

    // Numbers the caller sees in full may be searched by a part.
    await setStrategy(t, as('admin'), { phoneEncryp: 0 });
    expect(ids((await listCustomers(t, as('lisi'), 'minelist', { contactPhone: phone.slice(-6) })).list)).toContain(id);
    expect(ids((await listCustomers(t, as('lisi'), 'minelist', byControl(phone.slice(-6)))).list)).toContain(id);
  });

  it('other/phone contactNo with phoneEncryp: a part finds nothing, the whole number finds it, no digits find nothing', async () => {
    await setStrategy(t, as('admin'), { phoneEncryp: 1 });
    const phone = freshMobile();
    const id = await privateCustomer('lisi', phone);
    const contacts = async (contactNo: string) => {
      const res = await t.get(
        `/api/frontend/customer/other/phone?cmCtid=${id}&contactNo=${encodeURIComponent(contactNo)}`,
        as('lisi'),
      );
      expect(res.json().code, res.body).toBe(0);
      return res.json().data as { count: number; list: { contactNo: string }[] };
    };
    for (const part of [phone.slice(0, 4), phone.slice(0, 8), phone.slice(-4)])
      expect((await contacts(part)).count, part).toBe(0);
    const whole = await contacts(phone);
    expect(whole.count).toBe(1);
    expect(JSON.stringify(whole)).not.toContain(phone);
    expect((await contacts('abc')).count).toBe(0);
    await setStrategy(t, as('admin'), { phoneEncryp: 0 });
    expect((await contacts(phone.slice(-4))).count).toBe(1);
  });
});

describe('follow-ups follow the customer rule', () => {
  it("a pool customer's follow history shows its numbers masked by seaPhoneEncryp", async () => {
    await setStrategy(t, as('admin'), { seaPhoneEncryp: 1, phoneEncryp: 0 });
    const created = await t.post(
      '/api/frontend/customer/templatecontrolcreate',
      { name: '跟进手机', dmType: 6, isFollowShow: 1 },
      as('admin'),
    );
    expect(created.json().code, created.body).toBe(0);
    const withFollowPhone = await fetchTemplate(t, as('admin'));
    const phone = freshMobile();
    const id = await privateCustomer('lisi', freshMobile());
    const follow = await t.post(
      '/api/frontend/customer/followcreate',
      {
        cmCtid: id,
        remark: '留了备用号码',
        templateControls: [{ cbTacid: withFollowPhone.byName.跟进手机.cbTacid, dmValue: [phone] }],
      },
      as('lisi'),
    );
    expect(follow.json().code, follow.body).toBe(0);
    const res = await t.post(
      '/api/frontend/customer/followdown',
      { cmCtids: [id], cmHsid: poolId, cmCdid: reasonId },
      as('lisi'),
    );
    expect(res.json().code, res.body).toBe(0);
    const history = await t.get(`/api/frontend/customer/followlist?cmCtid=${id}&page=1&limit=50`, as('wangwu'));
    expect(history.json().code, history.body).toBe(0);
    expect(history.body).toContain(`${phone.slice(0, 3)}****${phone.slice(-4)}`);
    expect(history.body).not.toContain(phone);
    expect((await t.get(`/api/frontend/customer/info?cmCtid=${id}`, as('wangwu'))).body).not.toContain(phone);
  });
});

describe('hole 10: a duplicate outside the caller scope is refused without names', () => {
  it('a sales user of another department hears only that the number exists; the owner hears the names', async () => {
    await setStrategy(t, as('admin'));
    const phone = freshMobile();
    await privateCustomer('lisi', phone, '苏州瑞丰信息技术有限公司');
    const outside = await createCustomer(t, as('zhaoliu'), tpl, '抢号码', demoValues({ 手机: phone }));
    expect(outside.json()).toEqual({ code: 106004, msg: `手机“${phone}”已存在`, data: null });
    expect(outside.body).not.toContain('李四');
    expect(outside.body).not.toContain('苏州瑞丰');
    // 张三 manages 李四's department: he may see whose it is.
    const manager = await createCustomer(t, as('zhangsan'), tpl, '抢号码', demoValues({ 手机: phone }));
    expect(manager.json().msg).toBe(`手机“${phone}”已存在，归属于李四（客户：苏州瑞丰信息技术有限公司）`);
  });
});

describe('hole 6 and hole 3: calls, their socket frames and recordings follow the customer rule', () => {
  const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;
  const dialById = async (cmCtid: number) => {
    const res = await t.post('/api/frontend/call/dial', { cmCtid }, as('lisi'));
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    return res.json().data as DialResponse;
  };

  it('a pool customer dialled by id is masked in the reply, every socket frame, call/list and seats/stat', async () => {
    await setStrategy(t, as('admin'), { seaPhoneEncryp: 1, phoneEncryp: 0 });
    await register(t, as('lisi'));
    const socket = await callSocket(t, as('lisi'));
    const phone = mobileEnding(4);
    const id = await poolCustomer(phone);
    const call = await dialById(id);
    expect(call).toMatchObject({ phone: masked(phone), encryptPhone: 1, cmCtid: id });
    await endedCall(t, call.uuid);
    await socket.next((f) => (f.data as { event?: string } | null)?.event === 'ended', 'ended frame');
    const frames = socket.frames.filter((f: CallFrame) => (f.data as { uuid?: string } | null)?.uuid === call.uuid);
    expect(frames.length).toBeGreaterThan(1);
    for (const f of frames) expect(f.data).toMatchObject({ phone: masked(phone), encryptPhone: 1 });
    expect(JSON.stringify(socket.frames)).not.toContain(phone);

    const list = await t.post('/api/frontend/call/list', { limit: 50 }, as('lisi'));
    const row = (list.json().data.list as CallRecordRow[]).find((r) => r.uuid === call.uuid);
    expect(row).toMatchObject({ dstNumber: masked(phone), encryptPhone: 1 });
    expect(list.body).not.toContain(phone);
    const stat = await t.get('/api/frontend/seats/stat', as('lisi'));
    expect(stat.json().code).toBe(0);
    expect(stat.body).not.toContain(phone);
    socket.ws.terminate();
  });

  it('masking is decided per frame: phoneEncryp switched on after the socket logged in masks the next call', async () => {
    await setStrategy(t, as('admin'), { phoneEncryp: 0 });
    await register(t, as('lisi'));
    const socket = await callSocket(t, as('lisi'));
    await setStrategy(t, as('admin'), { phoneEncryp: 1 });
    const phone = mobileEnding(4);
    const id = await privateCustomer('lisi', phone);
    advanceSeconds(120);
    const call = await dialById(id);
    expect(call).toMatchObject({ phone: masked(phone), encryptPhone: 1 });
    await endedCall(t, call.uuid);
    await socket.next(
      (f) =>
        (f.data as { uuid?: string; event?: string } | null)?.uuid === call.uuid &&
        (f.data as { event: string }).event === 'ended',
      'ended frame',
    );
    expect(JSON.stringify(socket.frames)).not.toContain(phone);
    socket.ws.terminate();
    await setStrategy(t, as('admin'), { phoneEncryp: 0 });
  });

  it('call/list number filters match whole numbers only while some number is masked; no digits match nothing', async () => {
    await setStrategy(t, as('admin'), { phoneEncryp: 1 });
    await register(t, as('lisi'));
    const phone = mobileEnding(4);
    const id = await privateCustomer('lisi', phone);
    advanceSeconds(120);
    const call = await dialById(id);
    await endedCall(t, call.uuid);
    const uuidsFor = async (dstNumber: string) => {
      const res = await t.post('/api/frontend/call/list', { limit: 100, dstNumber }, as('lisi'));
      expect(res.json().code, res.body).toBe(0);
      return (res.json().data.list as CallRecordRow[]).map((r) => r.uuid);
    };
    for (const part of [phone.slice(0, 7), phone.slice(-4), phone.slice(2, 9)])
      expect(await uuidsFor(part), part).not.toContain(call.uuid);
    expect(await uuidsFor(phone)).toContain(call.uuid);
    expect(await uuidsFor('abc')).toEqual([]);
    await setStrategy(t, as('admin'), { phoneEncryp: 0, seaPhoneEncryp: 0 });
    expect(await uuidsFor(phone.slice(-4))).toContain(call.uuid);
  });

  it("an incoming call from another staff's customer shows the agent neither its number nor its name", async () => {
    await setStrategy(t, as('admin'), { phoneEncryp: 0, seaPhoneEncryp: 0 });
    await register(t, as('lisi'));
    const socket = await callSocket(t, as('lisi'));
    const phone = mobileEnding(9);
    await privateCustomer('zhaoliu', phone, '赵六的秘密客户');
    const sips = (await t.get('/api/frontend/call/sipmylist?page=1&limit=10', as('lisi'))).json().data.list as {
      cmSipid: number;
    }[];
    advanceSeconds(120);
    const res = await t.post(
      '/api/frontend/call/simincoming',
      { cmSipid: sips[0]?.cmSipid, callerNumber: phone, ringSeconds: 1 },
      as('admin'),
    );
    expect(res.json(), res.body).toMatchObject({ code: 0 });
    const uuid = res.json().data.uuid as string;
    await endedCall(t, uuid);
    await socket.next(
      (f) =>
        (f.data as { uuid?: string; event?: string } | null)?.uuid === uuid && (f.data as { event: string }).event === 'ended',
      'ended',
    );
    const frames = JSON.stringify(socket.frames);
    expect(frames).not.toContain(phone);
    expect(frames).not.toContain('赵六的秘密客户');
    const list = await t.post('/api/frontend/call/list', { limit: 100 }, as('lisi'));
    const row = (list.json().data.list as CallRecordRow[]).find((r) => r.uuid === uuid);
    expect(row).toMatchObject({ cmgoidCaller: masked(phone), encryptPhone: 1, cmCtid: 0, customerName: '' });
    expect(list.body).not.toContain('赵六的秘密客户');
    socket.ws.terminate();
  });

  it('a recording is named without the number and served only to who may see its call or customer', async () => {
    await setStrategy(t, as('admin'));
    await register(t, as('lisi'));
    const phone = mobileEnding(4);
    const id = await privateCustomer('lisi', phone);
    advanceSeconds(120);
    const call = await dialById(id);
    const ended = await endedCall(t, call.uuid);
    expect(ended.recordFile).toMatch(/^\/api\/files\//);
    const own = await t.get(ended.recordFile, as('lisi'));
    expect(own.statusCode).toBe(200);
    const disposition = String(own.headers['content-disposition']);
    expect(decodeURIComponent(disposition)).toMatch(/录音_\d{14}\.wav/);
    expect(disposition).not.toContain(phone);
    expect(decodeURIComponent(disposition)).not.toContain(phone);
    // 张三 manages 李四; 王五 (same department, own scope) and 赵六 may see neither the call nor the customer.
    expect((await t.get(ended.recordFile, as('zhangsan'))).statusCode).toBe(200);
    for (const user of ['wangwu', 'zhaoliu']) {
      const res = await t.get(ended.recordFile, as(user));
      expect(res.statusCode, user).toBe(404);
      expect(res.body).not.toContain('RIFF');
    }
  });

  it('a customer attachment is served only to who may see the customer (and to its uploader)', async () => {
    const control = await t.post(
      '/api/frontend/customer/templatecontrolcreate',
      { name: '访问附件', dmType: 12, isJudge: 0, dmMust: 0 },
      as('admin'),
    );
    expect(control.json().code, control.body).toBe(0);
    const withFile = await fetchTemplate(t, as('admin'));
    const { payload, contentType } = multipart({ name: '合同.txt', data: Buffer.from('合同内容'), type: 'text/plain' });
    const up = await t.app.inject({
      method: 'POST',
      url: '/api/frontend/upload/file',
      payload,
      headers: { 'content-type': contentType, authorization: as('lisi') },
    });
    expect(up.json().code, up.body).toBe(0);
    const file = up.json().data as { id: number; url: string };
    // Not attached yet: any staff of the company may open it (logos, avatars work this way).
    expect((await t.get(file.url, as('wangwu'))).statusCode).toBe(200);
    await mustCreate(t, as('lisi'), withFile, '有附件的客户', demoValues({ 访问附件: [String(file.id)] }));
    expect((await t.get(file.url, as('lisi'))).statusCode).toBe(200);
    expect((await t.get(file.url, as('zhangsan'))).statusCode).toBe(200);
    expect((await t.get(file.url, as('admin'))).statusCode).toBe(200);
    for (const user of ['wangwu', 'zhaoliu']) expect((await t.get(file.url, as(user))).statusCode, user).toBe(404);
  });
});
