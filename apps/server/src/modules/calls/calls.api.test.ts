import type { CallRecordRow, DialResponse, FollowRecord } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema';
import { clockOffsetMs, setClockOffsetMs } from '../../lib/clock';
import { advanceSeconds, callRow, createCallTestApp, endedCall, mobileEnding, readyLine, waitFor } from '../../test/calls';
import { demoValues, fetchTemplate, mustCreate, type Template } from '../../test/customers';
import type { TestApp } from '../../test/harness';
import { sweepCalls } from './calls-lifecycle';

let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];

const dial = (user: string, body: Record<string, unknown>) => t.post('/api/frontend/call/dial', body, as(user));
const mustDial = async (user: string, body: Record<string, unknown>) => {
  const res = await dial(user, body);
  expect(res.json(), JSON.stringify(res.json())).toMatchObject({ code: 0 });
  return res.json().data as DialResponse;
};
const hangup = (user: string, uuid: string) => t.post('/api/frontend/call/hangup', { uuid }, as(user));
/** Ends whatever the staff still has on the line (tests start from a free line). */
const freeLine = async (user: string, uuid: string) => {
  advanceSeconds(3);
  const res = await hangup(user, uuid);
  expect(res.json().code).toBe(0);
  await endedCall(t, uuid);
};
const callList = async (user: string, body: Record<string, unknown> = {}) => {
  const res = await t.post('/api/frontend/call/list', body, as(user));
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as { list: CallRecordRow[]; count: number };
};
const setPhoneEncryp = async (value: 0 | 1) => {
  const info = (await t.get('/api/frontend/customerset/strategyinfo', as('admin'))).json().data;
  const res = await t.post('/api/frontend/customerset/strategyset', { ...info, phoneEncryp: value }, as('admin'));
  expect(res.json().code, res.body).toBe(0);
};

