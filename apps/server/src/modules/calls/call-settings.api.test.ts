import type { CallRecordRow, TestCallStatus } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { blackNumbers, callRecords, staff } from '../../db/schema';
import { setClockOffsetMs } from '../../lib/clock';
import type { OriginateRequest } from '../../telephony/control';
import type { SimControlLine } from '../../telephony/sim/sim-control';
import { findSpeech } from '../../telephony/tts';
import { endedCall, mobileEnding, readyLine, waitFor } from '../../test/calls';
import { createTestApp, type TestApp } from '../../test/harness';
import { bridgeLegs, hangupLeg, originateCustomerLeg } from './call-control';
import * as legs from './call-legs.repo';
import { systemActor } from './dial-policy';
import { startTestCall } from './test-call';

// 外呼设置 and 线路测试 on the sim line (20× faster: a test leg rings 1.5 s before it gives up).

let t: TestApp;
let admin: string;
let lisi: string;
let tenantId: number;

const INFO = '/api/frontend/callsetting/info';
const SAVE = '/api/frontend/callsetting/save';
const TEST = '/api/frontend/callsetting/testcall';
const ALL_DAY = { from: '00:00', to: '24:00' };

const save = (body: Record<string, unknown>, token = admin) => t.post(SAVE, body, token);
const refusal = async (body: Record<string, unknown>) => {
  const res = await save(body);
  expect(res.statusCode, res.body).toBe(400);
  return res.json().msg as string;
};
const startTest = (number: string, prompt = '您好，这是线路测试') => t.post(TEST, { number, prompt }, admin);
const status = async (uuid: string) => {
  const res = await t.get(`${TEST}?uuid=${uuid}`, admin);
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as TestCallStatus;
};
// 15 s: a long prompt is synthesized first (the WASM espeak-ng took 7 s under CI's load; the call itself is short)
const endedStatus = (uuid: string) =>
  waitFor(
    async () => {
      const s = await status(uuid);
      return s.state === 'ended' && s;
    },
    `test call ${uuid} to end`,
    15_000,
  );
/** HH:mm in Beijing time, `hours` from now */
const beijingHHmm = (hours: number) => {
  const d = new Date(Date.now() + (8 + hours) * 3600_000);
  return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
};

