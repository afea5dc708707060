import { CALLTASK_STATUS } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiCalls, aireceptionSettings, callRecords, callTaskNumbers, callTasks } from '../../db/schema';
import { setClockOffsetMs } from '../../lib/clock';
import type { SimControlLine } from '../../telephony/sim/sim-control';
import { waitFor } from '../../test/calls';
import { createTestApp, type TestApp } from '../../test/harness';
import { runAiTick } from './aicall-runner';
import { aicallTestClient } from './aicall-test-client';
import { botTestGraph } from './bot/bot-test-kit';

// Speech out of the box (issue 23): with no Debian binary at all (espeak-ng, sox and ffmpeg
// pointed at paths that do not exist) a bot call speaks through the npm espeak-ng (WASM); and
// when speech cannot run, an AI task is not started and an AI接待 number not turned on (116037),
// a running task places no call and the reception takes no call, so no number is used up.

const NO_BINARIES = { espeakBin: '/nonexistent/espeak-ng', ffmpegBin: '/nonexistent/ffmpeg' };
/** An interested scripted customer (sim-script.ts: script 0) whose line answers (outcome 1). */
const interested = () => `139${String(Date.now() % 100000).padStart(5, '0')}01`;

const taskGraph = () => {
  const graph = botTestGraph();
  return { ...graph, nodes: graph.nodes.filter((n) => n.type !== 'transfer') };
};

describe('a bot call with no Debian speech binaries', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const c = aicallTestClient(() => t, tokens);
  beforeAll(async () => {
    // the line's default talk time (SIM_TALK_SECONDS 45): what a fresh install shows
    t = await createTestApp({ config: { simSpeed: 25, tts: { engine: 'wasm', ...NO_BINARIES } } });
    expect(t.app.config.simTalkSeconds).toBe(45);
    tokens.admin = await t.login('admin');
    setClockOffsetMs(Date.UTC(2030, 0, 7, 2, 0, 0) - Date.now());
  }, 120_000);
  afterAll(async () => {
    setClockOffsetMs(0);
    await t.close();
  });

  it('speaks through the npm espeak-ng: the interested customer hears every prompt and ends as A', async () => {
    const kit = t.app.aicallRunner.kit;
    expect(kit.synthesizer).toMatchObject({ provider: 'espeak-wasm', voice: 'cmn', isAvailable: true });
    expect((await c.post('speech', null)).data).toEqual({ isAvailable: true, provider: 'espeak-wasm' });
    // the prompts synthesized ahead (a cold synthesis takes real time while the sim runs 25×)
    for (const text of ['您好客户，我是小云', '我们有新产品', '好的再见', '打扰了', '按坐席收费', '再见']) {
      const r = await kit.synthesizer.synthesize(text);
      expect(r.durationMs).toBeGreaterThan(300);
    }
    const flowId = await c.newFlow(true, 'admin', taskGraph());
    const number = interested();
    const created = await c.create({ flowId, numbers: [number], maxAttempts: 1 });
    expect(created.code, created.msg).toBe(0);
    const id = created.data.cmStid;
    expect((await c.post('start', { cmStid: id })).code).toBe(0);
    const call = await waitFor(
      async () => (await t.database.db.select().from(aiCalls).where(eq(aiCalls.taskId, id)))[0],
      'the AI call is stored',
      60_000,
    );
    await t.app.aicallRunner.state.settled();
    expect(call.end).not.toBe('error');
    expect(call.grade).toBe('A');
    const said = call.turns.filter((turn) => turn.isAi);
    expect(said.length).toBeGreaterThanOrEqual(2);
    const [record] = await t.database.db.select().from(callRecords).where(eq(callRecords.uuid, call.callUuid));
    expect(record.billsec).toBeGreaterThan(0);
  }, 90_000);

  it('on the demo 话术 with the default settings, the interested sim customer stays on to 转人工 (past the 45 s talk cap)', async () => {
    // the starter flow (the demo 话术): 开场白 → 产品介绍 (a price question in between) → 转接顾问
    const flowId = await c.newFlow(true);
    const created = await c.create({ flowId, numbers: [interested()], maxAttempts: 1 });
    expect(created.code, created.msg).toBe(0);
    const id = created.data.cmStid;
    expect((await c.post('start', { cmStid: id })).code).toBe(0);
    const call = await waitFor(
      async () => (await t.database.db.select().from(aiCalls).where(eq(aiCalls.taskId, id)))[0],
      'the AI call is stored',
      60_000,
    );
    await t.app.aicallRunner.state.settled();
    // the bot reached 转接顾问 (no agent is free here: it says so and ends), not the customer's hang-up
    expect(call.turns.some((turn) => turn.isAi && turn.node === 'transfer')).toBe(true);
    expect(call.end).not.toBe('customer_hangup');
    expect(call.duration).toBeGreaterThan(45);
  }, 90_000);
});

