import type { CalltaskNumberRow } from '@crm/contracts';
import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { callRecords, dialRefusals } from '../../db/schema';
import { setClockOffsetMs } from '../../lib/clock';
import {
  closeOpenedSockets,
  createCallTestApp,
  endedCall,
  ensureCallSocket,
  mobileEnding,
  readyLine,
  waitFor,
} from '../../test/calls';
import type { TestApp } from '../../test/harness';
import { saveCallSettings, setBeijing } from '../calltasks/calltasks-test-client';

// A group task's dials refused by the company's calling rules go where a seat task's go
// (calltasks-refusals.ts): a number over its per-number cap waits for the second its cap frees
// (not a fixed minute); refused for the company's hours, the task holds off until they open (one
// refusal, no retry each tick) and the numbers it took with it go back untouched. Sim line: 7 空号.

let t: TestApp;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
const saveSettings = (patch: Record<string, unknown>) => saveCallSettings(t, tokens.admin, patch);
const act = async (what: string, cmStid: number, user = 'admin') => {
  // work mode needs the agent's call socket alive (issue 22)
  if (what === 'work') await ensureCallSocket(t, tokens[user]);
  const res = await t.post(`/api/frontend/groupcall/${what}`, { cmStid }, tokens[user]);
  expect(res.json(), `${what} ${res.body}`).toMatchObject({ code: 0 });
};
/** Each number had its one call: the task may have completed on its own (stop then answers 115032). */
const stopUnlessDone = async (cmStid: number) => {
  const res = await t.post('/api/frontend/groupcall/stop', { cmStid }, tokens.admin);
  expect([0, 115032], res.body).toContain(res.json().code);
};
const createTask = async (over: Record<string, unknown>) => {
  const res = await t.post(
    '/api/frontend/groupcall/create',
    {
      name: '群呼合规',
      cmWeeks: [1, 2, 3, 4, 5, 6, 7],
      cmTimes: [{ start: '00:00', end: '23:59' }],
      cmSidInfo: [ids.lisi],
      maxLines: 3,
      maxAttempts: 1,
      wrapUpSeconds: 0,
      ...over,
    },
    tokens.admin,
  );
  expect(res.json(), res.body).toMatchObject({ code: 0 });
  return res.json().data.cmStid as number;
};
const numbers = async (id: number) =>
  (await t.post('/api/frontend/calltask/numbers', { cmStid: id, limit: 100 }, tokens.admin)).json().data
    .list as CalltaskNumberRow[];
const taskCalls = (id: number) =>
  t.database.db.select().from(callRecords).where(eq(callRecords.taskId, id)).orderBy(asc(callRecords.startAt));
const refusalsOf = (id: number) =>
  t.database.db.select().from(dialRefusals).where(eq(dialRefusals.taskId, id)).orderBy(asc(dialRefusals.id));
const idle = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** the business time a number's nextTime (Beijing 'YYYY-MM-DD HH:mm:ss') names */
const nextTimeOf = (row: CalltaskNumberRow) => new Date(`${row.nextTime.replace(' ', 'T')}+08:00`).getTime();

beforeAll(async () => {
  t = await createCallTestApp();
  for (const u of ['admin', 'lisi', 'wangwu']) tokens[u] = await t.login(u);
  const staff = (await t.get('/api/frontend/staff/list?page=1&limit=100', tokens.admin)).json().data.list as {
    cmSid: number;
    username: string;
  }[];
  for (const s of staff) ids[s.username] = s.cmSid;
});
afterEach(closeOpenedSockets);
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('group-task dials refused by the calling rules', () => {
  it('5-minute cap (115002): the number waits until the second its cap frees, not a minute; the task goes on', async () => {
    setBeijing('10:00:00');
    await saveSettings({ capPer5Min: 1, capPerDay: 5 });
    await readyLine(t, tokens.lisi);
    await readyLine(t, tokens.wangwu);
    const capped = mobileEnding(7);
    const other = mobileEnding(7);
    const first = await t.post('/api/frontend/call/dial', { dstNumber: capped }, tokens.wangwu);
    expect(first.json(), first.body).toMatchObject({ code: 0 });
    const firstCall = await endedCall(t, first.json().data.uuid);
    const id = await createTask({ numbers: [capped, other] });
    await act('start', id);
    await act('work', id, 'lisi');
    // the other number is dialled in the same tick; the capped one goes back, its attempt not counted
    const row = await waitFor(async () => {
      const [n] = await numbers(id);
      return n.lastCode === '115002' && n.state === 0 ? n : undefined;
    }, 'the capped number back with its cap code');
    expect(row.attempts).toBe(0);
    const freeAt = Math.floor((firstCall.startAt.getTime() + 5 * 60_000) / 1000) * 1000 + 1000;
    expect(nextTimeOf(row)).toBe(freeAt);
    await waitFor(async () => ((await taskCalls(id)).length === 1 ? true : undefined), 'the other number dialled');
    expect((await taskCalls(id)).map((c) => c.calledNumber)).toEqual([other]);
    // just before it frees (the business clock runs on: 2 s before, for 1.2 s): not dialled, not refused again
    setClockOffsetMs(freeAt - 2000 - Date.now());
    await idle(1200);
    expect(await taskCalls(id)).toHaveLength(1);
    expect(await refusalsOf(id)).toHaveLength(1);
    // the second it frees: dialled
    setClockOffsetMs(freeAt - Date.now());
    await waitFor(async () => ((await taskCalls(id)).length === 2 ? true : undefined), 'the capped number dialled');
    expect((await taskCalls(id)).map((c) => c.calledNumber)).toEqual([other, capped]);
    expect(await refusalsOf(id)).toHaveLength(1);
    await stopUnlessDone(id);
    await saveSettings({});
  }, 20_000);

  it('company hours (110024): the task holds off until they open, one refusal, the numbers it took go back', async () => {
    setBeijing('10:00:00', 1);
    await saveSettings({ callHours: { from: '08:00', to: '21:00' } });
    await readyLine(t, tokens.lisi);
    const [a, b] = [mobileEnding(7), mobileEnding(7)];
    const id = await createTask({ numbers: [a, b], cmTimes: [{ start: '09:00', end: '21:00' }] });
    await act('start', id);
    // the company's hours narrow while the task runs
    await saveSettings({ callHours: { from: '11:00', to: '21:00' } });
    await act('work', id, 'lisi');
    const [refusal] = await waitFor(async () => {
      const rows = await refusalsOf(id);
      return rows.length > 0 ? rows : undefined;
    }, 'the hours refusal');
    expect(refusal).toMatchObject({ code: 110024, phone: a });
    await idle(2000);
    expect(await refusalsOf(id)).toHaveLength(1);
    // both numbers back as they were: due at once, no attempt counted
    for (const n of await numbers(id)) expect(n).toMatchObject({ state: 0, attempts: 0 });
    // just before the hours open (the business clock runs on: 10:59:58 for 1.2 s): still holding
    setBeijing('10:59:58', 1);
    await idle(1200);
    expect(await taskCalls(id)).toHaveLength(0);
    expect(await refusalsOf(id)).toHaveLength(1);
    // the hours open: both numbers are dialled, no further refusal
    setBeijing('11:00:00', 1);
    await waitFor(async () => ((await taskCalls(id)).length === 2 ? true : undefined), 'both numbers dialled');
    expect((await taskCalls(id)).map((c) => c.calledNumber).sort()).toEqual([a, b].sort());
    expect(await refusalsOf(id)).toHaveLength(1);
    await stopUnlessDone(id);
    await saveSettings({});
  }, 20_000);
});
