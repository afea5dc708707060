import { type AicallTranscript, CALL_MSG_TYPE } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRecords, staff } from '../../db/schema';
import { setClockOffsetMs } from '../../lib/clock';
import { callSocket, readyLine, waitFor } from '../../test/calls';
import { createTestApp, type TestApp } from '../../test/harness';
import * as legs from '../calls/call-legs.repo';
import * as calls from '../calls/calls.repo';
import { aicallTestClient } from './aicall-test-client';
import { botCallTo, botTestGraph, scriptedNumber } from './bot/bot-test-kit';

// 转人工 with the transcript (issue 16) on the sim line: the interested customer (script 0) takes
// the flow's 肯定 branches to its 转人工 node; the agent rung gets the dialogue on his call socket as
// his extension rings and reads it from aicall/transcript (live while the bot call runs, stored
// afterwards); a staff who was not rung and cannot see the call, or another company, cannot.

let t: TestApp;
let tenantId: number;
const tokens: Record<string, string> = {};
const c = aicallTestClient(() => t, tokens);
const P = '/api/frontend/aicall/transcript';
const said = (x: AicallTranscript) => x.turns.map((turn) => `${turn.isAi ? '机' : '客'}:${turn.text}`);

beforeAll(async () => {
  t = await createTestApp({ config: { simSpeed: 25, simTalkSeconds: 3600 } });
  for (const u of ['admin', 'lisi', 'wangwu', 'other_admin']) tokens[u] = await t.login(u);
  await c.loadIds();
  [{ tenantId }] = await t.database.db.select({ tenantId: staff.tenantId }).from(staff).where(eq(staff.id, c.ids.admin));
  await calls.upsertCallSettings(t.app.db, tenantId, { callerNumber: '', callHoursFrom: '00:00', callHoursTo: '24:00' });
  // the flow's prompts synthesized ahead: a cold synthesis takes real seconds while the sim line runs 25×
  for (const text of ['您好张先生，我是小云', '我们有新产品', '按坐席收费', '为您转接']) {
    await t.app.aicallRunner.kit.synthesizer.synthesize(text);
  }
}, 120_000);
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('the transcript on the agent’s screen (转人工)', () => {
  it('reaches the agent rung with his ringing call and stays his to read; others get 116065', async () => {
    await readyLine(t, tokens.lisi);
    const socket = await callSocket(t, tokens.lisi);
    // the test flow routing its second 肯定 to 转人工 (its 结束 node unreached, left out to publish it)
    const full = botTestGraph({ transfer: true });
    const graph = { ...full, nodes: full.nodes.filter((n) => n.key !== 'bye') };
    const flowId = await c.newFlow(true, 'admin', graph);
    const number = scriptedNumber(0);
    const run = botCallTo(t, tenantId, number, graph, { agents: [c.ids.lisi], flowId });
    const agentLeg = await waitFor(
      async () => {
        const [call] = await t.database.db.select().from(callRecords).where(eq(callRecords.calledNumber, number));
        if (!call) return undefined;
        return (await legs.legsOfCall(t.app.db, call.uuid)).find((l) => l.role === 'agent');
      },
      'the agent rung',
      15_000,
    );
    const callUuid = agentLeg.callUuid;
    const expected = [
      '机:您好张先生，我是小云',
      '客:有兴趣',
      '机:我们有新产品',
      '客:多少钱',
      '机:按坐席收费 我们有新产品',
      '客:好的',
      '机:为您转接',
    ];

    // pushed on his socket while his extension rings
    const pushed = (await socket.next((f) => f.msg_type === CALL_MSG_TYPE.aiTranscript, 'the transcript frame'))
      .data as AicallTranscript;
    expect(pushed).toMatchObject({ callUuid, isLive: 1, grade: 'A' });
    expect(pushed.flowName).not.toBe('');
    expect(said(pushed)).toEqual(expected);
    expect(pushed.turns.map((x) => x.node)).toEqual(['开场', '开场', '介绍', '介绍', '介绍', '介绍', '转人工']);
    expect(pushed.turns.filter((x) => !x.isAi).map((x) => x.match)).toEqual(['肯定', '价格', '肯定']);

    // read while it rings: live
    const ringing = (await t.get(`${P}?uuid=${callUuid}`, tokens.lisi)).json();
    expect(ringing.code, ringing.msg).toBe(0);
    expect(ringing.data).toMatchObject({ callUuid, isLive: 1, flowName: pushed.flowName });
    expect(said(ringing.data)).toEqual(expected);
    // a salesman not rung for it (his scope: himself) and another company's admin cannot
    for (const who of ['wangwu', 'other_admin']) {
      const refused = await t.get(`${P}?uuid=${callUuid}`, tokens[who]);
      expect(refused.statusCode, who).toBe(404);
      expect(refused.json().code, who).toBe(116065);
    }
    // the company's admin sees the AI call details: he may read it too
    expect((await t.get(`${P}?uuid=${callUuid}`, tokens.admin)).json().data.turns).toHaveLength(7);

    // he answers: the bot leaves the call, its stored turns answer from now on
    expect((await t.post('/api/frontend/call/answer', { uuid: callUuid }, tokens.lisi)).json().code).toBe(0);
    const { result } = await run;
    expect(result).toMatchObject({ end: 'transfer', transferStaffId: c.ids.lisi });
    const stored = (await t.get(`${P}?uuid=${callUuid}`, tokens.lisi)).json();
    expect(stored.code, stored.msg).toBe(0);
    expect(stored.data).toMatchObject({ callUuid, isLive: 0, grade: 'A', flowName: pushed.flowName });
    expect(said(stored.data)).toEqual(expected);
    expect(stored.data.turns.at(-1)).toMatchObject({ node: '转人工', match: '' });
    expect((await t.get(`${P}?uuid=${callUuid}`, tokens.wangwu)).json().code).toBe(116065);
    await t.post('/api/frontend/call/hangup', { uuid: callUuid }, tokens.lisi);
    socket.ws.close();
  });

  it('a call no bot worked, or a malformed id, is refused', async () => {
    const unknown = (await t.get(`${P}?uuid=00000000-0000-4000-8000-000000000000`, tokens.admin)).json();
    expect(unknown.code).toBe(116065);
    expect((await t.get(`${P}?uuid=${'a'.repeat(64)}`, tokens.admin)).json().code).toBe(116065);
    expect((await t.get(`${P}?uuid=${'a'.repeat(65)}`, tokens.admin)).statusCode).toBe(400);
    expect((await t.get(P, tokens.admin)).statusCode).toBe(400);
  });
});
