import type { CalltaskDetail, CalltaskNumberRow } from '@crm/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callRecords, customers, poolEntries } from '../../db/schema';
import { clockOffsetMs, setClockOffsetMs } from '../../lib/clock';
import {
  advanceSeconds,
  callSocket,
  closeOpenedSockets,
  createCallTestApp,
  ensureCallSocket,
  mobileEnding,
  readyLine,
  waitFor,
} from '../../test/calls';
import { demoValues, fetchTemplate, mustCreate, type Template } from '../../test/customers';
import type { TestApp } from '../../test/harness';
import { setBeijing } from './calltasks-test-client';

// Power dialing of seat tasks (issue 15) on the sim line: the next call starts by itself after the
// wrap-up, windows, redial, the last attempt's pool, 空号, 100011 / 100014, counters equal to the
// call records, msg_type 7 progress. The sim line's outcome is the number's last digit
// (4 answered and hung up by the customer at once, 6 busy, 7 空号).

let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];
const ids: Record<string, number> = {};
let poolId = 0;
let reasonId = 0;

const ALL_DAY = { cmWeeks: [1, 2, 3, 4, 5, 6, 7], cmTimes: [{ start: '00:00', end: '23:59' }] };
const mustCreateTask = async (over: Record<string, unknown>) => {
  const res = await t.post('/api/frontend/calltask/create', { name: '外呼任务', ...ALL_DAY, ...over }, as('admin'));
  expect(res.json(), res.body).toMatchObject({ code: 0 });
  return res.json().data.cmStid as number;
};
const act = async (what: string, cmStid: number, user = 'admin', extra: Record<string, unknown> = {}) => {
  // work mode needs the agent's call socket alive (issue 22)
  if (what === 'work') await ensureCallSocket(t, as(user));
  const res = await t.post(`/api/frontend/calltask/${what}`, { cmStid, ...extra }, as(user));
  expect(res.json(), `${what} ${res.body}`).toMatchObject({ code: 0 });
  return res.json().data;
};
const detail = async (id: number) =>
  (await t.get(`/api/frontend/calltask/detail?cmStid=${id}`, as('admin'))).json().data as CalltaskDetail;
const numbers = async (id: number) =>
  (await t.post('/api/frontend/calltask/numbers', { cmStid: id, limit: 100 }, as('admin'))).json().data
    .list as CalltaskNumberRow[];
const taskCalls = (id: number) =>
  t.database.db
    .select()
    .from(callRecords)
    .where(and(eq(callRecords.taskId, id), sql`${callRecords.tenantId} = (select tenant_id from call_tasks where id = ${id})`))
    .orderBy(callRecords.startAt);
/** Waits until the task has `n` calls and all of them ended (their numbers settled). */
const callsEnded = (id: number, n: number) =>
  waitFor(
    async () => {
      const calls = await taskCalls(id);
      const rows = await numbers(id);
      return calls.length === n && calls.every((c) => c.state === 3) && rows.every((r) => r.state !== 1) ? calls : undefined;
    },
    `${n} calls of task ${id} ended and settled`,
    6000,
  ).catch(async (err) => {
    const calls = await taskCalls(id);
    throw new Error(
      `${err.message}: ${JSON.stringify({ calls: calls.map((c) => [c.calledNumber, c.state, c.hangupCause]), numbers: await numbers(id) })}`,
    );
  });
const idle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The counters must equal the call records of the task. */
const expectCountersMatchRecords = async (id: number) => {
  const d = await detail(id);
  const calls = await taskCalls(id);
  expect(d.zcallNum).toBe(calls.length);
  expect(d.zcallCnum).toBe(calls.filter((c) => c.answerAt !== null).length);
  expect(d.zcallWnum).toBe(calls.filter((c) => c.answerAt === null && c.state === 3).length);
  expect(d.zcallBillsec).toBe(calls.reduce((s, c) => s + c.billsec, 0));
  const perAgent = d.agents.reduce((s, a) => s + a.zcallNum, 0);
  expect(perAgent).toBe(calls.length);
  return d;
};

