import type { DialRefusal, DialRefusalStat, DialResponse, DncEntry, ListData } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staff } from '../../db/schema';
import type { AppError } from '../../lib/app-error';
import { setClockOffsetMs } from '../../lib/clock';
import { toDate } from '../../lib/time';
import { createCallTestApp, endedCall, mobileEnding, readyLine } from '../../test/calls';
import { demoValues, fetchTemplate, grantRole, mustCreate, setStrategy, type Template } from '../../test/customers';
import type { TestApp } from '../../test/harness';
import { originateCustomerLeg } from '../calls/call-control';
import { addDoNotCall, isDoNotCall } from './dnc.service';

// The 禁拨 list (issue 15): never dialled while in force (agents and server legs), kept for the
// company's retention (expiry by clock move), its routes, and the refusal log with its scope.

let t: TestApp;
let tpl: Template;
let tenantId: number;
let otherTenantId: number;
const tokens: Record<string, string> = {};
const ALL_DAY = { from: '00:00', to: '24:00' };
const DEFAULTS = { manualObeysHours: true, capPer5Min: 3, capPerDay: 5, dncRetentionMonths: 6 };

const clockAt = (beijing: string) => setClockOffsetMs(toDate(`${beijing}+08`).getTime() - Date.now());
const saveSettings = async (patch: Record<string, unknown>, user = 'admin') => {
  const body = { callerNumber: '', callHours: ALL_DAY, bridgeMode: '3pcc', ...DEFAULTS, ...patch };
  return t.post('/api/frontend/callsetting/save', body, tokens[user]);
};
const dial = (dstNumber: string, user = 'lisi') => t.post('/api/frontend/call/dial', { dstNumber }, tokens[user]);
const dialled = async (dstNumber: string, user = 'lisi') => {
  const res = await dial(dstNumber, user);
  expect(res.json(), res.body).toMatchObject({ code: 0 });
  return endedCall(t, (res.json().data as DialResponse).uuid);
};
const add = (phone: string, reason?: string, user = 'admin') => t.post('/api/frontend/dnc/add', { phone, reason }, tokens[user]);
const list = async (query = '', user = 'admin') => {
  const res = await t.get(`/api/frontend/dnc/list?${query}`, tokens[user]);
  expect(res.json(), res.body).toMatchObject({ code: 0 });
  return res.json().data as ListData<DncEntry>;
};
const refusals = async (query = '', user = 'admin') => {
  const res = await t.get(`/api/frontend/dnc/refusals?${query}`, tokens[user]);
  expect(res.json(), res.body).toMatchObject({ code: 0 });
  return res.json().data as ListData<DialRefusal>;
};

