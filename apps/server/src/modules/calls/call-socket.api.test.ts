import type { CallProgress, DeviceServerFrame, DialResponse, DirectDialResponse, FollowRecord } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockOffsetMs, setClockOffsetMs } from '../../lib/clock';
import {
  advanceSeconds,
  callRow,
  callSocket,
  createCallTestApp,
  endedCall,
  mobileEnding,
  openSocket,
  readyLine,
  waitFor,
} from '../../test/calls';
import { demoValues, fetchTemplate, mustCreate, type Template } from '../../test/customers';
import type { TestApp } from '../../test/harness';

let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];

const progressOf = (f: { data: unknown }) => f.data as CallProgress;

beforeAll(async () => {
  t = await createCallTestApp();
  for (const u of ['admin', 'lisi', 'wangwu', 'zhaoliu']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('call socket /ws/call', () => {
  it('asks for login, refuses a bad token with 100002 and answers heartbeats', async () => {
    const s = await openSocket(t, '/ws/call');
    expect(await s.next((f) => f.msg_type === 0, 'ask login')).toMatchObject({ code: 0, msg_type: 0 });
    s.send({ type: 'heartbeat' });
    expect(await s.next((f) => f.msg_type === 2, 'pong')).toMatchObject({ code: 0 });
    s.send({ type: 'login', token: 'not-a-token' });
    expect(await s.next((f) => f.code === 100002, '100002')).toMatchObject({ msg_type: 3, msg: '登录失效，请重新登录！' });
    await waitFor(async () => s.closeCode() === 4002, 'close 4002');
  });

  it('pushes dial progress (msg_type 4) to the staff: created → ringing → answered → ended', async () => {
    await readyLine(t, as('lisi'));
    const s = await callSocket(t, as('lisi'));
    const other = await callSocket(t, as('wangwu'));
    const phone = mobileEnding(1);
    const id = await mustCreate(t, as('lisi'), tpl, '推送客户', demoValues({ 手机: phone }));
    const res = await t.post('/api/frontend/call/dial', { cmCtid: id, cbTacid: tpl.byName.手机.cbTacid }, as('lisi'));
    const call = res.json().data as DialResponse;
    const mine = (event: string) => (f: { msg_type: number; data: unknown }) =>
      f.msg_type === 4 && progressOf(f).uuid === call.uuid && progressOf(f).event === event;
    expect(progressOf(await s.next(mine('created'), 'created'))).toMatchObject({ callStatus: 2, name: '推送客户', phone });
    expect(progressOf(await s.next(mine('ringing'), 'ringing')).dialTime).not.toBe('');
    const answered = progressOf(await s.next(mine('answered'), 'answered'));
    expect(answered).toMatchObject({ callStatus: 3, cmCtid: id });
    expect(answered.dialingTime).not.toBe('');
    advanceSeconds(12);
    expect(
      (await t.post('/api/frontend/call/hangup', { uuid: call.uuid, yearMonth: call.yearMonth }, as('lisi'))).json().code,
    ).toBe(0);
    const ended = progressOf(await s.next(mine('ended'), 'ended'));
    expect(ended).toMatchObject({ callStatus: 1, hangupPeople: 1, hangupCause: 'normal' });
    expect(ended.billsec).toBeGreaterThanOrEqual(10);
    expect(ended.recordFile).toMatch(/\.wav$/);
    expect(other.frames.some((f) => f.msg_type === 4)).toBe(false);
    s.ws.close();
    other.ws.close();
  });

  it('a second login of the same staff: 请勿多端登录 on the first socket, its call hung up', async () => {
    await readyLine(t, as('lisi'));
    const first = await callSocket(t, as('lisi'));
    const res = await t.post('/api/frontend/call/dial', { dstNumber: mobileEnding(1) }, as('lisi'));
    const call = res.json().data as DialResponse;
    await waitFor(async () => (await callRow(t, call.uuid))?.state === 2, 'answer');
    const second = await callSocket(t, as('lisi'));
    expect(await first.next((f) => f.code === 110011, 'kick')).toMatchObject({ msg_type: 3, msg: '请勿多端登录' });
    await waitFor(async () => first.closeCode() === 4001, 'close 4001');
    expect(await endedCall(t, call.uuid)).toMatchObject({ hangupSide: 3, hangupCause: 'multi_login' });
    // the new socket hears the end of the call and stays open
    await second.next((f) => f.msg_type === 4 && progressOf(f).uuid === call.uuid && progressOf(f).event === 'ended', 'ended');
    expect(second.closeCode()).toBeUndefined();
    second.ws.close();
  });

  it('呼叫超时! reaches the socket when the set-up times out', async () => {
    await readyLine(t, as('lisi'));
    const s = await callSocket(t, as('lisi'));
    const call = (await t.post('/api/frontend/call/dial', { dstNumber: mobileEnding(5) }, as('lisi'))).json()
      .data as DialResponse;
    advanceSeconds(61);
    await import('./calls-lifecycle').then((m) => m.sweepCalls(t.app.calls));
    expect(await s.next((f) => f.code === 110009, 'timeout')).toMatchObject({
      msg_type: 3,
      msg: '呼叫超时!',
      data: { uuid: call.uuid },
    });
    s.ws.close();
  });

  it('dials over the socket; refusals come back as msg_type 3', async () => {
    await readyLine(t, as('lisi'));
    const s = await callSocket(t, as('lisi'));
    s.send({ type: 'dial', dstNumber: '12' });
    expect(await s.next((f) => f.msg_type === 3, 'refusal')).toMatchObject({ code: 110001, msg: '请正确输入电话号码' });
    s.send({ type: 'dial', dstNumber: mobileEnding(7) });
    const created = progressOf(await s.next((f) => f.msg_type === 4 && progressOf(f).event === 'created', 'created'));
    await endedCall(t, created.uuid);
    s.ws.close();
  });
});

describe('incoming calls (sim line)', () => {
  it('rings the agent (msg_type 5) with the customer; accept and hang up write the follow record', async () => {
    await readyLine(t, as('lisi'));
    const phone = mobileEnding(3);
    const id = await mustCreate(t, as('lisi'), tpl, '来电客户', demoValues({ 手机: phone }));
    const s = await callSocket(t, as('lisi'));
    const sips = (await t.get('/api/frontend/call/siplist?user=8001', as('admin'))).json().data.list;
    // 120 s of ringing (the most): on the 200× sim line that is 0.6 s, enough for a cold first test
    const res = await t.post(
      '/api/frontend/call/simincoming',
      { cmSipid: sips[0].cmSipid, callerNumber: phone, ringSeconds: 120 },
      as('admin'),
    );
    expect(res.json()).toMatchObject({ code: 0, data: { cmCtid: id, name: '来电客户' } });
    const { uuid } = res.json().data;
    const ring = progressOf(await s.next((f) => f.msg_type === 5 && progressOf(f).event === 'ringing', 'ringing'));
    expect(ring).toMatchObject({ uuid, callType: 4, name: '来电客户', phone, cmCtid: id, callStatus: 2 });
    // only the agent may answer
    expect((await t.post('/api/frontend/call/answer', { uuid }, as('wangwu'))).json().code).toBe(110010);
    expect((await t.post('/api/frontend/call/answer', { uuid }, as('lisi'))).json().code).toBe(0);
    await s.next((f) => f.msg_type === 5 && progressOf(f).event === 'answered', 'answered');
    advanceSeconds(20);
    expect((await t.post('/api/frontend/call/hangup', { uuid }, as('lisi'))).json().code).toBe(0);
    const row = await endedCall(t, uuid);
    expect(row).toMatchObject({ callType: 4, hangupSide: 1, customerId: id, caller: phone });
    expect(row.billsec).toBeGreaterThanOrEqual(19);
    // the phone record comes from the call.ended event, delivered after the call's commit
    const follow = await waitFor(async () => {
      const follows = (await t.get(`/api/frontend/customer/followlist?cmCtid=${id}&followType=3`, as('lisi'))).json().data;
      return (follows.list as FollowRecord[]).find((f) => f.record_id === uuid);
    }, 'the call’s phone record');
    expect(follow).toMatchObject({ billsec: row.billsec });
    const list = (await t.post('/api/frontend/call/list', { callType: 4 }, as('lisi'))).json().data;
    expect(list.list[0]).toMatchObject({ uuid, callType: 4, cmgoidCaller: phone, customerName: '来电客户' });
    // answering an ended call
    expect((await t.post('/api/frontend/call/answer', { uuid }, as('lisi'))).json().code).toBe(110020);
    s.ws.close();
  });

  it('an unanswered incoming call ends when the caller gives up', async () => {
    await readyLine(t, as('lisi'));
    const sips = (await t.get('/api/frontend/call/siplist?user=8001', as('admin'))).json().data.list;
    const res = await t.post(
      '/api/frontend/call/simincoming',
      { cmSipid: sips[0].cmSipid, callerNumber: mobileEnding(9), ringSeconds: 5 },
      as('admin'),
    );
    expect(await endedCall(t, res.json().data.uuid)).toMatchObject({ billsec: 0, hangupSide: 2, hangupCause: 'no_answer' });
    // an unbound extension cannot ring anybody; lisi may not simulate
    const free = (await t.get('/api/frontend/call/siplist?user=8005', as('admin'))).json().data.list[0];
    expect(
      (
        await t.post('/api/frontend/call/simincoming', { cmSipid: free.cmSipid, callerNumber: mobileEnding(1) }, as('admin'))
      ).json().code,
    ).toBe(110022);
    expect(
      (
        await t.post('/api/frontend/call/simincoming', { cmSipid: free.cmSipid, callerNumber: mobileEnding(1) }, as('lisi'))
      ).json().code,
    ).toBe(100003);
  });
});

describe('device channel /ws/device (merchantType 2)', () => {
  const connectDevice = async (secret?: string) => {
    const sip = (await t.get('/api/frontend/call/siplist?user=8004', as('admin'))).json().data.list[0];
    return openSocket<DeviceServerFrame>(t, `/ws/device?imei=${sip.imei}`, { 'x-device-secret': secret ?? sip.deviceSecret });
  };

  it('refuses a wrong or missing secret', async () => {
    const none = await openSocket<DeviceServerFrame>(t, '/ws/device?imei=860000000000004');
    await waitFor(async () => none.closeCode() === 4003, 'close 4003');
    const d = await connectDevice('wrong');
    await waitFor(async () => d.closeCode() === 4003, 'close 4003');
    expect(d.frames[0]).toMatchObject({ type: 'error' });
  });

  it('receives dial and hang-up commands and reports the call', async () => {
    const d = await connectDevice();
    await d.next((f) => f.type === 'hello', 'hello');
    await waitFor(
      async () => (await t.get('/api/frontend/call/sipdefault', as('zhaoliu'))).json().data.deviceOnline === 1,
      'device online',
    );
    const s = await callSocket(t, as('zhaoliu'));
    const phone = mobileEnding(1);
    const res = await t.post('/api/callend/phone/dial', { dstNumber: phone, sourceType: 2 }, as('zhaoliu'));
    expect(res.json()).toMatchObject({ code: 0, data: { dstNumber: phone, dialTime: '', dmMsg: '' } });
    const call = res.json().data as DirectDialResponse;
    expect(call.id).toBe(call.uuid);
    const cmd = await d.next((f) => f.type === 'dial', 'dial command');
    expect(cmd).toEqual({ type: 'dial', uuid: call.uuid, number: phone });

    const at = () => Math.floor((Date.now() + clockOffsetMs()) / 1000);
    d.send({ type: 'report', uuid: call.uuid, dialTime: at() });
    await s.next((f) => f.msg_type === 4 && progressOf(f).event === 'ringing', 'ringing');
    d.send({ type: 'report', uuid: call.uuid, dialingTime: at() });
    const answered = progressOf(await s.next((f) => f.msg_type === 4 && progressOf(f).event === 'answered', 'answered'));
    expect(answered.dialingTime).not.toBe('');
    // the agent hangs up in the browser: the phone is told to
    expect((await t.post('/api/callend/phone/hangup', { uuid: call.uuid }, as('zhaoliu'))).json().code).toBe(110008);
    advanceSeconds(15);
    expect((await t.post('/api/callend/phone/hangup', { uuid: call.uuid }, as('zhaoliu'))).json().code).toBe(0);
    await d.next((f) => f.type === 'hangup', 'hang-up command');
    d.send({ type: 'report', uuid: call.uuid, dialedTime: at(), hangupPeople: 1 });
    const ended = progressOf(await s.next((f) => f.msg_type === 4 && progressOf(f).event === 'ended', 'ended'));
    expect(ended).toMatchObject({ hangupPeople: 1, hangupCause: 'normal' });
    expect(ended.billsec).toBeGreaterThanOrEqual(14);
    expect(ended.dialedTime).not.toBe('');

    // a failed dial on the phone (dmMsg)
    const failed = (await t.post('/api/callend/phone/dial', { dstNumber: mobileEnding(2) }, as('zhaoliu'))).json().data;
    await d.next((f) => f.type === 'dial' && f.uuid === failed.uuid, 'second dial');
    d.send({ type: 'report', uuid: failed.uuid, dmMsg: '无SIM卡' });
    expect(await endedCall(t, failed.uuid)).toMatchObject({ hangupCause: 'device_error', dmMsg: '无SIM卡', billsec: 0 });

    // device gone: the browser cannot hang up a call that runs on the phone
    const third = (await t.post('/api/callend/phone/dial', { dstNumber: mobileEnding(2) }, as('zhaoliu'))).json().data;
    d.ws.terminate();
    await waitFor(
      async () => (await t.get('/api/frontend/call/sipdefault', as('zhaoliu'))).json().data.deviceOnline === 0,
      'device offline',
    );
    advanceSeconds(3);
    expect((await t.post('/api/callend/phone/hangup', { uuid: third.uuid }, as('zhaoliu'))).json()).toMatchObject({
      code: 110017,
      msg: '请前往手机进行挂断',
    });
    s.ws.close();
  });
});
