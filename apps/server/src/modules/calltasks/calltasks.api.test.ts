import type { CalltaskDetail, CalltaskNumberRow, CalltaskRow } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../../lib/clock';
import { createCallTestApp, mobileEnding } from '../../test/calls';
import { demoValues, fetchTemplate, mustCreate, setStrategy, type Template } from '../../test/customers';
import type { TestApp } from '../../test/harness';

// Seat tasks (issue 15): validation at both edges of each limit, the lifecycle, data scope and
// tenant isolation. Power dialing: calltasks-dialing.api.test.ts.

let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];
const ids: Record<string, number> = {};

const ALL_DAY = { cmWeeks: [1, 2, 3, 4, 5, 6, 7], cmTimes: [{ start: '00:00', end: '23:59' }] };
const body = (over: Record<string, unknown> = {}) => ({
  name: '测试任务',
  numbers: [mobileEnding(4), mobileEnding(6)],
  cmSidInfo: [ids.lisi],
  ...ALL_DAY,
  ...over,
});
const create = (over: Record<string, unknown> = {}, user = 'admin') =>
  t.post('/api/frontend/calltask/create', body(over), as(user));
const mustCreateTask = async (over: Record<string, unknown> = {}, user = 'admin') => {
  const res = await create(over, user);
  expect(res.json(), res.body).toMatchObject({ code: 0 });
  return res.json().data.cmStid as number;
};
const act = (what: string, cmStid: number, user = 'admin', extra: Record<string, unknown> = {}) =>
  t.post(`/api/frontend/calltask/${what}`, { cmStid, ...extra }, as(user));
const list = async (user: string, extra: Record<string, unknown> = {}) => {
  const res = await t.post('/api/frontend/calltask/list', { limit: 100, ...extra }, as(user));
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as { list: CalltaskRow[]; count: number };
};
const detail = (user: string, id: number) => t.get(`/api/frontend/calltask/detail?cmStid=${id}`, as(user));

