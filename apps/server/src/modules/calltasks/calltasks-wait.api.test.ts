import type { CalltaskRow } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTaskNumbers } from '../../db/schema';
import { setClockOffsetMs } from '../../lib/clock';
import { createTestApp, type TestApp } from '../../test/harness';
import { saveCallSettings, setBeijing as setBeijingAt } from './calltasks-test-client';

// Tasks say why they wait and when they dial next (issue 23): the rows of 坐席任务 (and 我的任务 on
// the seats workbench) and 人工群呼 carry the server's wait, from the task's days and ranges, the
// company's calling hours and the numbers' due times, on the business clock. 2030-01-07 is a Monday.

let t: TestApp;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
const setBeijing = (day: number, hhmmss: string) => setBeijingAt(hhmmss, day);
const saveHours = (from: string, to: string) => saveCallSettings(t, tokens.admin, { callHours: { from, to } });
const window = {
  cmWeeks: [1, 2, 3, 4, 5],
  cmTimes: [
    { start: '09:00', end: '12:00' },
    { start: '14:00', end: '18:00' },
  ],
};
const rowOf = async (path: string, id: number, user = 'admin') => {
  const res = await t.post(`/api/frontend/${path}/list`, { page: 1, limit: 100 }, tokens[user]);
  expect(res.json().code, res.body).toBe(0);
  return (res.json().data.list as CalltaskRow[]).find((r) => r.cmStid === id) as CalltaskRow;
};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'lisi']) tokens[u] = await t.login(u);
  const staff = (await t.get('/api/frontend/staff/list?page=1&limit=100', tokens.admin)).json().data.list as {
    cmSid: number;
    username: string;
  }[];
  for (const s of staff) ids[s.username] = s.cmSid;
  setBeijing(0, '08:00:00');
  await saveHours('08:00', '21:00');
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('the wait of a running task', () => {
  it('a seat task: before, inside and after its ranges, the weekend, the company hours and its numbers', async () => {
    const created = await t.post(
      '/api/frontend/calltask/create',
      { name: '等待原因任务', numbers: ['13800001111', '13800002222'], cmSidInfo: [ids.lisi], ...window },
      tokens.admin,
    );
    expect(created.json().code, created.body).toBe(0);
    const id = created.json().data.cmStid as number;
    // not started: no wait
    setBeijing(0, '08:59:00');
    expect((await rowOf('calltask', id)).wait).toBeNull();
    expect((await t.post('/api/frontend/calltask/start', { cmStid: id }, tokens.admin)).json().code).toBe(0);
    expect((await rowOf('calltask', id)).wait).toEqual({
      reason: 'window',
      text: '不在外呼时段，下次拨号 今天 09:00',
      nextDialAt: '2030-01-07 09:00:00',
    });
    // the agent's 我的任务 and the detail say the same
    const mine = await t.post('/api/frontend/calltask/list', { page: 1, limit: 20, isMine: 1 }, tokens.lisi);
    expect(mine.json().data.list.find((r: CalltaskRow) => r.cmStid === id).wait.text).toBe('不在外呼时段，下次拨号 今天 09:00');
    expect((await t.get(`/api/frontend/calltask/detail?cmStid=${id}`, tokens.admin)).json().data.wait.reason).toBe('window');
    setBeijing(0, '09:00:00');
    expect((await rowOf('calltask', id)).wait).toBeNull();
    setBeijing(0, '12:00:00');
    expect((await rowOf('calltask', id)).wait?.text).toBe('不在外呼时段，下次拨号 今天 14:00');
    setBeijing(4, '18:00:00');
    expect((await rowOf('calltask', id)).wait).toMatchObject({
      text: '不在外呼时段，下次拨号 周一 09:00',
      nextDialAt: '2030-01-14 09:00:00',
    });
    setBeijing(6, '12:00:00');
    expect((await rowOf('calltask', id)).wait?.text).toBe('不在外呼时段，下次拨号 明天 09:00');
    // the company opens at 10:00: inside the task's range, outside the company's hours
    await saveHours('10:00', '21:00');
    setBeijing(0, '09:30:00');
    expect((await rowOf('calltask', id)).wait).toEqual({
      reason: 'hours',
      text: '不在公司外呼时段（10:00–21:00），下次拨号 今天 10:00',
      nextDialAt: '2030-01-07 10:00:00',
    });
    await saveHours('08:00', '21:00');
    // every number waits for its redial: the earliest, inside the window
    setBeijing(0, '14:30:00');
    await t.database.db
      .update(callTaskNumbers)
      .set({ nextAt: new Date(Date.UTC(2030, 0, 7, 15 - 8, 0, 0)) })
      .where(eq(callTaskNumbers.taskId, id));
    expect((await rowOf('calltask', id)).wait).toEqual({
      reason: 'numbers',
      text: '号码等待重拨间隔或呼叫上限，下次拨号 今天 15:00',
      nextDialAt: '2030-01-07 15:00:00',
    });
    // paused: no wait shown
    expect((await t.post('/api/frontend/calltask/pause', { cmStid: id }, tokens.admin)).json().code).toBe(0);
    expect((await rowOf('calltask', id)).wait).toBeNull();
  });

  it('a group task carries the same wait', async () => {
    const created = await t.post(
      '/api/frontend/groupcall/create',
      { name: '群呼等待', numbers: ['13800003333'], cmSidInfo: [ids.lisi], maxLines: 2, ...window },
      tokens.admin,
    );
    expect(created.json().code, created.body).toBe(0);
    const id = created.json().data.cmStid as number;
    expect((await t.post('/api/frontend/groupcall/start', { cmStid: id }, tokens.admin)).json().code).toBe(0);
    setBeijing(5, '10:00:00');
    expect((await rowOf('groupcall', id)).wait).toMatchObject({ reason: 'window', text: '不在外呼时段，下次拨号 周一 09:00' });
  });
});
