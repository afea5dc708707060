import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staff } from '../../../db/schema';
import { setClockOffsetMs } from '../../../lib/clock';
import { samplesOfWav } from '../../../telephony/sim/wav';
import { callRow, endedCall, waitFor } from '../../../test/calls';
import { createTestApp, type TestApp } from '../../../test/harness';
import * as repo from '../../calls/calls.repo';
import { createSpeech } from '../../speech/speech';
import { botCallTo, botTestGraph, scriptedNumber } from './bot-test-kit';

// The bot on the sim line (issue 16): one call per scripted customer (sim-script.ts), the turns,
// the path, the grade and the clips; what the customer says over a prompt he may not interrupt is
// not heard; a call never throws.

let t: TestApp;
let tenantId: number;
let admin: string;

beforeAll(async () => {
  // 25× real time: the bot's own processing stays small against the sim customer's timings
  t = await createTestApp({ config: { simSpeed: 25, simTalkSeconds: 3600 } });
  admin = await t.login('admin');
  const me = (await t.get('/api/frontend/user/info', admin)).json().data.userInfo.cmSid as number;
  [{ tenantId }] = await t.database.db.select({ tenantId: staff.tenantId }).from(staff).where(eq(staff.id, me));
  await repo.upsertCallSettings(t.app.db, tenantId, { callerNumber: '', callHoursFrom: '00:00', callHoursTo: '24:00' });
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

const texts = (turns: { isAi: boolean; text: string }[]) => turns.map((x) => `${x.isAi ? '机' : '客'}:${x.text}`);

describe('a bot call per scripted customer', () => {
  it('interested (script 0): 肯定, a knowledge-base question, 肯定 again → 结束, grade A, clips of every turn', async () => {
    const { result, callUuid } = await botCallTo(t, tenantId, scriptedNumber(0), botTestGraph());
    expect(texts(result.turns)).toEqual([
      '机:您好张先生，我是小云',
      '客:有兴趣',
      '机:我们有新产品',
      '客:多少钱',
      '机:按坐席收费 我们有新产品',
      '客:好的',
      '机:好的再见',
    ]);
    expect(result.turns.filter((x) => !x.isAi).map((x) => x.match)).toEqual(['肯定', '价格', '肯定']);
    expect(result).toMatchObject({ end: 'end', nodeKeys: ['open', 'intro', 'bye'], transferStaffId: null });
    expect(result.counters).toMatchObject({ positive: 2, kb: 1, rounds: 3, refused: 0 });
    expect(result.grade.grade).toBe('A');
    expect(result.talkSeconds).toBeGreaterThan(3);
    for (const turn of result.turns) expect(turn.audio.length, turn.text).toBeGreaterThan(1600);
    // the customer's clip is his utterance (≈ 0.75 s said, with the detector's padding), not the call
    const said = result.turns[1];
    expect(said.endMs - said.atMs).toBeGreaterThan(500);
    expect(said.endMs - said.atMs).toBeLessThan(1200);
    // the bot hung up: the call record ended by the system, with the recording of both sides
    const call = await endedCall(t, callUuid);
    expect(call).toMatchObject({ hangupSide: 3, state: 3 });
    expect(call.recordFile).toMatch(/\.wav$/);
  });

  it('refuses (script 1): 拒绝 → 挂机, grade D (the default rules: refused)', async () => {
    const { result } = await botCallTo(t, tenantId, scriptedNumber(1), botTestGraph());
    expect(texts(result.turns)).toEqual(['机:您好张先生，我是小云', '客:不需要', '机:打扰了']);
    expect(result).toMatchObject({ end: 'hangup', nodeKeys: ['open', 'hangup'] });
    expect(result.counters).toMatchObject({ refused: 1, rounds: 1 });
    expect(result.grade.grade).toBe('D');
  });

  it('silent (script 2): the prompt once more after the wait, then the bot hangs up; grade C', async () => {
    const { result } = await botCallTo(t, tenantId, scriptedNumber(2), botTestGraph());
    expect(texts(result.turns)).toEqual(['机:您好张先生，我是小云', '机:您好张先生，我是小云']);
    expect(result).toMatchObject({ end: 'hangup' });
    expect(result.counters).toMatchObject({ silence: 2, rounds: 2 });
    // each silence waited the node's 8 s on the line's clock
    expect(result.turns[1].atMs - result.turns[0].endMs).toBeGreaterThanOrEqual(8000);
    expect(result.grade.grade).toBe('C');
  });

  it('keypad (script 3): key 1 takes the 肯定 branch', async () => {
    const { result } = await botCallTo(t, tenantId, scriptedNumber(3), botTestGraph());
    expect(texts(result.turns).slice(0, 3)).toEqual(['机:您好张先生，我是小云', '客:按键1', '机:我们有新产品']);
    expect(result.turns[1]).toMatchObject({ match: '肯定' });
    expect(result.turns[1].audio.length).toBe(0);
    expect(result.nodeKeys).toEqual(['open', 'intro']);
    expect(result.end).toBe('hangup');
  });

  it('off the point (script 4): 未识别 repeats the prompt, then 可以 moves on', async () => {
    const { result } = await botCallTo(t, tenantId, scriptedNumber(4), botTestGraph());
    expect(texts(result.turns).slice(0, 5)).toEqual([
      '机:您好张先生，我是小云',
      '客:今天天气不错',
      '机:您好张先生，我是小云',
      '客:可以',
      '机:我们有新产品',
    ]);
    expect(result.turns[1].match).toBe('未识别');
    expect(result.counters).toMatchObject({ no_match: 1, positive: 1 });
  });

  it('the customer hangs up: the call ends as customer_hangup and the bot does not hang up', async () => {
    const number = scriptedNumber(2);
    const run = botCallTo(t, tenantId, number, botTestGraph());
    const call = await waitFor(async () => {
      const rows = await t.database.db.select().from((await import('../../../db/schema')).callRecords);
      return rows.find((r) => r.calledNumber === number && r.state === 2);
    }, 'the call answered');
    const leg = (await import('../../calls/call-legs.repo')).legsOfCall(t.app.db, call.uuid);
    const [bot] = await leg;
    await (t.app.calls.line as import('../../../telephony/sim/sim-control').SimControlLine).simulateHangup(bot.id);
    const { result } = await run;
    expect(result.end).toBe('customer_hangup');
    expect((await callRow(t, call.uuid)).hangupSide).toBe(2);
  });
});

describe('a call that fails', () => {
  it('never throws: a prompt that cannot be made ends the call (end error) and the bot hangs up', async () => {
    const kit = await createSpeech(t.app.config);
    const broken = {
      ...kit,
      promptAudio: {
        resolve: async () => {
          throw new Error('synthesis down');
        },
      },
    };
    const { result, callUuid } = await botCallTo(t, tenantId, scriptedNumber(1), botTestGraph(), { kit: broken });
    expect(result).toMatchObject({ end: 'error', turns: [], transferStaffId: null });
    expect(await endedCall(t, callUuid)).toMatchObject({ hangupSide: 3 });
  });
});

describe('the stored AI call', () => {
  it('keeps the turns and their clips: the detail lists them and each clip plays as WAV', async () => {
    const { id, result } = await botCallTo(t, tenantId, scriptedNumber(1), botTestGraph());
    const info = (await t.get(`/api/frontend/aicall/info?id=${id}`, admin)).json();
    expect(info.code, JSON.stringify(info)).toBe(0);
    expect(info.data).toMatchObject({ grade: 'D', dialogue_num: 3, end: 'hangup', endName: '机器人挂机', rounds: 1 });
    expect(info.data.call.map((c: { isAi: number; callFont: string }) => [c.isAi, c.callFont])).toEqual([
      [1, '您好张先生，我是小云'],
      [0, '不需要'],
      [1, '打扰了'],
    ]);
    for (const [i, c] of (info.data.call as { speech_path: string }[]).entries()) {
      expect(c.speech_path).toBe(`/api/frontend/aicall/clip?id=${id}&turn=${i}`);
      const clip = await t.get(c.speech_path, admin);
      expect(clip.statusCode).toBe(200);
      expect(clip.headers['content-type']).toBe('audio/wav');
      expect(Array.from(samplesOfWav(clip.rawPayload))).toEqual(Array.from(result.turns[i].audio));
    }
    expect((await t.get(`/api/frontend/aicall/clip?id=${id}&turn=3`, admin)).json().code).toBe(116060);
    await waitFor(async () => (await t.get(`/api/frontend/aicall/info?id=${id}`, admin)).json().data.recording, 'the recording');
    const rec = await t.get(`/api/frontend/aicall/recording?id=${id}`, admin);
    expect(rec.statusCode).toBe(200);
    expect(rec.rawPayload.length).toBeGreaterThan(8000);
  });

  it('names each turn’s node as the admin named it in the call’s version; the key when that flow is gone', async () => {
    const aibot = async (path: string, body: unknown) => (await t.post(`/api/frontend/aibot/${path}`, body, admin)).json();
    const name = `节点名称话术${Date.now() % 100000}`;
    const created = await aibot('flow/store', { name });
    const flowId = created.data.id as number;
    // published without the 转人工 node only its `transfer` variant reaches
    const graph = botTestGraph();
    const publishable = { ...graph, nodes: graph.nodes.filter((n) => n.type !== 'transfer') };
    expect((await aibot('flow/update', { id: flowId, name, graph: publishable })).code).toBe(0);
    expect((await aibot('flow/publish', { id: flowId })).data).toEqual({ version: 1 });
    const turnsOf = async (id: number) =>
      ((await t.get(`/api/frontend/aicall/info?id=${id}`, admin)).json().data.call as { node: string; node_name: string }[]).map(
        (x) => [x.node, x.node_name],
      );
    const named = await botCallTo(t, tenantId, scriptedNumber(1), botTestGraph(), { flowId });
    expect(await turnsOf(named.id)).toEqual([
      ['open', '开场'],
      ['open', '开场'],
      ['hangup', '挂机'],
    ]);
    // no such flow (deleted with its versions): the keys
    const orphan = await botCallTo(t, tenantId, scriptedNumber(1), botTestGraph(), { flowId: 999_999 });
    expect(await turnsOf(orphan.id)).toEqual([
      ['open', 'open'],
      ['open', 'open'],
      ['hangup', 'hangup'],
    ]);
  });
});