beforeAll(async () => {
  t = await createCallTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'zhaoliu', 'other_admin']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('dial refusals (SPEC §5/§6/§8)', () => {
  it('暂无默认分机 without a default extension', async () => {
    expect((await dial('other_admin', { dstNumber: mobileEnding(1) })).json()).toMatchObject({
      code: 110004,
      msg: '暂无默认分机',
    });
  });

  it('分机未在线 while the extension is not registered', async () => {
    expect((await dial('wangwu', { dstNumber: mobileEnding(1) })).json()).toMatchObject({ code: 110002, msg: '分机未在线' });
    await t.post('/api/frontend/call/sipdefaultregisterStatus', { registerStatus: 3 }, as('wangwu'));
    expect((await dial('wangwu', { dstNumber: mobileEnding(1) })).json()).toMatchObject({ code: 110002 });
  });

  it('请正确输入电话号码 for fewer than 4 or more than 20 digits, unless a task dials', async () => {
    await readyLine(t, as('lisi'));
    for (const dstNumber of ['123', '1'.repeat(21), '', 'abc']) {
      expect((await dial('lisi', { dstNumber })).json(), dstNumber).toMatchObject({ code: 110001, msg: '请正确输入电话号码' });
    }
    // the other edges: 4 and 20 digits are dialled (ending in 7: 空号, so the line frees at once)
    for (const dstNumber of ['1237', `${'1'.repeat(19)}7`]) {
      const ok = await mustDial('lisi', { dstNumber });
      expect(await endedCall(t, ok.uuid), dstNumber).toMatchObject({ calledNumber: dstNumber, hangupCause: 'empty_number' });
    }
    // a task may dial short service numbers
    const call = await mustDial('lisi', { dstNumber: '955', cmStid: 7 });
    await freeLine('lisi', call.uuid);
  });

  it('a device account cannot use the extension path and needs its device', async () => {
    expect((await dial('zhaoliu', { dstNumber: mobileEnding(1) })).json()).toMatchObject({ code: 110019 });
    const res = await t.post('/api/callend/phone/dial', { dstNumber: mobileEnding(1), sourceType: 2 }, as('zhaoliu'));
    expect(res.json()).toMatchObject({ code: 110018 });
    expect((await t.post('/api/callend/phone/dial', { dstNumber: mobileEnding(1) }, as('lisi'))).json()).toMatchObject({
      code: 110019,
    });
  });

  it('分机未绑定设备 for a device account whose extension has no device', async () => {
    const list = (await t.get('/api/frontend/call/siplist?user=8004', as('admin'))).json().data.list;
    const sip = list[0];
    const edit = (imei: string) =>
      t.post(
        '/api/frontend/call/sipedit',
        { cmSipid: sip.cmSipid, user: sip.user, pwd: '', server: sip.server, url: sip.url, inUrl: sip.inUrl, dmType: 4, imei },
        as('admin'),
      );
    expect((await edit('')).json().code).toBe(0);
    const res = await t.post('/api/callend/phone/dial', { dstNumber: mobileEnding(1), sourceType: 2 }, as('zhaoliu'));
    expect(res.json()).toMatchObject({ code: 110003, msg: '分机未绑定设备' });
    expect((await edit(sip.imei)).json().code).toBe(0);
  });
});

describe('dial lock and hang-up (SPEC §9)', () => {
  it('a ringing call locks other dials for 30 s; the same number is 请勿重复拨打', async () => {
    await readyLine(t, as('lisi'));
    const number = mobileEnding(5); // rings until the set-up timeout
    const call = await mustDial('lisi', { dstNumber: number });
    expect(call).toMatchObject({ phone: number, callType: 1, name: '', cmCtid: 0 });
    expect(call.yearMonth).toMatch(/^\d{6}$/);
    expect((await dial('lisi', { dstNumber: number })).json()).toMatchObject({ code: 110007, msg: '请勿重复拨打' });
    expect((await dial('lisi', { dstNumber: mobileEnding(1) })).json()).toMatchObject({
      code: 110006,
      msg: '有其他号码正在通话中...请稍后再试！',
    });
    // Both edges of the 30 s lock (SPEC §9; the literal, so a changed constant fails): still locked
    // at 29 s, released at 31 s and the old call is ended by the system.
    advanceSeconds(29);
    expect((await dial('lisi', { dstNumber: mobileEnding(1) })).json().code).toBe(110006);
    advanceSeconds(2);
    const next = await mustDial('lisi', { dstNumber: mobileEnding(5) });
    const old = await endedCall(t, call.uuid);
    expect(old).toMatchObject({ hangupSide: 3, hangupCause: 'lock_expired', billsec: 0 });
    await freeLine('lisi', next.uuid);
  });

  it('an answered call locks for 60 s after the answer (通话中请勿重复拨打)', async () => {
    await readyLine(t, as('lisi'));
    const call = await mustDial('lisi', { dstNumber: mobileEnding(1) });
    await waitFor(async () => (await callRow(t, call.uuid))?.state === 2, 'answer');
    expect((await dial('lisi', { dstNumber: mobileEnding(2) })).json()).toMatchObject({
      code: 110005,
      msg: '通话中请勿重复拨打',
    });
    // Both edges of the 60 s lock after the answer: locked at 59 s, released at 61 s.
    const answeredAt = (await callRow(t, call.uuid))?.answerAt?.getTime() ?? 0;
    expect(answeredAt).toBeGreaterThan(0);
    const sinceAnswer = () => (Date.now() + clockOffsetMs() - answeredAt) / 1000;
    advanceSeconds(59 - sinceAnswer());
    expect((await dial('lisi', { dstNumber: mobileEnding(2) })).json().code).toBe(110005);
    advanceSeconds(61 - sinceAnswer());
    const next = await mustDial('lisi', { dstNumber: mobileEnding(5) });
    expect(await endedCall(t, call.uuid)).toMatchObject({ hangupSide: 3, hangupCause: 'lock_expired' });
    await freeLine('lisi', next.uuid);
  });

  it('hang-up is refused within 2 s of the dial with {n}s 后进行挂断', async () => {
    await readyLine(t, as('lisi'));
    const call = await mustDial('lisi', { dstNumber: mobileEnding(5) });
    expect((await hangup('lisi', call.uuid)).json()).toMatchObject({ code: 110008, msg: '2s 后进行挂断' });
    advanceSeconds(1.5);
    expect((await hangup('lisi', call.uuid)).json()).toMatchObject({ code: 110008, msg: '1s 后进行挂断' });
    advanceSeconds(0.6);
    expect((await hangup('lisi', call.uuid)).json()).toMatchObject({ code: 0 });
    const row = await endedCall(t, call.uuid);
    expect(row).toMatchObject({ hangupSide: 1, hangupCause: 'cancelled', billsec: 0 });
    // hanging up again is harmless; somebody else's call is not found
    expect((await hangup('lisi', call.uuid)).json().code).toBe(0);
    expect((await hangup('wangwu', call.uuid)).json().code).toBe(110010);
  });

  it('60 s without an answer ends the call: 呼叫超时!', async () => {
    await readyLine(t, as('lisi'));
    const call = await mustDial('lisi', { dstNumber: mobileEnding(5) });
    // Both edges of the 60 s set-up timeout: the sweep leaves it at 59 s and ends it at 61 s.
    advanceSeconds(59);
    await sweepCalls(t.app.calls);
    expect((await callRow(t, call.uuid))?.state).not.toBe(3);
    advanceSeconds(2);
    await sweepCalls(t.app.calls);
    expect(await endedCall(t, call.uuid)).toMatchObject({ hangupSide: 3, hangupCause: 'timeout', billsec: 0 });
  });

  it('the sim outcome table: busy, 空号, 关机, rejected', async () => {
    await readyLine(t, as('lisi'));
    for (const [digit, cause] of [
      [6, 'busy'],
      [7, 'empty_number'],
      [8, 'powered_off'],
      [0, 'rejected'],
    ] as const) {
      const call = await mustDial('lisi', { dstNumber: mobileEnding(digit) });
      expect(await endedCall(t, call.uuid), cause).toMatchObject({ hangupCause: cause, hangupSide: 2, billsec: 0 });
    }
  });
});

describe('a call on a customer', () => {
  it('writes a phone-call follow record, the recording and the customer counters', async () => {
    await readyLine(t, as('lisi'));
    const phone = mobileEnding(4); // answered after 2 s, the customer hangs up at 8 s
    const id = await mustCreate(t, as('lisi'), tpl, '通话客户甲', demoValues({ 手机: phone }));
    const call = await mustDial('lisi', { cmCtid: id, cbTacid: tpl.byName.手机.cbTacid });
    expect(call).toMatchObject({ phone, cmCtid: id, name: '通话客户甲', cmAtid: tpl.cmAtid, encryptPhone: 0 });
    const row = await endedCall(t, call.uuid);
    expect(row).toMatchObject({ billsec: 8, hangupSide: 2, hangupCause: 'normal', customerId: id, calledNumber: phone });
    expect(row.recordFile).toMatch(/^\/api\/files\/.+\.wav$/);

    // the follow record and the counters follow the call's end (a domain event after commit)
    const phoneCalls = async () =>
      (await t.get(`/api/frontend/customer/followlist?cmCtid=${id}&followType=3`, as('lisi'))).json().data as {
        count: number;
        list: FollowRecord[];
      };
    const follows = await waitFor(async () => {
      const data = await phoneCalls();
      return data.count > 0 && data;
    }, 'the phone-call follow record');
    expect(follows.count).toBe(1);
    const f = follows.list[0] as FollowRecord;
    expect(f).toMatchObject({ followType: 3, billsec: 8, recordFile: row.recordFile, record_id: call.uuid, isDelete: 0 });
    const counted = async (n: number) =>
      waitFor(async () => {
        const [r] = await t.database.db.select().from(customers).where(eq(customers.id, id));
        return r.contactNum === n && r;
      }, `contactNum ${n}`);
    const c = await counted(1);
    expect(c).toMatchObject({ lastContactStatus: 1, contactNum: 1 });
    expect(c.lastContactAt?.getTime()).toBe(row.endAt?.getTime());

    // the recording: an 8 kHz mono WAV of the call's length, for the company only
    const wav = await t.app.inject({ method: 'GET', url: row.recordFile, headers: { authorization: as('lisi') } });
    expect(wav.statusCode).toBe(200);
    expect(wav.headers['content-type']).toBe('audio/wav');
    expect(wav.rawPayload.length).toBe(44 + 8 * 8000 * 2);
    expect(wav.rawPayload.subarray(0, 4).toString()).toBe('RIFF');
    expect(wav.rawPayload.readUInt32LE(24)).toBe(8000);
    const foreign = await t.app.inject({ method: 'GET', url: row.recordFile, headers: { authorization: as('other_admin') } });
    expect(foreign.statusCode).toBe(404);

    // an unanswered call: billsec 0, status 2 (未接通), one more contact
    const again = await mustDial('lisi', { cmCtid: id, dstNumber: mobileEnding(7) });
    expect(await endedCall(t, again.uuid)).toMatchObject({ billsec: 0, hangupCause: 'empty_number', recordFile: '' });
    expect(await counted(2)).toMatchObject({ lastContactStatus: 2, contactNum: 2 });
    const all = await waitFor(async () => {
      const data = await phoneCalls();
      return data.count > 1 && data;
    }, 'the second phone-call follow record');
    // (the sped-up sim line stamps calls with their simulated times, so look the record up by call)
    expect(all.list.find((r: FollowRecord) => r.record_id === again.uuid)).toMatchObject({ billsec: 0, recordFile: '' });
  });

  it('a typed number is matched to a visible customer; customers of others stay unknown', async () => {
    await readyLine(t, as('lisi'));
    const phone = mobileEnding(7);
    const mine = await mustCreate(t, as('lisi'), tpl, '通话客户乙', demoValues({ 手机: phone }));
    const call = await mustDial('lisi', { dstNumber: phone });
    expect(call).toMatchObject({ cmCtid: mine, name: '通话客户乙' });
    await endedCall(t, call.uuid);
    const other = mobileEnding(7);
    await mustCreate(t, as('wangwu'), tpl, '王五的客户', demoValues({ 手机: other }));
    const blind = await mustDial('lisi', { dstNumber: other });
    expect(blind).toMatchObject({ cmCtid: 0, name: '' });
    await endedCall(t, blind.uuid);
    // and a customer he may not see cannot be dialled by id
    const wangwus = await mustCreate(t, as('wangwu'), tpl, '王五的客户二');
    expect((await dial('lisi', { cmCtid: wangwus, cbTacid: tpl.byName.手机.cbTacid })).json().code).toBe(106007);
  });

  it('a masked viewer dials by id and never sees the number', async () => {
    await readyLine(t, as('lisi'));
    const phone = mobileEnding(7);
    const id = await mustCreate(t, as('lisi'), tpl, '加密客户', demoValues({ 手机: phone }));
    await setPhoneEncryp(1);
    try {
      const call = await mustDial('lisi', { cmCtid: id, cbTacid: tpl.byName.手机.cbTacid });
      expect(call).toMatchObject({ phone: `${phone.slice(0, 3)}****${phone.slice(-4)}`, encryptPhone: 1 });
      await endedCall(t, call.uuid);
      const mine = await callList('lisi', { cmSid: 0 });
      const row = mine.list.find((r) => r.uuid === call.uuid);
      expect(row).toMatchObject({ dstNumber: `${phone.slice(0, 3)}****${phone.slice(-4)}`, encryptPhone: 1 });
      expect(JSON.stringify(mine)).not.toContain(phone);
      // the super admin sees full numbers
      const full = await callList('admin', { dstNumber: phone });
      expect(full.list[0]).toMatchObject({ uuid: call.uuid, dstNumber: phone, encryptPhone: 0 });
    } finally {
      await setPhoneEncryp(0);
    }
  });
});

describe('blacklist on dial (SPEC §8)', () => {
  it('answers 100011 with the customer id; 100014 for a task call', async () => {
    await readyLine(t, as('lisi'));
    const phone = mobileEnding(1);
    const id = await mustCreate(t, as('lisi'), tpl, '黑名单客户', demoValues({ 手机: phone }));
    const add = await t.post('/api/frontend/black/number/create', { phone, remark: '投诉' }, as('admin'));
    expect(add.json()).toMatchObject({ code: 0 });
    const res = await dial('lisi', { cmCtid: id, cbTacid: tpl.byName.手机.cbTacid });
    expect(res.json()).toMatchObject({ code: 100011, data: { cmCtid: id } });
    expect((await dial('lisi', { dstNumber: phone })).json()).toMatchObject({ code: 100011, data: { cmCtid: id } });
    expect((await dial('lisi', { dstNumber: phone, cmStid: 3 })).json()).toMatchObject({ code: 100014 });
    // another company's blacklist does not apply
    expect((await t.post('/api/frontend/black/number/create', { phone: '13500000001' }, as('other_admin'))).json().code).toBe(0);
    const free = await mustDial('lisi', { dstNumber: '13500000001' });
    await freeLine('lisi', free.uuid);
  });
});

/**
 * lisi's own calls for the list tests (each test makes its own): one answered that the customer
 * ends at 8 s, one the system ends at the set-up timeout, four to 空号.
 */
const makeCalls = async () => {
  await readyLine(t, as('lisi'));
  const answered = await mustDial('lisi', { dstNumber: mobileEnding(4) });
  await endedCall(t, answered.uuid);
  const unanswered = await mustDial('lisi', { dstNumber: mobileEnding(5) });
  advanceSeconds(61);
  await sweepCalls(t.app.calls);
  await endedCall(t, unanswered.uuid);
  for (let i = 0; i < 4; i++) await endedCall(t, (await mustDial('lisi', { dstNumber: mobileEnding(7) })).uuid);
};

describe('call list (/call/record)', () => {
  it('filters by type, side, billsec, number, staff and time', async () => {
    await makeCalls();
    const all = await callList('admin', { limit: 200 });
    expect(all.count).toBeGreaterThan(5);
    const answered = await callList('admin', { startBillsec: 1 });
    expect(answered.list.every((r) => r.billsec >= 1)).toBe(true);
    expect(answered.count).toBeGreaterThan(0);
    const short = await callList('admin', { startBillsec: 1, endBillsec: 8 });
    expect(short.list.every((r) => r.billsec >= 1 && r.billsec <= 8)).toBe(true);
    const bySystem = await callList('admin', { hangupPeople: 3 });
    expect(bySystem.count).toBeGreaterThan(0);
    expect(bySystem.list.every((r) => r.hangupPeople === 3)).toBe(true);
    const outbound = await callList('admin', { callType: 1 });
    expect(outbound.count).toBe(all.count);
    expect((await callList('admin', { callType: 4 })).count).toBe(0);
    const one = all.list[0];
    const byNumber = await callList('admin', { dstNumber: one.dstNumber.slice(-6) });
    expect(byNumber.list.map((r) => r.uuid)).toContain(one.uuid);
    expect((await callList('admin', { cmSipuser: '8001' })).count).toBe(all.count);
    expect((await callList('admin', { cmSipuser: '8002' })).count).toBe(0);
    expect((await callList('admin', { startTime: '2000-01-01', endTime: '2000-01-02' })).count).toBe(0);
    const staffId = one.cmSid;
    expect((await callList('admin', { cmSid: staffId })).count).toBe(all.count);
    expect(one).toMatchObject({ cmSidName: '李四', cmDidName: '销售一部', cmSipuser: '8001', cmgoidCaller: '8001' });
  });

  it('follows the data scope and the company', async () => {
    await makeCalls();
    const lisi = await callList('lisi');
    expect(lisi.count).toBeGreaterThan(0);
    expect((await callList('wangwu')).count).toBe(0);
    expect((await callList('zhangsan')).count).toBe(lisi.count);
    expect((await callList('other_admin')).count).toBe(0);
    expect((await t.post('/api/frontend/call/list', {}, as('zhaoliu'))).json().code).toBe(0);
    // the department filter
    expect((await callList('admin', { cmDid: lisi.list[0].cmDid })).count).toBe(lisi.count);
  });

  it('seats workbench figures', async () => {
    await makeCalls();
    const res = await t.get('/api/frontend/seats/stat', as('lisi'));
    expect(res.json().code).toBe(0);
    const s = res.json().data;
    expect(s.perHour).toHaveLength(24);
    expect(s.today.calls).toBeGreaterThan(0);
    expect(s.today.connected).toBeGreaterThan(0);
    expect(s.today.connectRate).toBeGreaterThan(0);
    expect(s.latest.length).toBeGreaterThan(0);
    expect(s.sipUser).toBe('8001');
  });
});
