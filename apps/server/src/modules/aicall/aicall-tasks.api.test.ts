import type { AicallRow } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../../lib/clock';
import { createCallTestApp } from '../../test/calls';
import type { TestApp } from '../../test/harness';
import { aicallTestClient } from './aicall-test-client';

// AI tasks (issue 16): create / edit / delete / list / detail and the lifecycle, each limit at
// both edges (lines 1 and 30 / 0 and 31, the flow published), and who may see and manage a task.

let t: TestApp;
const tokens: Record<string, string> = {};
const c = aicallTestClient(() => t, tokens);

beforeAll(async () => {
  t = await createCallTestApp();
  for (const u of ['admin', 'lisi', 'other_admin']) tokens[u] = await t.login(u);
  await c.loadIds();
  // Monday 2030-01-07 10:00 Beijing time, inside the tasks' windows
  setClockOffsetMs(Date.UTC(2030, 0, 7, 2, 0, 0) - Date.now());
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('AI task lifecycle and validation', () => {
  it('lines 1 and 30 pass, 0 and 31 do not; the flow must exist and be published', async () => {
    const flowId = await c.publishedFlowId();
    for (const maxLines of [1, 30]) expect((await c.create({ flowId, maxLines })).code).toBe(0);
    for (const maxLines of [0, 31]) {
      expect(await c.create({ flowId, maxLines })).toMatchObject({ status: 400, msg: '并发线路数为1-30' });
    }
    const draft = await c.newFlow(false);
    expect(await c.create({ flowId: draft })).toMatchObject({ code: 116051, msg: '所选话术尚未发布，请先发布话术' });
    expect((await c.create({ flowId: 99_999_999 })).code).toBe(116001);
    // another company's published flow is not this company's
    const foreign = await c.publishedFlowId('other_admin');
    expect((await c.create({ flowId: foreign })).code).toBe(116001);
    expect(await c.create({ flowId, assignGrades: ['A', 'A'] })).toMatchObject({ status: 400, msg: '意向等级不能重复' });
  });

  it('lists only AI tasks with their flow, lines and grades; the seat list leaves them out', async () => {
    const flowId = await c.publishedFlowId();
    const created = await c.create({ flowId, maxLines: 4, assignGrades: ['A'], assignRule: 'none', cmSidInfo: [] });
    expect(created.code).toBe(0);
    const id = created.data.cmStid as number;
    const row = (await c.post<AicallRow>('detail', null, 'admin', `cmStid=${id}`)).data;
    expect(row).toMatchObject({
      cmStid: id,
      flowId,
      maxLines: 4,
      assignGrades: ['A'],
      assignRule: 'none',
      linesInUse: 0,
      grades: { A: 0, B: 0, C: 0, D: 0, E: 0 },
      totalNum: 3,
      status: 0,
      customerInfoState: 1,
      cmSidInfo: [],
    });
    expect(row.flowName).not.toBe('');
    const list = (await c.post<{ list: AicallRow[] }>('list', { limit: 100 })).data.list;
    expect(list.find((r) => r.cmStid === id)).toEqual(row);
    const seatList = (await t.post('/api/frontend/calltask/list', { limit: 100 }, tokens.admin)).json().data.list as {
      cmStid: number;
    }[];
    expect(seatList.some((r) => r.cmStid === id)).toBe(false);
    // a seat task is not an AI task
    const seat = await t.post(
      '/api/frontend/calltask/create',
      {
        name: '坐席任务',
        cmWeeks: [1],
        cmTimes: [{ start: '09:00', end: '10:00' }],
        numbers: ['13900000001'],
        cmSidInfo: [c.ids.admin],
      },
      tokens.admin,
    );
    const seatId = seat.json().data.cmStid as number;
    expect((await c.post('detail', null, 'admin', `cmStid=${seatId}`)).code).toBe(116050);
    expect((await c.post('start', { cmStid: seatId })).code).toBe(116050);
    expect((await c.post('del', { cmStid: seatId, confirm: 1 })).code).toBe(116050);
    // and the seat-task routes do not move, edit, delete or work an AI task
    for (const [path, body] of [
      ['start', { cmStid: id }],
      ['stop', { cmStid: id }],
      ['del', { cmStid: id, confirm: 1 }],
      ['work', { cmStid: id }],
      ['edit', { cmStid: id, name: '改名', cmWeeks: [1], cmTimes: [{ start: '09:00', end: '10:00' }], cmSidInfo: [c.ids.admin] }],
    ] as const) {
      const r = (await t.post(`/api/frontend/calltask/${path}`, body, tokens.admin)).json();
      expect(r.code, path).toBe(115020);
    }
    expect((await c.post<AicallRow>('detail', null, 'admin', `cmStid=${id}`)).data).toMatchObject({ name: row.name, status: 0 });
  });

  it('moves: start → pause → edit → resume → stop; a running task is neither edited nor deleted', async () => {
    const flowId = await c.publishedFlowId();
    // a window that is closed now (Monday 10:00): the task runs without dialling
    const id = (await c.create({ flowId, cmWeeks: [2] })).data.cmStid as number;
    const edit = (cmStid: number, extra: Record<string, unknown> = {}) =>
      c.post('edit', {
        cmStid,
        name: '改过的AI任务',
        flowId,
        maxLines: 2,
        cmWeeks: [2],
        cmTimes: [{ start: '09:00', end: '18:00' }],
        ...extra,
      });
    expect((await edit(id)).code).toBe(0);
    expect((await c.post('start', { cmStid: id })).code).toBe(0);
    expect((await edit(id)).code).toBe(115022);
    expect((await c.post('del', { cmStid: id, confirm: 1 })).code).toBe(115021);
    expect((await c.post('start', { cmStid: id })).code).toBe(115023);
    expect((await c.post('pause', { cmStid: id })).code).toBe(0);
    expect((await edit(id, { maxLines: 31 })).status).toBe(400);
    const draft = await c.newFlow(false);
    expect((await edit(id, { flowId: draft })).code).toBe(116051);
    expect((await edit(id, { maxLines: 30, assignRule: 'agents' })).code).toBe(0);
    expect((await c.post<AicallRow>('detail', null, 'admin', `cmStid=${id}`)).data).toMatchObject({
      name: '改过的AI任务',
      maxLines: 30,
      assignRule: 'agents',
      status: 2,
    });
    expect((await c.post('resume', { cmStid: id })).code).toBe(0);
    expect((await c.post('stop', { cmStid: id })).code).toBe(0);
    expect((await c.post('resume', { cmStid: id })).code).toBe(115032);
    expect((await c.post('del', { cmStid: id })).status).toBe(400);
    expect((await c.post('del', { cmStid: id, confirm: 1 })).code).toBe(0);
    expect((await c.post('detail', null, 'admin', `cmStid=${id}`)).code).toBe(116050);
  });

  it('data scope and tenancy: a manager with 本人 scope sees his own tasks only; a role without 300 may not call the routes; another company sees none', async () => {
    const flowId = await c.publishedFlowId();
    const adminTask = (await c.create({ flowId })).data.cmStid as number;
    const own = await c.staffWithMenus('aiown', [300], 1);
    const mine = await c.create({ flowId, cmSidInfo: [] }, own);
    expect(mine.code).toBe(0);
    const list = (await c.post<{ list: AicallRow[]; count: number }>('list', { limit: 100 }, own)).data;
    expect(list.list.map((r) => r.cmStid)).toEqual([mine.data.cmStid]);
    for (const [path, body, query] of [
      ['detail', null, `cmStid=${adminTask}`],
      ['report', null, `cmStid=${adminTask}`],
      ['start', { cmStid: adminTask }, ''],
      ['numbers', { cmStid: adminTask }, ''],
      ['export', { cmStid: adminTask }, ''],
      ['del', { cmStid: adminTask, confirm: 1 }, ''],
    ] as const) {
      expect((await c.post(path, body, own, query)).code, path).toBe(116050);
    }
    // the admin (全部) sees both
    const all = (await c.post<{ list: AicallRow[] }>('list', { limit: 100 })).data.list.map((r) => r.cmStid);
    expect(all).toEqual(expect.arrayContaining([adminTask, mine.data.cmStid]));
    // 销售 has no 300
    expect((await c.post('list', {}, 'lisi')).status).toBe(403);
    // another company's admin: not his task, not in his list
    expect((await c.post('detail', null, 'other_admin', `cmStid=${adminTask}`)).code).toBe(116050);
    expect((await c.post('report', null, 'other_admin', `cmStid=${adminTask}`)).code).toBe(116050);
    expect((await c.post('start', { cmStid: adminTask }, 'other_admin')).code).toBe(116050);
    const theirs = (await c.post<{ list: AicallRow[] }>('list', { limit: 100 }, 'other_admin')).data.list;
    expect(theirs.some((r) => r.cmStid === adminTask)).toBe(false);
  });
});
