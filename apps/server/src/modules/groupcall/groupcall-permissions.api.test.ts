import type { GroupcallRow } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

// Issue 22 item 5: a group task is a predictive dialer on the numbers its creator types in.
// Creating, editing, moving and deleting group tasks is for the roles that manage seat tasks
// (menu 250 besides 群呼任务, menu 500); a sales user, who holds menu 500 to work the tasks he is
// an agent of, lists, watches and works them, and is refused the rest with 403 / 100003.

let t: TestApp;
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['zhangsan', 'lisi']) {
    tokens[u] = await t.login(u);
    ids[u] = (await t.get('/api/frontend/user/info', tokens[u])).json().data.userInfo.cmSid;
  }
});
afterAll(() => t.close());

const taskBody = (name: string, agent: number) => ({
  name,
  cmWeeks: [1, 2, 3, 4, 5, 6, 7],
  cmTimes: [{ start: '08:00', end: '21:00' }],
  numbers: ['13912340001', '13912340002'],
  cmSidInfo: [agent],
  maxLines: 2,
});

describe('who manages group tasks', () => {
  it('refuses a sales user creating, editing, moving and deleting; the manager does all of it', async () => {
    // 李四 (销售: menu 500, not 250) cannot create one, on his own numbers for himself
    const refused = await t.post('/api/frontend/groupcall/create', taskBody('李四的群呼', ids.lisi), tokens.lisi);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 100003 });

    // 张三 (销售主管: menus 250 and 500) creates one with 李四 as its agent
    const created = await t.post('/api/frontend/groupcall/create', taskBody('主管的群呼', ids.lisi), tokens.zhangsan);
    expect(created.json(), created.body).toMatchObject({ code: 0 });
    const cmStid = created.json().data.cmStid as number;

    // the agent sees it and its board, but runs none of its management
    const mine = (await t.post('/api/frontend/groupcall/list', { isMine: 1 }, tokens.lisi)).json();
    expect(mine.code).toBe(0);
    expect((mine.data.list as GroupcallRow[]).some((r) => r.cmStid === cmStid)).toBe(true);
    expect((await t.get(`/api/frontend/groupcall/board?cmStid=${cmStid}`, tokens.lisi)).json().code).toBe(0);
    const managing: [string, unknown][] = [
      ['edit', { ...taskBody('改名', ids.lisi), cmStid }],
      ['start', { cmStid }],
      ['pause', { cmStid }],
      ['resume', { cmStid }],
      ['stop', { cmStid }],
      ['del', { cmStid, confirm: 1 }],
    ];
    for (const [route, body] of managing) {
      const res = await t.post(`/api/frontend/groupcall/${route}`, body, tokens.lisi);
      expect(res.statusCode, `${route} ${res.body}`).toBe(403);
      expect(res.json(), route).toMatchObject({ code: 100003 });
    }
    // stopping work is always his (whether he works it or not)
    expect((await t.post('/api/frontend/groupcall/unwork', { cmStid }, tokens.lisi)).json().code).toBe(0);

    // the manager edits, starts, pauses, resumes, stops and deletes it
    for (const [route, body] of managing) {
      const res = await t.post(`/api/frontend/groupcall/${route}`, body, tokens.zhangsan);
      expect(res.json(), `${route} ${res.body}`).toMatchObject({ code: 0 });
    }
  });
});
