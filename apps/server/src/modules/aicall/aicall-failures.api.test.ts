import {
  type AicallCallRow,
  type AicallReport,
  type AicallRow,
  CALL_TYPE,
  CALLTASK_STATUS,
  type CallRecordRow,
  HANGUP_CAUSE,
  HANGUP_SIDE,
} from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTaskNumbers } from '../../db/schema';
import { setClockOffsetMs } from '../../lib/clock';
import type { SimControlLine } from '../../telephony/sim/sim-control';
import { waitFor } from '../../test/calls';
import { createTestApp, type TestApp } from '../../test/harness';
import * as legs from '../calls/call-legs.repo';
import type { SpeechKit } from '../speech/speech';
import { aicallTestClient } from './aicall-test-client';
import { botTestGraph, scriptedNumber } from './bot/bot-test-kit';

// Issue 22 ("Also"): an AI call that fails for a system reason (the bot cannot speak, the line
// fails) is stored as 系统异常 (end 'error'): no grade, no score, nothing in the CRM, neither
// connected nor in the grade split (counted apart: grades.failed), and its call record says
// 系统异常. An AI接待 call is listed in 通话记录 as the inbound call it is: the caller as the number,
// the reception number as the callee, AI接待 on it, and the bot's hang-up as its end.

let t: TestApp;
const tokens: Record<string, string> = {};
const c = aicallTestClient(() => t, tokens);
const line = () => t.app.calls.line as SimControlLine;
let seq = 0;
/** A fresh sim number with this script and outcome digit (1: answered). */
const simNumber = (script: number, outcome: number) => {
  seq += 1;
  return `137${String(Date.now() % 10000).padStart(4, '0')}${String(seq % 100).padStart(2, '0')}${script}${outcome}`;
};
const ALL_DAY = { cmWeeks: [1, 2, 3, 4, 5, 6, 7], cmTimes: [{ start: '00:00', end: '23:59' }] };
const taskGraph = () => {
  const graph = botTestGraph();
  return { ...graph, nodes: graph.nodes.filter((n) => n.type !== 'transfer') };
};
const callRecordsOf = async (body: Record<string, unknown>) =>
  (await t.post('/api/frontend/call/list', { limit: 100, ...body }, tokens.admin)).json().data.list as CallRecordRow[];