beforeAll(async () => {
  t = await createTestApp({ config: { simSpeed: 20, simTalkSeconds: 3600 } });
  admin = await t.login('admin');
  lisi = await t.login('lisi');
  const [me] = await t.database.db.select().from(staff).where(eq(staff.username, 'admin'));
  tenantId = me.tenantId;
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('外呼设置', () => {
  it('starts from the defaults: no caller number, 08:00–21:00, 3PCC, the compliance defaults, the sim line, speech found', async () => {
    // a new company (the demo company calls all day: its seed says so)
    const res = await t.get(INFO, await t.login('other_admin'));
    expect(res.json()).toMatchObject({
      code: 0,
      data: {
        callerNumber: '',
        callHours: { from: '08:00', to: '21:00' },
        bridgeMode: '3pcc',
        manualObeysHours: true,
        capPer5Min: 3,
        capPerDay: 5,
        dncRetentionMonths: 6,
        line: 'sim',
        isSpeechAvailable: true,
      },
    });
    expect((await t.get(INFO, admin)).json().data.callHours).toEqual({ from: '00:00', to: '24:00' });
  });

  it('checks the caller number at both edges (4–20 digits or empty)', async () => {
    const base = { callHours: ALL_DAY, bridgeMode: '3pcc' };
    expect(await refusal({ ...base, callerNumber: '123' })).toBe('请输入正确的外显号码');
    expect(await refusal({ ...base, callerNumber: '1'.repeat(21) })).toBe('请输入正确的外显号码');
    expect(await refusal({ ...base, callerNumber: '0571-888' })).toBe('请输入正确的外显号码');
    for (const callerNumber of ['1234', '1'.repeat(20), '']) {
      expect((await save({ ...base, callerNumber })).json().code).toBe(0);
    }
    expect((await t.get(INFO, admin)).json().data.callerNumber).toBe('');
  });

  it('checks the hours (HH:mm, from ≠ to; 24:00 only as the end; a window may wrap past midnight)', async () => {
    const base = { callerNumber: '057188886666', bridgeMode: 'forward' };
    expect(await refusal({ ...base, callHours: { from: '8:00', to: '21:00' } })).toBe('请选择外呼时段');
    expect(await refusal({ ...base, callHours: { from: '24:00', to: '08:00' } })).toBe('请选择外呼时段');
    expect(await refusal({ ...base, callHours: { from: '09:60', to: '21:00' } })).toBe('请选择外呼时段');
    expect(await refusal({ ...base })).toBe('请选择外呼时段');
    expect(await refusal({ ...base, callHours: { from: '09:00', to: '09:00' } })).toBe('外呼时段的开始与结束时间不能相同');
    expect(await refusal({ ...base, callHours: ALL_DAY, bridgeMode: 'relay' })).toBe('请选择桥接方式');
    expect((await save({ ...base, callHours: { from: '20:00', to: '02:00' } })).json().code).toBe(0);
    expect((await t.get(INFO, admin)).json().data).toMatchObject({
      callerNumber: '057188886666',
      callHours: { from: '20:00', to: '02:00' },
      bridgeMode: 'forward',
    });
  });

  it('is the admin’s: a salesman without the menu is refused (100003)', async () => {
    for (const res of [
      await t.get(INFO, lisi),
      await save({ callerNumber: '', callHours: ALL_DAY, bridgeMode: '3pcc' }, lisi),
      await t.post(TEST, { number: mobileEnding(1), prompt: '你好' }, lisi),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe(100003);
    }
  });

  it('bridges with the company’s mode when the caller names none', async () => {
    await save({ callerNumber: '', callHours: ALL_DAY, bridgeMode: 'forward' });
    await readyLine(t, lisi);
    const lisiId = (await t.get('/api/frontend/user/info', lisi)).json().data.userInfo.cmSid as number;
    const originate = vi.spyOn(t.app.calls.line, 'originate');
    const { callUuid, legId } = await originateCustomerLeg(t.app.calls, { tenantId, number: mobileEnding(1), ringSeconds: 30 });
    await waitFor(async () => (await legs.findLeg(t.app.db, legId))?.state === 2, 'customer answered');
    const agentLegId = await bridgeLegs(t.app.calls, legId, lisiId);
    const agentCall = originate.mock.calls.map((c) => c[0] as OriginateRequest).find((r) => r.legId === agentLegId);
    expect(agentCall?.bridgeTo).toEqual({ legId, mode: 'forward' });
    originate.mockRestore();
    await hangupLeg(t.app.calls, legId);
    await waitFor(async () => (await legs.legsOfCall(t.app.db, callUuid)).every((l) => l.state === 3), 'legs ended');
  });
});

describe('线路测试', () => {
  it('calls, plays the prompt once answered, hangs up, and lists the call in 通话记录', async () => {
    await save({ callerNumber: '057188886666', callHours: ALL_DAY, bridgeMode: '3pcc' });
    const res = await startTest(mobileEnding(1));
    expect(res.json(), res.body).toMatchObject({ code: 0, msg: '呼叫中' });
    const { uuid } = res.json().data as { uuid: string };
    const s = await endedStatus(uuid);
    expect(s.events.map((e) => e.kind)).toEqual(['created', 'ringing', 'answered', 'playing', 'played', 'ended']);
    expect(s).toMatchObject({ stateName: '已结束', hangupCause: 'normal', hangupCauseName: '正常挂断' });
    expect(s.events.find((e) => e.kind === 'played')?.text).toBe('提示语播放完毕');
    expect(s.events.at(-1)?.text).toBe('已结束（正常挂断）');
    // the record ends after its last leg
    const call = await endedCall(t, uuid);
    expect(call).toMatchObject({ origin: 1, caller: '057188886666', hangupCause: 'normal' });
    // the prompt (≈ 2.7 s) was played into the answered leg before the hang-up
    expect(call.billsec).toBeGreaterThanOrEqual(2);
    expect(call.recordFile).toMatch(/\.wav$/);
    const list = (await t.post('/api/frontend/call/list', {}, admin)).json().data.list as CallRecordRow[];
    expect(list.find((r) => r.uuid === uuid)).toMatchObject({ hangupCauseName: '正常挂断', cmSid: 0 });
  });

  it('shows the keys the far end pressed, and a number that does not answer ends 无人接听', async () => {
    const res = await startTest(mobileEnding(1), '请按任意键，'.repeat(15));
    const { uuid } = res.json().data;
    const leg = await waitFor(async () => {
      const s = await status(uuid);
      return s.events.some((e) => e.kind === 'playing') && s;
    }, 'the prompt playing');
    const legId = (await legs.legsOfCall(t.app.db, leg.uuid))[0].id;
    const line = t.app.calls.line as SimControlLine;
    await line.simulateDigit(legId, '5');
    await line.simulateDigit(legId, '#');
    const ended = await endedStatus(uuid);
    expect(ended.digits).toBe('5#');
    expect(ended.events.find((e) => e.kind === 'digits')?.text).toBe('对方按键 5#');

    const silent = (await startTest(mobileEnding(9))).json().data.uuid as string;
    const s = await endedStatus(silent);
    expect(s.events.map((e) => e.kind)).not.toContain('playing');
    expect(s.hangupCauseName).toBe('无人接听');
  });

  it('runs one test at a time per company', async () => {
    const ringing = (await startTest(mobileEnding(5))).json().data.uuid as string;
    const second = await startTest(mobileEnding(1));
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 110029, msg: '已有线路测试正在进行，请等待其结束后再试' });
    expect((await endedStatus(ringing)).hangupCauseName).toBe('无人接听');
    expect((await startTest(mobileEnding(6))).json().code).toBe(0);
  });

  it('refuses outside the calling hours (110024) and a blacklisted number (100011); a few tests a minute', async () => {
    // 测试二公司: a company of its own, so its own budget of test calls this minute
    const other = await t.login('other_admin');
    const [me] = await t.database.db.select().from(staff).where(eq(staff.username, 'other_admin'));
    const from = beijingHHmm(2);
    const to = beijingHHmm(3);
    await save({ callerNumber: '', callHours: { from, to }, bridgeMode: '3pcc' }, other);
    const test = (number: string, prompt = '您好') => t.post(TEST, { number, prompt }, other);
    expect((await test(mobileEnding(1))).json()).toMatchObject({
      code: 110024,
      msg: `当前不在允许外呼的时段（${from}–${to}），请稍后再拨`,
    });

    await save({ callerNumber: '', callHours: ALL_DAY, bridgeMode: '3pcc' }, other);
    const number = mobileEnding(1);
    await t.database.db
      .insert(blackNumbers)
      .values({ tenantId: me.tenantId, phone: number, staffId: me.id, createdAt: new Date() });
    expect((await test(number)).json()).toMatchObject({ code: 100011, msg: '该号码已在黑名单中，禁止拨打' });
    expect((await test('12')).json()).toMatchObject({ code: 100001, msg: '请正确输入电话号码' });
    expect((await test(mobileEnding(1), '长'.repeat(101))).json()).toMatchObject({ code: 100001, msg: '提示语最多100个字' });
    // refusals leave no test running: the next one is placed at once
    expect((await test(mobileEnding(6))).json().code).toBe(0);
    await test(mobileEnding(6));
    const limited = await test(mobileEnding(6));
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 100006, msg: '请求过于频繁，请稍后再试' });
  });

  it("is refused with a clear message when the chosen synthesizer is missing (Debian's espeak-ng here; no call placed)", async () => {
    const speech = await findSpeech({ engine: 'binary', espeakBin: '/nonexistent/espeak-ng' });
    expect(speech.isAvailable).toBe(false);
    const before = await t.database.db.select().from(callRecords);
    const body = { number: mobileEnding(1), prompt: '你好' };
    await expect(startTest_(speech, body)).rejects.toMatchObject({
      code: 110027,
      message: '语音合成不可用：语音合成程序无法运行，无法进行线路测试',
    });
    expect(await t.database.db.select().from(callRecords)).toHaveLength(before.length);
  });
});

const startTest_ = (speech: Awaited<ReturnType<typeof findSpeech>>, body: { number: string; prompt: string }) =>
  startTestCall(t.app.calls, speech, systemActor(tenantId), body, () => undefined);
