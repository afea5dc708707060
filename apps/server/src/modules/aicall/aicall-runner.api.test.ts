import {
  type AicallCallRow,
  type AicallInfo,
  type AicallReport,
  type AicallRow,
  CALLTASK_STATUS,
  FOLLOW_TYPE,
  TASK_NUMBER_STATE,
} from '@crm/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiCalls, callTaskNumbers, customerPhones, customers, followRecords } from '../../db/schema';
import { clockOffsetMs, setClockOffsetMs } from '../../lib/clock';
import { callSocket, waitFor } from '../../test/calls';
import { createTestApp, type TestApp } from '../../test/harness';
import { linesOf } from './aicall-tasks.service';
import { aicallTestClient } from './aicall-test-client';
import { botTestGraph } from './bot/bot-test-kit';

// AI tasks on the sim line (issue 16): the runner keeps up to maxLines bot legs, the bot works the
// demo-like flow with each number's scripted customer, unanswered numbers follow the redial rule
// and end as 未接通 (grade E), the A/B customers land in the CRM with a type 4 follow, and the
// report's figures equal the AI call records. Sim numbers: the last digit is the line's outcome
// (1–4 answer, 6 busy, 7 空号, 9 no answer, 0 rejected), the one before it the customer's script
// (sim-script.ts: 0 interested → A, 1 refuses → D, 2 silent → C, 3 keypad → B, 4 off the point → B) on
// the bot's test flow (bot-test-kit.ts, the default grade rules).

let t: TestApp;
const tokens: Record<string, string> = {};
const c = aicallTestClient(() => t, tokens);
let seq = 0;
/** A fresh sim number with this script and outcome digit. */
const simNumber = (script: number, outcome: number) => {
  seq += 1;
  return `139${String(Date.now() % 10000).padStart(4, '0')}${String(seq % 100).padStart(2, '0')}${script}${outcome}`;
};

/** The bot's test flow as a task publishes it (without the 转人工 node its `transfer` variant reaches). */
const taskGraph = () => {
  const graph = botTestGraph();
  return { ...graph, nodes: graph.nodes.filter((n) => n.type !== 'transfer') };
};

beforeAll(async () => {
  // 25× real time: the bot's own processing stays small against the sim customers' timings
  t = await createTestApp({ config: { simSpeed: 25, simTalkSeconds: 3600 } });
  for (const u of ['admin', 'other_admin', 'lisi', 'zhangsan']) tokens[u] = await t.login(u);
  await c.loadIds();
  setClockOffsetMs(Date.UTC(2030, 0, 7, 2, 0, 0) - Date.now());
  // the test flow's prompts synthesized once ahead: a cold synthesis takes real seconds while the
  // sim line's clock runs 25× (the scripted customer would answer a prompt not yet played)
  for (const text of ['您好客户，我是小云', '我们有新产品', '好的再见', '打扰了', '按坐席收费', '再见']) {
    await t.app.aicallRunner.kit.synthesizer.synthesize(text);
  }
}, 120_000);
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

const db = () => t.database.db;
const taskRow = async (id: number) => (await c.post<AicallRow>('detail', null, 'admin', `cmStid=${id}`)).data;
const numbersOf = (id: number) => db().select().from(callTaskNumbers).where(eq(callTaskNumbers.taskId, id));
const callsOf = (id: number) => db().select().from(aiCalls).where(eq(aiCalls.taskId, id));

/** Watches the task's bot legs in use every few ms until stopped; resolves to the most seen at once. */
const watchLines = (tenantId: number, taskId: number) => {
  let most = 0;
  let isOn = true;
  const done = (async () => {
    while (isOn) {
      most = Math.max(most, await linesOf(db(), tenantId, taskId));
      await new Promise((r) => setTimeout(r, 5));
    }
    return most;
  })();
  return {
    stop: async () => {
      isOn = false;
      return done;
    },
  };
};

