import { expect } from 'vitest';
import type { TestApp } from '../../test/harness';

type Answer<T = unknown> = { code: number; msg: string; data: T };
const P = '/api/frontend/aicall';
let seq = 0;

/**
 * The AI task API as the tests call it: `app()` is the file's test app (built in beforeAll),
 * `tokens` by username (admin unless another is named); a token not in `tokens` is used as is.
 */
export const aicallTestClient = (app: () => TestApp, tokens: Record<string, string>) => {
  const ids: Record<string, number> = {};
  const tokenOf = (user: string) => tokens[user] ?? user;
  /** POST path with body, or GET path?query when body is null. */
  const post = async <T = Record<string, unknown>>(path: string, body: unknown, user = 'admin', query = '') => {
    const res =
      body === null
        ? await app().get(`${P}/${path}${query ? `?${query}` : ''}`, tokenOf(user))
        : await app().post(`${P}/${path}`, body, tokenOf(user));
    return { status: res.statusCode, ...(res.json() as Answer<T>) };
  };
  const aibot = async <T = Record<string, unknown>>(path: string, body: unknown, user: string) =>
    (await app().post(`/api/frontend/aibot/${path}`, body, tokenOf(user))).json() as Answer<T>;
  /** A new flow of the user's company (the starter graph, or `graph`), published or not. */
  const newFlow = async (isPublished: boolean, user = 'admin', graph?: unknown) => {
    seq += 1;
    const name = `AI任务话术${seq}_${Date.now() % 100000}`;
    const created = await aibot<{ id: number }>('flow/store', { name }, user);
    expect(created.code, created.msg).toBe(0);
    if (graph) expect((await aibot('flow/update', { id: created.data.id, name, graph }, user)).code).toBe(0);
    if (isPublished) {
      const published = await aibot('flow/publish', { id: created.data.id }, user);
      expect(published.code, published.msg).toBe(0);
    }
    return created.data.id;
  };
  const flows: Record<string, number> = {};
  const publishedFlowId = async (user = 'admin') => {
    flows[user] ??= await newFlow(true, user);
    return flows[user];
  };
  /** A task of three numbers (overrides in `body`), by `user`. */
  const create = (body: Record<string, unknown>, user = 'admin') => {
    seq += 1;
    return post<{ cmStid: number }>(
      'create',
      {
        name: `AI任务${seq}`,
        cmWeeks: [1, 2, 3, 4, 5, 6, 7],
        cmTimes: [{ start: '08:00', end: '21:00' }],
        numbers: [
          `1390001${String(seq).padStart(3, '0')}1`,
          `1390001${String(seq).padStart(3, '0')}2`,
          `1390001${String(seq).padStart(3, '0')}3`,
        ],
        ...body,
      },
      user,
    );
  };
  /** A new staff member of the demo company with a role of these menus and data scope; returns his token. */
  const staffWithMenus = async (username: string, menuIds: number[], dataScope: number) => {
    const admin = tokens.admin;
    const role = (
      await app().post('/api/frontend/role/create', { name: `${username}角色`, dataScope, menuIds, actions: [] }, admin)
    ).json() as Answer<{ cmArid: number }>;
    expect(role.code, role.msg).toBe(0);
    const dept = (await app().get('/api/frontend/department/list', admin)).json().data.list[0].cmDid;
    const created = (
      await app().post(
        '/api/frontend/staff/create',
        {
          username,
          password: 'abc12345',
          name: username,
          phone: `1370000${String(1000 + seq++).slice(-4)}`,
          sex: 1,
          merchantType: 1,
          cmDid: dept,
          cmArid: role.data.cmArid,
        },
        admin,
      )
    ).json() as Answer;
    expect(created.code, created.msg).toBe(0);
    const token = await app().login(username, 'abc12345');
    ids[username] = (await app().get('/api/frontend/user/info', token)).json().data.userInfo.cmSid;
    return token;
  };
  return {
    ids,
    post,
    newFlow,
    publishedFlowId,
    create,
    staffWithMenus,
    /** fills ids of the logged-in users */
    loadIds: async () => {
      for (const [u, token] of Object.entries(tokens)) {
        ids[u] = (await app().get('/api/frontend/user/info', token)).json().data.userInfo.cmSid;
      }
    },
  };
};