beforeAll(async () => {
  t = await createCallTestApp();
  for (const u of ['admin', 'lisi', 'wangwu', 'zhangsan', 'other_admin']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, tokens.admin);
  const rows = await t.database.db.select().from(staff);
  tenantId = rows.find((r) => r.username === 'lisi')?.tenantId ?? 0;
  otherTenantId = rows.find((r) => r.username === 'other_admin')?.tenantId ?? 0;
  // 销售 (李四, 王五: own scope) may open 禁拨名单 and 外呼拦截记录
  await grantRole(t, tokens.admin, '销售', { menuIds: [601, 602] });
  await readyLine(t, tokens.lisi);
  await readyLine(t, tokens.wangwu);
  clockAt('2026-12-01 10:00:00');
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('禁拨 list', () => {
  it('a number on it is never dialled, by hand or by a server leg; the message says why', async () => {
    const n = mobileEnding(7);
    await dialled(n);
    expect((await add(n, '客户拒绝来电')).json()).toMatchObject({ code: 0, msg: '添加成功' });
    const res = await dial(n);
    expect(res.json()).toEqual({ code: 115001, msg: '该号码已在禁拨名单中（客户拒绝来电），不能拨打', data: null });
    let legError: AppError | undefined;
    await originateCustomerLeg(t.app.calls, { tenantId, number: n, ringSeconds: 5 }).catch((e) => {
      legError = e;
    });
    expect(legError?.code).toBe(115001);
    // the same number with +86 and spaces is the same number
    expect((await add(`+86 ${n.slice(0, 3)} ${n.slice(3)}`)).json()).toMatchObject({ code: 115004, msg: '该号码已在禁拨名单中' });
    // not another company's
    expect(await isDoNotCall(t.app.db, otherTenantId, n)).toBe(false);
    expect(await isDoNotCall(t.app.db, tenantId, n)).toBe(true);
  });

  it('kept for the retention (6 months by default): refused the second before it expires, dialled after', async () => {
    clockAt('2026-12-01 10:00:00');
    const n = mobileEnding(7);
    expect((await add(n, '投诉')).json().code).toBe(0);
    const [entry] = (await list(`phone=${n}`)).list;
    expect(entry).toMatchObject({ reason: '投诉', source: 1, sourceName: '手动添加', cmSidName: '系统管理员', isActive: 1 });
    expect(entry.expireTime.slice(0, 10)).toBe('2027-06-01');
    // the entry was added a few ms after 10:00:00: a second before its expiry it is still in force
    const expiry = toDate(`${entry.expireTime}+08`).getTime();
    setClockOffsetMs(expiry - 1000 - Date.now());
    expect((await dial(n)).json()).toMatchObject({ code: 115001, msg: '该号码已在禁拨名单中（投诉），不能拨打' });
    setClockOffsetMs(expiry + 1000 - Date.now());
    await dialled(n);
    expect((await list(`phone=${n}`)).list[0].isActive).toBe(0);
    // an expired entry may be added again: renewed from now
    expect((await add(n, '再次拒绝')).json().code).toBe(0);
    expect((await list(`phone=${n}`)).list[0]).toMatchObject({ isActive: 1, reason: '再次拒绝' });
    expect((await dial(n)).json().code).toBe(115001);
    clockAt('2026-12-01 10:00:00');
  });

  it('retention 0 keeps an entry forever; the task module adds through addDoNotCall (renewing)', async () => {
    expect((await saveSettings({ dncRetentionMonths: 0 })).json().code).toBe(0);
    try {
      const n = mobileEnding(7);
      const first = await addDoNotCall(t.app.db, tenantId, n, { reason: '客户拒绝来电', source: 2, staffId: null });
      expect(first.wasInForce).toBe(false);
      const again = await addDoNotCall(t.app.db, tenantId, n, { reason: '再次拒绝', source: 2, staffId: null });
      expect(again).toEqual({ id: first.id, wasInForce: true });
      const [entry] = (await list(`phone=${n}`)).list;
      expect(entry).toMatchObject({ expireTime: '', sourceName: '任务拒接', cmSidName: '系统', isActive: 1 });
      clockAt('2036-12-01 10:00:00');
      expect(await isDoNotCall(t.app.db, tenantId, n)).toBe(true);
      await expect(addDoNotCall(t.app.db, tenantId, '12', { reason: 'x', source: 2, staffId: null })).rejects.toThrow(
        '请输入正确的电话号码',
      );
    } finally {
      clockAt('2026-12-01 10:00:00');
      await saveSettings({});
    }
  });

  it('delete: the number is dialled again; another company cannot delete it', async () => {
    const n = mobileEnding(7);
    await add(n);
    const [entry] = (await list(`phone=${n}`)).list;
    expect(entry.reason).toBe('客户拒绝来电');
    const other = await t.post('/api/frontend/dnc/del', { id: entry.id }, tokens.other_admin);
    expect(other.json()).toMatchObject({ code: 115005, msg: '禁拨号码不存在或已删除' });
    expect((await list('', 'other_admin')).list.map((e) => e.id)).not.toContain(entry.id);
    expect((await t.post('/api/frontend/dnc/del', { id: entry.id }, tokens.admin)).json()).toMatchObject({ code: 0 });
    await dialled(n);
    expect((await t.post('/api/frontend/dnc/del', { id: entry.id }, tokens.admin)).json().code).toBe(115005);
  });

  it('add checks its input: a number, a reason of at most 50 characters', async () => {
    expect((await add('12')).json()).toMatchObject({ code: 115006, msg: '请输入正确的电话号码' });
    expect((await add('')).json()).toMatchObject({ code: 100001, msg: '请输入电话号码' });
    expect((await add(mobileEnding(7), '原'.repeat(51))).json()).toMatchObject({ code: 100001, msg: '禁拨原因最多50个字' });
    expect((await add(mobileEnding(7), '原'.repeat(50))).json().code).toBe(0);
  });

  it("加入禁拨 from a call record: calls in the caller's scope only, by uuid", async () => {
    const n = mobileEnding(7);
    const call = await dialled(n);
    // 王五 (own scope) cannot reach 李四's call; nor can another company
    for (const user of ['wangwu', 'other_admin']) {
      const res = await t.post('/api/frontend/dnc/addfromcall', { uuid: call.uuid }, tokens[user]);
      expect(res.json(), user).toMatchObject({ code: 115007, msg: '通话记录不存在或您无权查看' });
    }
    const res = await t.post('/api/frontend/dnc/addfromcall', { uuid: call.uuid, reason: '通话中拒绝' }, tokens.lisi);
    expect(res.json()).toMatchObject({ code: 0, msg: '已加入禁拨名单' });
    expect((await list(`phone=${n}`)).list[0]).toMatchObject({ reason: '通话中拒绝', sourceName: '通话记录', cmSidName: '李四' });
    expect((await t.post('/api/frontend/dnc/addfromcall', { uuid: call.uuid }, tokens.lisi)).json().code).toBe(115004);
    expect((await dial(n)).json().code).toBe(115001);
  });

  it("numbers are masked as the customer-access policy says: another's customer always, own ones per phoneEncryp", async () => {
    const mine = mobileEnding(7);
    const hers = mobileEnding(7);
    await mustCreate(t, tokens.lisi, tpl, '禁拨客户甲', demoValues({ 手机: mine }));
    await mustCreate(t, tokens.wangwu, tpl, '禁拨客户乙', demoValues({ 手机: hers }));
    await add(mine);
    await add(hers);
    await setStrategy(t, tokens.admin, { phoneEncryp: 0, seaPhoneEncryp: 0 });
    let rows = (await list('', 'lisi')).list;
    expect(rows.find((r) => r.customerName === '禁拨客户甲')?.phone).toBe(mine);
    expect(JSON.stringify(rows)).not.toContain(hers);
    expect(JSON.stringify(rows)).not.toContain('禁拨客户乙');
    // a masked viewer's number filter matches whole numbers only
    expect((await list(`phone=${hers.slice(0, 7)}`, 'wangwu')).count).toBeGreaterThanOrEqual(1);
    await setStrategy(t, tokens.admin, { phoneEncryp: 1, seaPhoneEncryp: 1 });
    rows = (await list('', 'lisi')).list;
    expect(JSON.stringify(rows)).not.toContain(mine);
    expect(rows.find((r) => r.customerName === '禁拨客户甲')).toMatchObject({ encryptPhone: 1 });
    expect((await list(`phone=${hers.slice(0, 7)}`, 'wangwu')).count).toBe(0);
    expect((await list(`phone=${hers}`, 'wangwu')).count).toBe(1);
    await setStrategy(t, tokens.admin, { phoneEncryp: 0, seaPhoneEncryp: 0 });
  });

  it("links a number to its customer, a contact's number too: the adder's own customer first, else the oldest", async () => {
    const addContact = (user: string, cmCtid: number, contactNo: string) =>
      t.post('/api/frontend/customer/other/phonecreate', { cmCtid, contactNo }, tokens[user]);
    const entryOf = async (phone: string) => (await list(`phone=${phone}`)).list[0];
    const contactOnly = mobileEnding(8);
    const withContact = await mustCreate(t, tokens.lisi, tpl, '禁拨联系人客户', demoValues({ 手机: mobileEnding(8) }));
    expect((await addContact('lisi', withContact, contactOnly)).json()).toMatchObject({ code: 0 });
    await add(contactOnly);
    expect(await entryOf(contactOnly)).toMatchObject({ cmCtid: withContact, customerName: '禁拨联系人客户' });

    const shared = mobileEnding(8);
    const oldest = await mustCreate(t, tokens.wangwu, tpl, '禁拨共号客户甲', demoValues({ 手机: shared }));
    const lisis = await mustCreate(t, tokens.lisi, tpl, '禁拨共号客户乙', demoValues({ 手机: mobileEnding(8) }));
    expect((await addContact('lisi', lisis, shared)).json()).toMatchObject({ code: 0 });
    expect((await add(shared, undefined, 'lisi')).json()).toMatchObject({ code: 0 });
    expect(await entryOf(shared)).toMatchObject({ cmCtid: lisis });
    const byAdmin = mobileEnding(8);
    expect((await addContact('lisi', lisis, byAdmin)).json()).toMatchObject({ code: 0 });
    expect((await addContact('wangwu', oldest, byAdmin)).json()).toMatchObject({ code: 0 });
    await add(byAdmin);
    expect(await entryOf(byAdmin)).toMatchObject({ cmCtid: oldest });
  });
});

describe('refusal log', () => {
  it("each refusal once, with its code and reason, in the caller's data scope; filters; other companies see none", async () => {
    clockAt('2026-12-20 10:00:00');
    const black = mobileEnding(7);
    await add(black, '客户拒绝来电');
    await dial(black, 'lisi');
    await dial(black, 'wangwu');
    await dial('123', 'lisi');
    const all = await refusals('startTime=2026-12-20&endTime=2026-12-20');
    expect(all.list.map((r) => [r.cmSidName, r.code, r.kind])).toEqual([
      ['李四', 110001, '号码不规范'],
      ['王五', 115001, '禁拨名单'],
      ['李四', 115001, '禁拨名单'],
    ]);
    expect(all.list[2]).toMatchObject({
      reason: '该号码已在禁拨名单中（客户拒绝来电），不能拨打',
      phone: black,
      originName: '人工外呼',
    });
    // 李四 (own scope) sees his own; 张三 (department) both; the filters
    const lisi = await refusals('startTime=2026-12-20&endTime=2026-12-20', 'lisi');
    expect(lisi.list.map((r) => r.cmSidName)).toEqual(['李四', '李四']);
    expect((await refusals('startTime=2026-12-20&endTime=2026-12-20&code=115001')).count).toBe(2);
    const wangwuId = all.list[1].cmSid;
    expect((await refusals(`startTime=2026-12-20&endTime=2026-12-20&cmSid=${wangwuId}`)).count).toBe(1);
    expect((await refusals('startTime=2026-12-21&endTime=2026-12-22')).count).toBe(0);
    expect((await refusals('', 'other_admin')).count).toBe(0);
    const stat = (await t.get('/api/frontend/dnc/refusalstat', tokens.admin)).json().data as DialRefusalStat;
    expect(stat.days).toHaveLength(7);
    expect(stat.days[6]).toBe('2026-12-20');
    expect(stat.series.find((s) => s.kind === '禁拨名单')?.counts[6]).toBe(2);
    expect(stat.series.find((s) => s.kind === '号码不规范')?.counts[6]).toBe(1);
    const lisiStat = (await t.get('/api/frontend/dnc/refusalstat', tokens.lisi)).json().data as DialRefusalStat;
    expect(lisiStat.series.find((s) => s.kind === '禁拨名单')?.counts[6]).toBe(1);
    // no menu, no log: 张三's role has neither page
    expect((await t.get('/api/frontend/dnc/refusals', tokens.zhangsan)).json().code).toBe(100003);
    expect((await t.get('/api/frontend/dnc/list', tokens.zhangsan)).json().code).toBe(100003);
  });
});

describe('外呼设置: the compliance fields', () => {
  it('checks them at both edges', async () => {
    const msg = async (patch: Record<string, unknown>) => {
      const res = await saveSettings(patch);
      return res.statusCode === 200 && res.json().code === 0 ? 'ok' : (res.json().msg as string);
    };
    expect(await msg({ capPer5Min: 100, capPerDay: 1000, dncRetentionMonths: 120 })).toBe('ok');
    expect(await msg({ capPer5Min: 101, capPerDay: 1000 })).toBe('5分钟内呼叫上限请输入0–100的整数');
    expect(await msg({ capPerDay: 1001 })).toBe('24小时内呼叫上限请输入0–1000的整数');
    expect(await msg({ dncRetentionMonths: 121 })).toBe('禁拨保留时长请输入0–120的整数（月）');
    expect(await msg({ dncRetentionMonths: -1 })).toBe('禁拨保留时长请输入0–120的整数（月）');
    expect(await msg({ capPer5Min: 1.5 })).toBe('5分钟内呼叫上限请输入0–100的整数');
    expect(await msg({ capPer5Min: 6, capPerDay: 5 })).toBe('5分钟内的呼叫上限不能大于24小时的呼叫上限');
    expect(await msg({ capPer5Min: 5, capPerDay: 5 })).toBe('ok');
    expect(await msg({ capPer5Min: 6, capPerDay: 0 })).toBe('ok');
    expect(await msg({ manualObeysHours: 'yes' })).toBe('请选择人工外呼是否受外呼时段限制');
    expect(await msg({ manualObeysHours: false, capPer5Min: 0, capPerDay: 0, dncRetentionMonths: 0 })).toBe('ok');
    const info = (await t.get('/api/frontend/callsetting/info', tokens.admin)).json().data;
    expect(info).toMatchObject({ manualObeysHours: false, capPer5Min: 0, capPerDay: 0, dncRetentionMonths: 0 });
    // another company's settings are its own
    const other = (await t.get('/api/frontend/callsetting/info', tokens.other_admin)).json().data;
    expect(other).toMatchObject({ manualObeysHours: true, capPer5Min: 3, capPerDay: 5, dncRetentionMonths: 6 });
    expect(await msg({})).toBe('ok');
  });
});