describe('AI tasks on the sim line', () => {
  it('a task of 20 numbers runs to completion with never more than maxLines bot legs; the results go into the CRM', async () => {
    const flowId = await c.newFlow(true, 'admin', taskGraph());
    const plan = [
      ...[0, 1, 2, 3, 4].flatMap((s) => [simNumber(s, 1), simNumber(s, 2), simNumber(s, 3)]),
      simNumber(0, 6),
      simNumber(0, 7),
      simNumber(0, 9),
      simNumber(0, 0),
      simNumber(1, 6),
    ];
    expect(plan).toHaveLength(20);
    const created = await c.create({ flowId, numbers: plan, maxLines: 3, maxAttempts: 1, assignGrades: ['A', 'B'] });
    expect(created.code, created.msg).toBe(0);
    const id = created.data.cmStid;
    const tenantId = (await numbersOf(id))[0].tenantId;
    const lines = watchLines(tenantId, id);
    expect((await c.post('start', { cmStid: id })).code).toBe(0);
    await waitFor(async () => (await taskRow(id)).status === CALLTASK_STATUS.completed, 'the task completes', 90_000);
    await t.app.aicallRunner.state.settled();
    const most = await lines.stop();
    expect(most).toBeLessThanOrEqual(3);
    expect(most).toBeGreaterThan(1);

    const calls = await callsOf(id);
    expect(calls).toHaveLength(20);
    const byPhone = new Map((await numbersOf(id)).map((n) => [n.id, n]));
    for (const call of calls) {
      const n = byPhone.get(call.numberId);
      const outcome = Number(n?.phone.slice(-1));
      if (outcome >= 1 && outcome <= 4) {
        expect(call.end, n?.phone).not.toBe('not_connected');
        expect(call.grade, n?.phone).toMatch(/^[A-D]$/);
        const script = n?.phone.slice(-2, -1);
        if (script === '0') expect(call.grade, n?.phone).toBe('A');
        // one 不需要: refused, D (the default rules); one 肯定 (key 1, or 可以 after a miss): B
        if (script === '1') expect(call.grade, n?.phone).toBe('D');
        if (script === '2') expect(call.grade, n?.phone).toBe('C');
        expect(n?.state).toBe(TASK_NUMBER_STATE.done);
      } else {
        expect(call).toMatchObject({ end: 'not_connected', grade: 'E', score: 0 });
        expect([TASK_NUMBER_STATE.failed, TASK_NUMBER_STATE.invalid]).toContain(n?.state);
      }
    }

    // A/B: a customer (created for the imported numbers) owned by the creator, with a type 4 follow linked to the call
    const assigned = calls.filter((x) => x.grade === 'A' || x.grade === 'B');
    expect(assigned.length).toBeGreaterThanOrEqual(6);
    for (const call of assigned) {
      const n = byPhone.get(call.numberId);
      expect(n?.customerId, n?.phone).toBeTruthy();
      const [customer] = await db()
        .select()
        .from(customers)
        .where(eq(customers.id, Number(n?.customerId)));
      expect(customer).toMatchObject({ name: `客户${n?.phone.slice(-4)}`, ownerId: c.ids.admin });
      const phones = await db().select().from(customerPhones).where(eq(customerPhones.customerId, customer.id));
      expect(phones.map((p) => p.phone)).toContain(n?.phone);
      const follows = await db()
        .select()
        .from(followRecords)
        .where(and(eq(followRecords.customerId, customer.id), eq(followRecords.followType, FOLLOW_TYPE.ai)));
      expect(follows).toHaveLength(1);
      expect(follows[0]).toMatchObject({ recordId: String(call.id), staffId: c.ids.admin, isDelete: 0 });
      expect(follows[0].remark).toMatch(new RegExp(`^AI外呼：${call.grade}级 · ${call.score}分 · ${call.rounds}轮 · `));
      // the AI call names the customer its CRM step made
      expect(call.customerId, n?.phone).toBe(customer.id);
    }
    // the list and the detail show those customers (not 暂无客户信息)
    const listed = await c.post<{ list: AicallCallRow[] }>('calls', { cmStid: id, limit: 50 });
    for (const call of assigned) {
      const row = listed.data.list.find((r) => r.id === call.id);
      const n = byPhone.get(call.numberId);
      expect(row, n?.phone).toMatchObject({ name: `客户${n?.phone.slice(-4)}`, cmCtid: Number(n?.customerId) });
      const info = await c.post<AicallInfo>('info', null, 'admin', `id=${call.id}`);
      expect(info.data).toMatchObject({ name: `客户${n?.phone.slice(-4)}`, cmCtid: Number(n?.customerId) });
    }
    // C/D and not connected: no customer made, no AI follow
    const others = calls.filter((x) => !assigned.includes(x)).map((x) => byPhone.get(x.numberId));
    expect(others.every((n) => n?.customerId === null)).toBe(true);
    const aiFollows = await db()
      .select()
      .from(followRecords)
      .where(
        and(
          eq(followRecords.followType, FOLLOW_TYPE.ai),
          inArray(
            followRecords.recordId,
            calls.map((x) => String(x.id)),
          ),
        ),
      );
    expect(aiFollows).toHaveLength(assigned.length);

    // the report and the row count the records
    const report = (await c.post<AicallReport>('report', null, 'admin', `cmStid=${id}`)).data;
    const connected = calls.filter((x) => x.end !== 'not_connected');
    const grades = { A: 0, B: 0, C: 0, D: 0, E: 0 } as Record<string, number>;
    for (const x of calls) grades[x.grade] += 1;
    const avg = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10;
    expect(report).toMatchObject({
      cmStid: id,
      called: 20,
      connected: connected.length,
      connectRate: Math.round((connected.length * 1000) / 20) / 10,
      avgDuration: avg(connected.map((x) => x.duration)),
      avgRounds: avg(connected.map((x) => x.rounds)),
      transferred: calls.filter((x) => x.end === 'transfer').length,
      grades,
    });
    expect(report.days).toEqual([{ day: '2030-01-07', called: 20, connected: connected.length, a: grades.A, b: grades.B }]);
    const row = await taskRow(id);
    expect(row).toMatchObject({ grades, linesInUse: 0, totalNum: 20, leftNum: 0, isComplete: 1 });
  }, 120_000);

  it('lines: a task of one line never holds two; busy numbers are redialled per the rule and the last attempt fails', async () => {
    const flowId = await c.publishedFlowId();
    const busy = simNumber(0, 6);
    const plan = [simNumber(1, 1), busy, simNumber(2, 2)];
    const created = await c.create({ flowId, numbers: plan, maxLines: 1, maxAttempts: 2, redialMinutes: 1 });
    const id = created.data.cmStid;
    const tenantId = (await numbersOf(id))[0].tenantId;
    const lines = watchLines(tenantId, id);
    expect((await c.post('start', { cmStid: id })).code).toBe(0);
    const busyRow = async () => (await numbersOf(id)).find((n) => n.phone === busy);
    // the first attempt: not connected, due again after the redial minutes
    await waitFor(
      async () => (await busyRow())?.attempts === 1 && (await busyRow())?.state === TASK_NUMBER_STATE.pending,
      'a redial',
      30_000,
    );
    expect((await busyRow())?.nextAt).toBeTruthy();
    await waitFor(
      async () => (await numbersOf(id)).every((n) => n.phone === busy || n.state === TASK_NUMBER_STATE.done),
      'the answered numbers done',
      60_000,
    );
    expect((await taskRow(id)).status).toBe(CALLTASK_STATUS.running);
    // a minute later (business clock) the number is called again; its last attempt fails and the task completes
    setClockOffsetMs(clockOffsetMs() + 61_000);
    await waitFor(async () => (await taskRow(id)).status === CALLTASK_STATUS.completed, 'the task completes', 30_000);
    await t.app.aicallRunner.state.settled();
    expect(await lines.stop()).toBe(1);
    expect(await busyRow()).toMatchObject({ attempts: 2, state: TASK_NUMBER_STATE.failed });
    const busyId = (await busyRow())?.id;
    const calls = (await callsOf(id)).filter((x) => x.numberId === busyId);
    expect(calls.map((x) => [x.grade, x.end])).toEqual([
      ['E', 'not_connected'],
      ['E', 'not_connected'],
    ]);
  }, 120_000);

  it('assignment: the task’s agents in turn; with no assignment the new customers go to the pool', async () => {
    const flowId = await c.newFlow(true, 'admin', taskGraph());
    /** Runs a task of two interested (A) and two off-the-point (B) customers; the customers its A/B calls made, in call order. */
    const run = async (body: Record<string, unknown>) => {
      const plan = [simNumber(0, 1), simNumber(4, 1), simNumber(0, 2), simNumber(4, 2)];
      const id = (await c.create({ flowId, numbers: plan, maxLines: 1, maxAttempts: 1, ...body })).data.cmStid;
      expect((await c.post('start', { cmStid: id })).code).toBe(0);
      await waitFor(async () => (await taskRow(id)).status === CALLTASK_STATUS.completed, 'the task completes', 60_000);
      await t.app.aicallRunner.state.settled();
      const numbers = new Map((await numbersOf(id)).map((n) => [n.id, n]));
      // one line: the calls end one after another, and their customers are made in that order
      const calls = (await callsOf(id)).sort((a, b) => a.id - b.id);
      const made = [];
      for (const call of calls) {
        const n = numbers.get(call.numberId);
        if (call.grade !== 'A' && call.grade !== 'B') {
          expect(n?.customerId, `${call.grade} makes no customer`).toBeNull();
          continue;
        }
        const [customer] = await db()
          .select()
          .from(customers)
          .where(eq(customers.id, Number(n?.customerId)));
        made.push(customer);
      }
      // the sim scripts give A and B (a loaded machine may cost one of them its timing)
      expect(made.length).toBeGreaterThanOrEqual(2);
      return made;
    };
    // in turn by the task's agents in staff order
    const agents = [c.ids.lisi, c.ids.zhangsan].sort((a, b) => a - b);
    const inTurn = await run({ assignRule: 'agents', cmSidInfo: agents });
    expect(inTurn.map((x) => x?.ownerId)).toEqual(inTurn.map((_, i) => agents[i % 2]));
    const pooled = await run({ assignRule: 'none' });
    for (const x of pooled) expect(x).toMatchObject({ ownerId: null });
    for (const x of pooled) expect(x?.poolId).toBeTruthy();
  }, 120_000);

  it('refusals: a 禁拨 number is skipped without a leg, a blacklisted one is left out at import; progress goes to the creator', async () => {
    const flowId = await c.publishedFlowId();
    const [dnc, black, ok] = [simNumber(1, 1), simNumber(1, 2), simNumber(1, 3)];
    expect((await t.post('/api/frontend/dnc/add', { phone: dnc }, tokens.admin)).json().code).toBe(0);
    expect((await t.post('/api/frontend/black/number/create', { phone: black, remark: '测试' }, tokens.admin)).json().code).toBe(
      0,
    );
    const id = (await c.create({ flowId, numbers: [dnc, black, ok], maxAttempts: 1 })).data.cmStid;
    const numbers = async () => new Map((await numbersOf(id)).map((n) => [n.phone, n]));
    expect((await numbers()).get(black)).toMatchObject({ state: TASK_NUMBER_STATE.skipped, isBlacklisted: true });
    const socket = await callSocket(t, tokens.admin);
    expect((await c.post('start', { cmStid: id })).code).toBe(0);
    await waitFor(async () => (await taskRow(id)).status === CALLTASK_STATUS.completed, 'the task completes', 60_000);
    await t.app.aicallRunner.state.settled();
    const done = await socket.next(
      (f) =>
        f.msg_type === 7 &&
        (f.data as { cmStid: number; isComplete: number }).cmStid === id &&
        (f.data as { isComplete: number }).isComplete === 1,
      'the completed progress frame',
      10_000,
    );
    expect(done.data).toMatchObject({ cmStid: id, totalNum: 3, zcallNum: 1, leftNum: 0, status: CALLTASK_STATUS.completed });
    socket.ws.close();
    const after = await numbers();
    expect(after.get(dnc)).toMatchObject({ state: TASK_NUMBER_STATE.skipped, lastCode: '115001', lastCallUuid: null });
    expect(after.get(ok)?.state).toBe(TASK_NUMBER_STATE.done);
    // one AI call: the number that was dialled
    expect((await callsOf(id)).map((x) => x.numberId)).toEqual([after.get(ok)?.id]);
    expect(await taskRow(id)).toMatchObject({ zcallBnum: 2, zcallNum: 1, leftNum: 0 });
  }, 120_000);

  it('the export writes the task’s AI calls as .xlsx through a job', async () => {
    const flowId = await c.publishedFlowId();
    const id = (await c.create({ flowId, numbers: [simNumber(1, 6)], maxAttempts: 1 })).data.cmStid;
    expect((await c.post('start', { cmStid: id })).code).toBe(0);
    await waitFor(async () => (await taskRow(id)).status === CALLTASK_STATUS.completed, 'the task completes', 30_000);
    await t.app.aicallRunner.state.settled();
    const started = await c.post<{ jobId: string }>('export', { cmStid: id });
    expect(started.code, started.msg).toBe(0);
    const job = await waitFor(
      async () => {
        const res = (await t.get(`/api/frontend/customer/job?jobId=${started.data.jobId}`, tokens.admin)).json().data;
        return res.status === 'done' ? res : undefined;
      },
      'the export job',
      20_000,
    );
    expect(job).toMatchObject({ kind: 'aicall-export', processed: 1 });
    expect(job.fileUrl).toMatch(/./);
    expect(job.fileName).toMatch(/^AI外呼_.*\.xlsx$/);
  }, 60_000);
});
