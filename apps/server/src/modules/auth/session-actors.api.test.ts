import { createHash } from 'node:crypto';
import { LIMITS } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessions } from '../../db/schema';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';
import { authenticate } from './auth.service';
import { forgetKeptSessions, keptSessionCount } from './session-actors';

// The sessions the auth hook keeps per process (issue 25): how long, and what drops them.
let t: TestApp;
let admin: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
});
afterAll(() => t.close());
afterEach(() => vi.useRealTimers());
/** A clock of its own, past the 2 s in which an earlier test's drop (a staff edit) keeps nothing. */
const ownClock = () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 2_100);
  return Date.now();
};

const tokenHashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const info = (token: string) => t.get('/api/frontend/user/info', token);

let seq = 0;
/** The fields of a staff member as created here, in 销售一部 (edit sends them all again). */
const staffBody = async (cmArid: number) => {
  const depts = (await t.get('/api/frontend/department/list', admin)).json().data.list as { cmDid: number; name: string }[];
  return {
    name: `缓存测试${seq}`,
    phone: `1350000${String(seq).padStart(4, '0')}`,
    workNumber: '',
    sex: 1,
    email: '',
    cmDid: depts.find((d) => d.name === '销售一部')?.cmDid,
    cmArid,
    merchantType: 1,
  };
};

/** A new staff member of the given role, logged in: his id and token. */
const newStaff = async (cmArid: number) => {
  seq += 1;
  const username = `kept${seq}`;
  const res = await t.post(
    '/api/frontend/staff/create',
    { username, password: DEMO_PASSWORD, ...(await staffBody(cmArid)) },
    admin,
  );
  expect(res.json().code).toBe(0);
  return { id: res.json().data.cmSid as number, token: await t.login(username) };
};

const roleNamed = async (name: string) => {
  const list = (await t.get('/api/frontend/role/list', admin)).json().data.list as { cmArid: number; name: string }[];
  const role = list.find((r) => r.name === name);
  if (!role) throw new Error(`no role ${name}`);
  return role.cmArid;
};

describe('sessions kept by the auth hook', () => {
  it('keeps a session read from the database for up to 5 s: removed by hand, it lets in until 4,999 ms, not at 5,000', async () => {
    const { token } = await newStaff(await roleNamed('销售'));
    const readAt = ownClock();
    expect((await info(token)).statusCode).toBe(200);
    await t.database.db.delete(sessions).where(eq(sessions.tokenHash, tokenHashOf(token)));
    vi.setSystemTime(readAt + 4_999);
    expect((await info(token)).statusCode).toBe(200);
    vi.setSystemTime(readAt + 5_000);
    const gone = await info(token);
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toMatchObject({ code: 100002, msg: '登录失效，请重新登录！' });
  });

  it('a change of role by the admin counts at the staff member’s next request', async () => {
    const { id, token } = await newStaff(await roleNamed('销售'));
    expect((await t.get('/api/frontend/staff/list', token)).statusCode).toBe(403);
    const created = await t.post(
      '/api/frontend/role/create',
      { name: '缓存测试角色', remark: '', dataScope: 2, menuIds: [122, 240, 145], actions: [] },
      admin,
    );
    expect(created.json().code).toBe(0);
    const edit = await t.post(
      '/api/frontend/staff/edit',
      { cmSid: id, ...(await staffBody(await roleNamed('缓存测试角色'))) },
      admin,
    );
    expect(edit.json()).toMatchObject({ code: 0 });
    expect((await t.get('/api/frontend/staff/list', token)).statusCode).toBe(200);
  });

  it('a kept copy never refuses: a session another process marked seen is asked of the database again, not ended', async () => {
    const { token } = await newStaff(await roleNamed('销售'));
    const now = ownClock();
    const idleLimit = LIMITS.sessionIdleSeconds * 1000;
    const where = eq(sessions.tokenHash, tokenHashOf(token));
    // last seen 2 s short of the idle limit; a heartbeat (no activity) reads and keeps it so
    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(now - idleLimit + 2_000) })
      .where(where);
    forgetKeptSessions(t.database.db);
    expect(await authenticate(t.database.db, token, { isActivity: false })).toBeDefined();
    // another process sees the user now (its touch drops nobody's copy)
    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(now) })
      .where(where);
    // 3 s on, this process's copy looks idle; the database's does not
    vi.setSystemTime(now + 3_000);
    expect(await authenticate(t.database.db, token, { isActivity: false })).toMatchObject({ name: expect.any(String) });
    expect(await t.database.db.select({ id: sessions.id }).from(sessions).where(where)).toHaveLength(1);
  });

  it('holds only the sessions read in the last 5 s: an older one is dropped by the next read', async () => {
    const sales = await roleNamed('销售');
    const a = await newStaff(sales);
    const b = await newStaff(sales);
    const readAt = ownClock();
    forgetKeptSessions(t.database.db);
    expect((await info(a.token)).statusCode).toBe(200);
    vi.setSystemTime(readAt + 4_999);
    expect((await info(b.token)).statusCode).toBe(200);
    expect(keptSessionCount(t.database.db)).toBe(2);
    vi.setSystemTime(readAt + 5_000);
    const c = await newStaff(sales);
    expect((await info(c.token)).statusCode).toBe(200);
    // a's copy (read at 0) is gone; b's (4,999 ms) and c's, and the admin's from making c, stay
    expect(keptSessionCount(t.database.db)).toBe(3);
  });
});