beforeAll(async () => {
  t = await createCallTestApp();
  for (const u of ['admin', 'lisi', 'wangwu']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
  const staff = (await t.get('/api/frontend/staff/list?page=1&limit=100', as('admin'))).json().data.list as {
    cmSid: number;
    username: string;
  }[];
  for (const s of staff) ids[s.username] = s.cmSid;
  const rules = {
    recycle: { isOn: 0, noFollowDays: 0, noDealDays: 0, logic: 'or', cmNids: [], cmClids: [] },
    claim: { dailyMax: 0, cooldownDays: 0 },
  };
  const pool = await t.post('/api/frontend/customerset/highseasdcreate', { name: '任务公海', useRules: rules }, as('admin'));
  poolId = pool.json().data.cmHsid;
  const reason = await t.post('/api/frontend/customerset/discardcreate', { name: '多次未接通', sortNum: 9 }, as('admin'));
  reasonId = reason.json().data.cmCdid;
  setBeijing('10:00:00');
});
afterEach(closeOpenedSockets);
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('power dialing on the sim line', () => {
  it('an agent works a 5-number task: next call after the wrap-up, redial, last attempt to the pool, 空号, counters', async () => {
    await readyLine(t, as('lisi'));
    const busy = mobileEnding(6);
    const busyCustomer = await mustCreate(t, as('lisi'), tpl, '占线客户', demoValues({ 手机: busy }));
    const list = [mobileEnding(4), busy, mobileEnding(7), mobileEnding(4), mobileEnding(4)];
    const id = await mustCreateTask({
      numbers: list,
      cmSidInfo: [ids.lisi],
      wrapUpSeconds: 5,
      maxAttempts: 2,
      redialMinutes: 2,
      failPoolId: poolId,
      failReasonId: reasonId,
    });
    const socket = await callSocket(t, as('lisi'));
    await act('start', id);
    expect(await act('work', id, 'lisi')).toEqual({ isDialled: 1 });
    await callsEnded(id, 1);
    // the wrap-up holds the next call
    await idle(1500);
    expect(await taskCalls(id)).toHaveLength(1);
    // the sim line's customer talks 8 s of business time: the wrap-up counts from the call's end
    for (let n = 2; n <= 5; n++) {
      advanceSeconds(15);
      await callsEnded(id, n);
    }
    const calls = await taskCalls(id);
    expect(calls.map((c) => c.calledNumber)).toEqual(list);
    let rows = await numbers(id);
    expect(rows.map((r) => r.state)).toEqual([2, 0, 5, 2, 2]);
    expect(rows[1]).toMatchObject({ attempts: 1, lastCode: 'busy', cmCtid: busyCustomer });
    // the busy number is due again two minutes after its call ended, not before
    advanceSeconds(5);
    await idle(1500);
    expect(await taskCalls(id)).toHaveLength(5);
    advanceSeconds(75);
    await callsEnded(id, 6);
    rows = await numbers(id);
    expect(rows[1]).toMatchObject({ state: 3, attempts: 2 });
    // after the last attempt its customer is in the task's pool with the reason
    const [c] = await t.database.db.select().from(customers).where(eq(customers.id, busyCustomer));
    expect(c).toMatchObject({ ownerId: null, poolId });
    const [entry] = await t.database.db.select().from(poolEntries).where(eq(poolEntries.customerId, busyCustomer));
    expect(entry.reason).toBe('多次未接通');
    const d = await expectCountersMatchRecords(id);
    expect(d).toMatchObject({ totalNum: 5, zcallNum: 6, zcallCnum: 3, zcallWnum: 3, isComplete: 1, status: 4, leftNum: 0 });
    expect(d.agents[0]).toMatchObject({ cmSid: ids.lisi, zcallNum: 6, isWorking: 0 });
    // progress went to the agent over the socket
    const frame = await socket.next(
      (f) => f.msg_type === 7 && (f.data as { cmStid: number; isComplete: number }).isComplete === 1,
      'task progress',
    );
    expect(frame.data).toMatchObject({ cmStid: id, zcallNum: 6, zcallCnum: 3, totalNum: 5 });
    socket.ws.close();
  });

  it('outside the task window no number is dialled; the clock moving into it starts the calls', async () => {
    await readyLine(t, as('wangwu'));
    const before = clockOffsetMs();
    setBeijing('08:59:30');
    try {
      const id = await mustCreateTask({
        numbers: [mobileEnding(4)],
        cmSidInfo: [ids.wangwu],
        cmTimes: [{ start: '09:00', end: '12:00' }],
      });
      await act('start', id);
      expect(await act('work', id, 'wangwu')).toEqual({ isDialled: 0 });
      await idle(1500);
      expect(await taskCalls(id)).toHaveLength(0);
      advanceSeconds(30);
      await callsEnded(id, 1);
      expect((await detail(id)).isComplete).toBe(1);
    } finally {
      setClockOffsetMs(before);
    }
  });

  it('the agent outcome 空号/停机 marks the number; 拒绝 ends its redials', async () => {
    await readyLine(t, as('wangwu'));
    const id = await mustCreateTask({
      numbers: [mobileEnding(6), mobileEnding(6)],
      cmSidInfo: [ids.wangwu],
      wrapUpSeconds: 600,
      maxAttempts: 3,
    });
    await act('start', id);
    await act('work', id, 'wangwu');
    const [first] = await callsEnded(id, 1);
    await act('outcome', id, 'wangwu', { uuid: first.uuid, outcome: 3 });
    expect((await numbers(id))[0]).toMatchObject({ state: 5, outcome: 3, outcomeName: '空号/停机' });
    advanceSeconds(600);
    const [, second] = await callsEnded(id, 2);
    expect((await numbers(id))[1]).toMatchObject({ state: 0, attempts: 1 });
    await act('outcome', id, 'wangwu', { uuid: second.uuid, outcome: 2 });
    expect((await numbers(id))[1]).toMatchObject({ state: 2, outcome: 2 });
    const d = await expectCountersMatchRecords(id);
    expect(d).toMatchObject({ isComplete: 1, zcallNum: 2 });
    // the refusal is recorded for the 禁拨 list
    const events = await t.database.db.execute(sql`select payload from domain_events where type = 'call.task.refused'`);
    const rows = (events as unknown as { rows: { payload: { taskId: number } }[] }).rows ?? events;
    expect(JSON.stringify(rows)).toContain(`"taskId":${id}`);
  });
});

describe('numbers without a customer (customerInfoState)', () => {
  it('1: a number the agent reached becomes his customer; an unreached one and a task with 0 stay without', async () => {
    await readyLine(t, as('lisi'));
    const reached = mobileEnding(4);
    const adopting = await mustCreateTask({
      numbers: [reached, mobileEnding(7)],
      cmSidInfo: [ids.lisi],
      wrapUpSeconds: 0,
      customerInfoState: 1,
    });
    await act('start', adopting);
    await act('work', adopting, 'lisi');
    await callsEnded(adopting, 1);
    // the sim customer talks 8 s of business time: the next call follows the call's end
    advanceSeconds(15);
    await callsEnded(adopting, 2);
    const rows = await waitFor(async () => {
      const r = await numbers(adopting);
      return r[0].cmCtid > 0 ? r : undefined;
    }, 'the reached number adopted');
    expect(rows[1].cmCtid).toBe(0);
    const [c] = await t.database.db.select().from(customers).where(eq(customers.id, rows[0].cmCtid));
    expect(c).toMatchObject({ ownerId: ids.lisi, name: reached });
    const plain = await mustCreateTask({ numbers: [mobileEnding(4)], cmSidInfo: [ids.lisi], wrapUpSeconds: 0 });
    await act('start', plain);
    await act('work', plain, 'lisi');
    await callsEnded(plain, 1);
    await idle(300);
    expect((await numbers(plain))[0].cmCtid).toBe(0);
  });
});

describe('blacklist in a task (SPEC §8)', () => {
  it('100011 (the task filters the blacklist): the customer goes to the pool with reason 黑名单; 100014 skips; import filter', async () => {
    await readyLine(t, as('lisi'));
    const black = mobileEnding(4);
    const blackCustomer = await mustCreate(t, as('lisi'), tpl, '黑名单任务客户', demoValues({ 手机: black }));
    const late = mobileEnding(4);
    const early = mobileEnding(4);
    const next = mobileEnding(4);
    expect((await t.post('/api/frontend/black/number/create', { phone: early }, as('admin'))).json().code).toBe(0);
    const filtering = await mustCreateTask({
      numbers: [early, black, next],
      cmSidInfo: [ids.lisi],
      wrapUpSeconds: 0,
      failPoolId: poolId,
    });
    const releasing = await mustCreateTask({
      numbers: [late, mobileEnding(4)],
      cmSidInfo: [ids.lisi],
      wrapUpSeconds: 0,
      blackState: 0,
    });
    // blacklisted at import: left out and counted
    expect((await numbers(filtering))[0]).toMatchObject({ state: 4 });
    for (const phone of [black, late]) {
      expect((await t.post('/api/frontend/black/number/create', { phone }, as('admin'))).json().code).toBe(0);
    }
    await act('start', filtering);
    await act('work', filtering, 'lisi');
    await callsEnded(filtering, 1);
    const calls = await taskCalls(filtering);
    expect(calls.map((c) => c.calledNumber)).toEqual([next]);
    expect((await numbers(filtering)).map((r) => r.state)).toEqual([4, 4, 2]);
    const [c] = await t.database.db.select().from(customers).where(eq(customers.id, blackCustomer));
    expect(c).toMatchObject({ ownerId: null, poolId });
    const [entry] = await t.database.db.select().from(poolEntries).where(eq(poolEntries.customerId, blackCustomer));
    expect(entry.reason).toBe('黑名单');
    expect(await expectCountersMatchRecords(filtering)).toMatchObject({ zcallBnum: 2, zcallNum: 1, isComplete: 1 });

    await act('start', releasing);
    await act('work', releasing, 'lisi');
    await callsEnded(releasing, 1);
    const rows = await numbers(releasing);
    expect(rows.map((r) => r.state)).toEqual([4, 2]);
    expect(rows[0].lastCode).toBe('100014');
    expect(await expectCountersMatchRecords(releasing)).toMatchObject({ zcallBnum: 1, zcallNum: 1 });
  });
});