beforeAll(async () => {
  t = await createTestApp({ config: { simSpeed: 25, simTalkSeconds: 3600 } });
  tokens.admin = await t.login('admin');
  await c.loadIds();
  // Monday 10:00 Beijing
  setClockOffsetMs(Date.UTC(2030, 0, 7, 2, 0, 0) - Date.now());
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

/** Runs an AI task of these numbers (every grade goes into the CRM) to completion. */
const runTask = async (numbers: string[]) => {
  const flowId = await c.newFlow(true, 'admin', taskGraph());
  const created = await c.create({ ...ALL_DAY, flowId, numbers, maxAttempts: 1, assignGrades: ['A', 'B', 'C', 'D'] });
  expect(created.code, created.msg).toBe(0);
  const id = created.data.cmStid;
  expect((await c.post('start', { cmStid: id })).code).toBe(0);
  await waitFor(
    async () => (await c.post<AicallRow>('detail', null, 'admin', `cmStid=${id}`)).data.status === CALLTASK_STATUS.completed,
    'the task completes',
    30_000,
  );
  await t.app.aicallRunner.state.settled();
  return id;
};

describe('an AI call that fails for a system reason', () => {
  it('the bot cannot speak: 系统异常, no grade, no customer, counted apart in the report and the task’s split', async () => {
    const kit = t.app.aicallRunner.kit as SpeechKit;
    const { promptAudio } = kit;
    // test double of the speech service: every prompt fails to be made
    kit.promptAudio = {
      ...promptAudio,
      resolve: async () => {
        throw new Error('speech service down (test double)');
      },
    };
    const failing = simNumber(1, 1);
    let id = 0;
    try {
      id = await runTask([failing]);
    } finally {
      kit.promptAudio = promptAudio;
    }
    const [row] = (await c.post<{ list: AicallCallRow[] }>('calls', { cmStid: id })).data.list;
    expect(row).toMatchObject({ phone: failing, end: 'error', endName: '系统异常', grade: '', score: 0 });
    // no D 无意向 customer was made of it (the task puts every grade into the CRM)
    const [n] = await t.database.db.select().from(callTaskNumbers).where(eq(callTaskNumbers.taskId, id));
    expect(n.customerId).toBeNull();
    const report = (await c.post<AicallReport>('report', null, 'admin', `cmStid=${id}`)).data;
    expect(report).toMatchObject({ called: 1, connected: 0, connectRate: 0 });
    expect(report.grades).toEqual({ A: 0, B: 0, C: 0, D: 0, E: 0, failed: 1 });
    expect((await c.post<AicallRow>('detail', null, 'admin', `cmStid=${id}`)).data.grades).toMatchObject({ D: 0, failed: 1 });
    // a grade filter does not find it; the end filter does
    expect((await c.post<{ count: number }>('calls', { cmStid: id, grade: 'D' })).data.count).toBe(0);
    expect((await c.post<{ count: number }>('calls', { cmStid: id, callEnd: 'error' })).data.count).toBe(1);
    // 通话记录: the system ended it, for a system failure
    const [record] = await callRecordsOf({ cmStid: id });
    expect(record).toMatchObject({
      hangupPeople: HANGUP_SIDE.system,
      hangupCause: HANGUP_CAUSE.systemError,
      hangupCauseName: '系统异常',
      cmSidName: '系统外呼',
    });
  }, 60_000);

  it('the line fails to place the leg: 系统异常, not 未接通 (E); a call the bot ends is AI挂机 in 通话记录', async () => {
    const sim = line();
    const { originate } = sim;
    const failing = simNumber(1, 1);
    // test double of the telephony line: this number's leg cannot be placed
    sim.originate = async (req) => {
      if (req.target.kind === 'number' && req.target.number === failing) throw new Error('line down (test double)');
      return originate(req);
    };
    let id = 0;
    const reached = simNumber(1, 1);
    try {
      id = await runTask([failing, reached]);
    } finally {
      sim.originate = originate;
    }
    const rows = (await c.post<{ list: AicallCallRow[] }>('calls', { cmStid: id })).data.list;
    expect(rows.find((r) => r.phone === failing)).toMatchObject({ end: 'error', grade: '', score: 0 });
    // the scripted customer 1 refuses: the bot says goodbye and hangs up, graded D
    expect(rows.find((r) => r.phone === reached)).toMatchObject({ end: 'hangup', grade: 'D' });
    const report = (await c.post<AicallReport>('report', null, 'admin', `cmStid=${id}`)).data;
    expect(report).toMatchObject({ called: 2, connected: 1 });
    expect(report.grades).toMatchObject({ D: 1, E: 0, failed: 1 });
    const records = await callRecordsOf({ cmStid: id });
    const byNumber = new Map(records.map((r) => [r.dstNumber, r]));
    expect(byNumber.get(reached)).toMatchObject({ hangupPeople: HANGUP_SIDE.system, hangupCauseName: 'AI挂机' });
    expect(byNumber.get(failing)).toMatchObject({ hangupPeople: HANGUP_SIDE.system, hangupCauseName: '无法接通' });
  }, 60_000);
});

describe('an AI接待 call in 通话记录', () => {
  it('is an inbound call: the caller as the number, the reception number as the callee, AI接待 on it, the bot’s hang-up as its end', async () => {
    const number = `4006${String(process.pid % 1000).padStart(3, '0')}1`;
    const flowId = await c.newFlow(true, 'admin', taskGraph());
    const saved = await t.post(
      '/api/frontend/aireception/save',
      { number, flowId, from: '00:00', to: '24:00', cmSidInfo: [], isEnabled: 1 },
      tokens.admin,
    );
    expect(saved.json().code, saved.body).toBe(0);
    // the scripted caller 1 refuses: the bot says goodbye and hangs up
    const caller = scriptedNumber(1);
    const legId = await line().simulateInbound({ from: caller, to: number });
    await waitFor(async () => (await legs.findLeg(t.app.db, legId))?.state === 3, 'the reception call ended', 20_000);
    await t.app.aireception.settled();
    const [record] = await callRecordsOf({ dstNumber: caller });
    expect(record).toMatchObject({
      callType: CALL_TYPE.inbound,
      cmgoidCaller: caller,
      dstNumber: caller,
      cmSipuser: number,
      cmSid: 0,
      cmSidName: 'AI接待',
      hangupPeople: HANGUP_SIDE.system,
      hangupCause: HANGUP_CAUSE.botHangup,
      hangupCauseName: 'AI挂机',
    });
    expect(record.answerTime).not.toBe('');
  }, 60_000);
});