beforeAll(async () => {
  t = await createCallTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'zhaoliu', 'other_admin']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
  const staff = (await t.get('/api/frontend/staff/list?page=1&limit=100', as('admin'))).json().data.list as {
    cmSid: number;
    username: string;
  }[];
  for (const s of staff) ids[s.username] = s.cmSid;
  const other = (await t.get('/api/frontend/staff/list?page=1&limit=100', as('other_admin'))).json().data.list as {
    cmSid: number;
  }[];
  ids.other = other[0].cmSid;
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('validation (400 with a Chinese message)', () => {
  it('name: 30 characters pass, 31 and blank are refused', async () => {
    expect((await create({ name: '任'.repeat(30) })).json().code).toBe(0);
    expect((await create({ name: '任'.repeat(31) })).json()).toMatchObject({ code: 100001, msg: '任务名称最多30个字符' });
    expect((await create({ name: '  ' })).json()).toMatchObject({ msg: '请输入任务名称' });
  });

  it('calling days 1–7, at least one, no repeats', async () => {
    expect((await create({ cmWeeks: [] })).json()).toMatchObject({ msg: '请选择外呼日期' });
    expect((await create({ cmWeeks: [0] })).json().code).not.toBe(0);
    expect((await create({ cmWeeks: [8] })).json().code).not.toBe(0);
    expect((await create({ cmWeeks: [1, 1] })).json()).toMatchObject({ msg: '外呼日期不能重复' });
    expect((await create({ cmWeeks: [7] })).json().code).toBe(0);
    expect((await create({ cmWeeks: [1] })).json().code).toBe(0);
  });

  it('time ranges: HH:mm, start before end, 1 to 4, not overlapping (touching ends pass)', async () => {
    const r = (start: string, end: string) => ({ start, end });
    expect((await create({ cmTimes: [] })).json()).toMatchObject({ msg: '请添加外呼时段' });
    expect((await create({ cmTimes: [r('9:00', '12:00')] })).json()).toMatchObject({ msg: '时间格式为HH:mm' });
    expect((await create({ cmTimes: [r('12:00', '12:00')] })).json()).toMatchObject({ msg: '结束时间须晚于开始时间' });
    expect((await create({ cmTimes: [r('09:00', '12:00'), r('11:59', '13:00')] })).json()).toMatchObject({
      msg: '外呼时段不能重叠',
    });
    const four = [r('08:00', '09:00'), r('09:00', '10:00'), r('13:00', '14:00'), r('20:00', '21:00')];
    expect((await create({ cmTimes: four })).json().code).toBe(0);
    expect((await create({ cmTimes: [...four, r('22:00', '23:00')] })).json()).toMatchObject({ msg: '最多4个外呼时段' });
  });

  it('redial: 1–1440 minutes, 1–5 attempts; wrap-up 0–600 s', async () => {
    for (const [over, isOk] of [
      [{ redialMinutes: 0 }, false],
      [{ redialMinutes: 1 }, true],
      [{ redialMinutes: 1440 }, true],
      [{ redialMinutes: 1441 }, false],
      [{ maxAttempts: 0 }, false],
      [{ maxAttempts: 1 }, true],
      [{ maxAttempts: 5 }, true],
      [{ maxAttempts: 6 }, false],
      [{ wrapUpSeconds: -1 }, false],
      [{ wrapUpSeconds: 0 }, true],
      [{ wrapUpSeconds: 600 }, true],
      [{ wrapUpSeconds: 601 }, false],
    ] as const) {
      const res = (await create(over)).json();
      expect(res.code === 0, JSON.stringify(over)).toBe(isOk);
      if (!isOk) expect(res.msg).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  it('one customer source; agents active and in scope; a pool rule names a usable pool', async () => {
    expect((await create({ cmCtids: [1] })).json()).toMatchObject({ msg: '请选择客户来源（列表筛选、所选客户或导入号码其一）' });
    expect((await create({ numbers: undefined })).json().code).toBe(100001);
    expect((await create({ cmSidInfo: [] })).json()).toMatchObject({ msg: '请选择坐席' });
    expect((await create({ cmSidInfo: [ids.other] })).json()).toMatchObject({ code: 115024 });
    expect((await create({ failPoolId: 999_999 })).json()).toMatchObject({ code: 115030 });
    expect((await create({ numbers: ['abc'] })).json()).toMatchObject({ code: 115025 });
    // a selection of a customer out of the caller's sight refuses the task
    const mine = await mustCreate(t, as('lisi'), tpl, '任务客户甲');
    const theirs = await mustCreate(t, as('wangwu'), tpl, '任务客户乙');
    expect((await create({ numbers: undefined, cmCtids: [mine, theirs], cmSidInfo: [ids.lisi] }, 'admin')).json().code).toBe(0);
    const lisiRole = await create({ numbers: undefined, cmCtids: [theirs] }, 'lisi');
    expect(lisiRole.statusCode).toBe(403);
  });

  it('a saved list filter brings in the customers it finds (their first number)', async () => {
    const phone = mobileEnding(4);
    const id = await mustCreate(t, as('lisi'), tpl, '筛选任务客户', demoValues({ 手机: phone }));
    const cmStid = await mustCreateTask({
      numbers: undefined,
      customerWhere: { kind: 'allot', filter: { name: '筛选任务客户' } },
    });
    const res = await t.post('/api/frontend/calltask/numbers', { cmStid }, as('admin'));
    const rows = res.json().data.list as CalltaskNumberRow[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ cmCtid: id, state: 0 });
    const row = (await list('admin')).list.find((r) => r.cmStid === cmStid);
    expect(row?.customerWhere).toContain('筛选任务客户');
    expect(row?.totalNum).toBe(1);
  });
});

describe('lifecycle', () => {
  it('start, pause, resume, stop; edit only while not started or paused; delete not while running', async () => {
    const id = await mustCreateTask({ name: '生命周期' });
    const edit = (over: Record<string, unknown> = {}) => {
      const { numbers: _n, ...rest } = body({ name: '改名任务', ...over });
      return t.post('/api/frontend/calltask/edit', { ...rest, cmStid: id }, as('admin'));
    };
    expect((await edit()).json().code).toBe(0);
    expect((await act('pause', id)).json()).toMatchObject({ code: 115023 });
    expect((await act('start', id)).json()).toMatchObject({ code: 0, msg: '任务已开始' });
    expect((await act('start', id)).json()).toMatchObject({ code: 115023 });
    expect((await edit()).json()).toMatchObject({ code: 115022, msg: '只有未开始或已暂停的任务可以编辑' });
    expect((await act('del', id, 'admin', { confirm: 1 })).json()).toMatchObject({ code: 115021 });
    expect((await act('pause', id)).json().code).toBe(0);
    expect((await edit({ cmSidInfo: [ids.lisi, ids.wangwu], wrapUpSeconds: 20 })).json().code).toBe(0);
    const d = (await detail('admin', id)).json().data as CalltaskDetail;
    expect(d).toMatchObject({ name: '改名任务', status: 2, statusName: '已暂停', wrapUpSeconds: 20, totalNum: 2, isComplete: 0 });
    expect(d.agents.map((a) => a.cmSid).sort()).toEqual([ids.lisi, ids.wangwu].sort());
    expect((await act('resume', id)).json().code).toBe(0);
    expect((await act('stop', id)).json()).toMatchObject({ code: 0, msg: '任务已停止' });
    expect((await act('resume', id)).json()).toMatchObject({ code: 115032 });
    expect((await act('del', id)).json().code).toBe(100001);
    expect((await act('del', id, 'admin', { confirm: 1 })).json()).toMatchObject({ code: 0 });
    expect((await detail('admin', id)).json()).toMatchObject({ code: 115020 });
  });

  it('work: only an agent, only while running', async () => {
    const id = await mustCreateTask({ name: '做任务', cmSidInfo: [ids.zhaoliu] });
    expect((await act('work', id, 'zhaoliu')).json()).toMatchObject({ code: 115028 });
    expect((await act('work', id, 'wangwu')).json()).toMatchObject({ code: 115027 });
    expect((await act('outcome', id, 'zhaoliu', { uuid: 'x', outcome: 1 })).json()).toMatchObject({ code: 115029 });
    await act('stop', id);
  });
});

describe('data scope and tenant isolation', () => {
  it('an agent sees the tasks he works; another company sees nothing', async () => {
    const mineId = await mustCreateTask({ name: '李四的任务', cmSidInfo: [ids.lisi] });
    const otherId = await mustCreateTask({ name: '王五的任务', cmSidInfo: [ids.wangwu] });
    const lisi = await list('lisi');
    expect(lisi.list.map((r) => r.cmStid)).toContain(mineId);
    expect(lisi.list.map((r) => r.cmStid)).not.toContain(otherId);
    expect((await detail('lisi', otherId)).json()).toMatchObject({ code: 115020 });
    expect((await detail('lisi', mineId)).json()).toMatchObject({ code: 0, data: { name: '李四的任务' } });
    expect((await list('admin')).list.map((r) => r.cmStid)).toEqual(expect.arrayContaining([mineId, otherId]));
    expect((await list('lisi', { isMine: 1 })).list.every((r) => r.cmSidInfo.some((a) => a.cmSid === ids.lisi))).toBe(true);
    // another company
    expect((await list('other_admin')).list.map((r) => r.cmStid)).not.toContain(mineId);
    expect((await detail('other_admin', mineId)).json()).toMatchObject({ code: 115020 });
    expect((await act('start', mineId, 'other_admin')).json()).toMatchObject({ code: 115020 });
    expect((await act('del', mineId, 'other_admin', { confirm: 1 })).json()).toMatchObject({ code: 115020 });
    expect((await t.post('/api/frontend/calltask/numbers', { cmStid: mineId }, as('other_admin'))).json()).toMatchObject({
      code: 115020,
    });
    // a sales agent may not manage (menu 250)
    expect((await act('start', mineId, 'lisi')).statusCode).toBe(403);
  });

  it('numbers are masked for a viewer under phoneEncryp', async () => {
    const phone = mobileEnding(4);
    await mustCreate(t, as('lisi'), tpl, '脱敏任务客户', demoValues({ 手机: phone }));
    const id = await mustCreateTask({ name: '脱敏', numbers: [phone], cmSidInfo: [ids.lisi] });
    await setStrategy(t, as('admin'), { phoneEncryp: 1 });
    try {
      const rows = (await t.post('/api/frontend/calltask/numbers', { cmStid: id }, as('lisi'))).json().data
        .list as CalltaskNumberRow[];
      expect(rows[0]).toMatchObject({ encryptPhone: 1, name: '脱敏任务客户' });
      expect(rows[0].phone).not.toBe(phone);
      expect(rows[0].phone).toContain('****');
    } finally {
      await setStrategy(t, as('admin'), { phoneEncryp: 0 });
    }
  });
});