describe('when speech cannot run', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const c = aicallTestClient(() => t, tokens);
  const line = () => t.app.calls.line as SimControlLine;
  const P = '/api/frontend/aireception';
  const refusal = {
    code: 116037,
    msg: '语音合成不可用，AI机器人无法说话，暂不能开始AI外呼或启用AI接待，请联系系统管理员检查语音合成配置',
  };
  beforeAll(async () => {
    // SPEECH_TTS=espeak with Debian's binary missing
    t = await createTestApp({ config: { simSpeed: 25, simTalkSeconds: 3600, tts: { engine: 'binary', ...NO_BINARIES } } });
    tokens.admin = await t.login('admin');
  }, 120_000);
  afterAll(async () => {
    setClockOffsetMs(0);
    await t.close();
  });

  it('an AI task is not started nor resumed (116037), and a running one places no call', async () => {
    expect((await c.post('speech', null)).data).toEqual({ isAvailable: false, provider: 'espeak' });
    const flowId = await c.newFlow(true, 'admin', taskGraph());
    const created = await c.create({ flowId, numbers: [interested()] });
    expect(created.code, created.msg).toBe(0);
    const id = created.data.cmStid;
    const started = await c.post('start', { cmStid: id });
    expect(started).toMatchObject({ status: 503, ...refusal });
    const [task] = await t.database.db.select().from(callTasks).where(eq(callTasks.id, id));
    expect(task.status).not.toBe(CALLTASK_STATUS.running);
    expect((await c.post('resume', { cmStid: id })).code).toBe(116037);
    // a task left running from before (started while speech worked): the runner waits
    await t.database.db.update(callTasks).set({ status: CALLTASK_STATUS.running }).where(eq(callTasks.id, id));
    setClockOffsetMs(Date.UTC(2030, 0, 7, 2, 0, 0) - Date.now());
    await runAiTick(t.app.aicallRunner);
    const [n] = await t.database.db.select().from(callTaskNumbers).where(eq(callTaskNumbers.taskId, id));
    expect(n.lastCallUuid ?? '').toBe('');
    expect(await t.database.db.select().from(aiCalls).where(eq(aiCalls.taskId, id))).toEqual([]);
    setClockOffsetMs(0);
  });

  it('an AI接待 number is not turned on, 模拟来电 is refused, and an enabled number takes no call', async () => {
    const flowId = await c.publishedFlowId();
    const number = `4009${String(process.pid % 1000).padStart(3, '0')}7`;
    const body = { number, flowId, from: '00:00', to: '24:00', cmSidInfo: [], isEnabled: 1 };
    expect((await t.post(`${P}/save`, body, tokens.admin)).json()).toMatchObject(refusal);
    // kept switched off, it can be prepared
    const saved = (await t.post(`${P}/save`, { ...body, isEnabled: 0 }, tokens.admin)).json();
    expect(saved.code, saved.msg).toBe(0);
    expect((await t.post(`${P}/simcall`, { id: saved.data.id, callerNumber: '13900001111' }, tokens.admin)).json()).toMatchObject(
      refusal,
    );
    // switched on before speech went away: the call is refused, not answered by a mute bot
    await t.database.db.update(aireceptionSettings).set({ isEnabled: 1 }).where(eq(aireceptionSettings.id, saved.data.id));
    const legId = await line().simulateInbound({ from: '13900001111', to: number });
    await waitFor(async () => !line().isActive(legId), 'the refused call');
    expect(await t.database.db.select().from(aiCalls).where(eq(aiCalls.receptionId, saved.data.id))).toEqual([]);
  });
});
