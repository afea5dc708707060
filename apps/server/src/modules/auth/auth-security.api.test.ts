import { ERRORS, PASSWORD_RULE } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLogs, sessions, staff } from '../../db/schema';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';
import { forgetKeptSessions } from './session-actors';

let t: TestApp;
let admin: string;
let dept1: number;
let salesRole: number;

/** A login from a given client address (this app trusts X-Forwarded-For: TRUST_PROXY=true). */
const loginFrom = (username: string, password: string, ip: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/frontend/login',
    payload: { username, password },
    headers: { 'x-forwarded-for': ip },
  });

let phoneSeq = 0;
/** Creates a 销售 in 销售一部 through the API; returns its id. */
const createStaff = async (username: string, extra: Record<string, unknown> = {}) => {
  phoneSeq += 1;
  const res = await t.post(
    '/api/frontend/staff/create',
    {
      username,
      password: DEMO_PASSWORD,
      name: `测试${phoneSeq}`,
      phone: `1370000${String(phoneSeq).padStart(4, '0')}`,
      sex: 1,
      cmDid: dept1,
      cmArid: salesRole,
      merchantType: 1,
      ...extra,
    },
    admin,
  );
  expect(res.json()).toMatchObject({ code: 0 });
  return res.json().data.cmSid as number;
};

const staffIdOf = async (username: string) => {
  const [row] = await t.database.db.select({ id: staff.id }).from(staff).where(eq(staff.username, username));
  return row.id;
};

beforeAll(async () => {
  t = await createTestApp({ config: { trustProxy: true } });
  admin = await t.login('admin');
  const depts = (await t.get('/api/frontend/department/list', admin)).json().data.list;
  dept1 = depts.find((d: { name: string }) => d.name === '销售一部').cmDid;
  const roles = (await t.get('/api/frontend/role/list', admin)).json().data.list;
  salesRole = roles.find((r: { name: string }) => r.name === '销售').cmArid;
});
afterAll(async () => {
  await t.close();
});

describe('login rate limit (per account, from any address)', () => {
  it('refuses the 6th attempt after 5 failures even with the right password, from any address; other accounts are unaffected', async () => {
    const ip = '10.0.0.5';
    for (let i = 0; i < 5; i++) {
      const res = await loginFrom('zhaoliu', `wrong-pass${i}`, ip);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: ERRORS.LOGIN_FAILED.code, msg: '账号或密码错误' });
    }
    const refused = await loginFrom('zhaoliu', DEMO_PASSWORD, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 101004, msg: '登录失败次数过多，请15分钟后再试', data: null });
    // Case of the account name does not matter.
    expect((await loginFrom('ZhaoLiu', DEMO_PASSWORD, ip)).json().code).toBe(101004);

    // Another account from the same address logs in.
    const other = await loginFrom('wangwu', DEMO_PASSWORD, ip);
    expect(other.json().code).toBe(0);
    // The same account from another address is refused too (issue 11: a new address gains nothing).
    const elsewhere = await loginFrom('zhaoliu', DEMO_PASSWORD, '10.0.0.99');
    expect(elsewhere.json().code).toBe(101004);
  });

  it('counts only failures of the last 15 minutes', async () => {
    const ip = '10.0.0.5';
    expect((await loginFrom('zhaoliu', DEMO_PASSWORD, ip)).json().code).toBe(101004);
    await t.database.db
      .update(loginLogs)
      .set({ createdAt: new Date(Date.now() - 16 * 60 * 1000) })
      .where(eq(loginLogs.username, 'zhaoliu'));
    const res = await loginFrom('zhaoliu', DEMO_PASSWORD, ip);
    expect(res.json().code).toBe(0);
  });

  it('counts failures per account, whether the account name or the phone number was typed', async () => {
    const ip = '10.0.0.6';
    await createStaff('phonelimit');
    const [row] = await t.database.db.select({ phone: staff.phone }).from(staff).where(eq(staff.username, 'phonelimit'));
    for (let i = 0; i < 5; i++) expect((await loginFrom('phonelimit', `wrong-pass${i}`, ip)).json().code).toBe(101001);
    const viaPhone = await loginFrom(row.phone, DEMO_PASSWORD, ip);
    expect(viaPhone.json().code).toBe(101004);
  });
});

describe('account state', () => {
  it('refuses a disabled staff member with 101002', async () => {
    await createStaff('disabled1', { actionState: 1 });
    const res = await loginFrom('disabled1', DEMO_PASSWORD, '10.0.1.1');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 101002, msg: '该账号已被禁用，请联系管理员' });
    // A wrong password does not reveal that the account is disabled.
    expect((await loginFrom('disabled1', 'wrong-pass1', '10.0.1.1')).json().code).toBe(101001);
  });

  it('refuses a staff member whose expiry time has passed with 101003', async () => {
    await createStaff('expired1', { expireTime: '2020-01-01 00:00:00' });
    const res = await loginFrom('expired1', DEMO_PASSWORD, '10.0.1.2');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 101003, msg: '该账号已过期，请联系管理员续期' });
  });

  it('lets a staff member with a future expiry in, and drops the session once the expiry passes', async () => {
    const id = await createStaff('expiring1', { expireTime: '2099-12-31 23:59:59' });
    const login = await loginFrom('expiring1', DEMO_PASSWORD, '10.0.1.3');
    expect(login.json().code).toBe(0);
    expect(login.json().data.userInfo.expireTime).toBe('2099-12-31 23:59:59');
    const token = login.json().data.token;
    await t.database.db
      .update(staff)
      .set({ expireAt: new Date(Date.now() - 1000) })
      .where(eq(staff.id, id));
    forgetKeptSessions(t.database.db);
    const res = await t.get('/api/frontend/user/info', token);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(100002);
  });
});

describe('token idle expiry', () => {
  it('accepts a token idle for 23 hours and refreshes its last use', async () => {
    const token = await t.login('zhangsan');
    const id = await staffIdOf('zhangsan');
    const old = new Date(Date.now() - 23 * 60 * 60 * 1000);
    await t.database.db.update(sessions).set({ lastSeenAt: old }).where(eq(sessions.staffId, id));
    forgetKeptSessions(t.database.db);
    const res = await t.get('/api/frontend/user/info', token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.userInfo.name).toBe('张三');
    const rows = await t.database.db.select({ lastSeenAt: sessions.lastSeenAt }).from(sessions).where(eq(sessions.staffId, id));
    expect(rows.length).toBe(1);
    expect(rows[0].lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('answers 401 / 100002 for a token idle for 2 days and removes the session', async () => {
    const token = await t.login('lisi');
    const id = await staffIdOf('lisi');
    await t.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 2 * 24 * 60 * 60 * 1000) })
      .where(eq(sessions.staffId, id));
    forgetKeptSessions(t.database.db);
    const res = await t.get('/api/frontend/user/info', token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 100002, msg: '登录失效，请重新登录！' });
    expect(await t.database.db.select().from(sessions).where(eq(sessions.staffId, id))).toEqual([]);
    // Logging in again works.
    expect((await t.get('/api/frontend/user/info', await t.login('lisi'))).statusCode).toBe(200);
  });

  it('accepts the token with a Bearer prefix', async () => {
    const token = await t.login('wangwu');
    const res = await t.get('/api/frontend/user/info', `Bearer ${token}`);
    expect(res.json().data.userInfo.name).toBe('王五');
  });
});

describe('change password', () => {
  let current: string;
  let other: string;
  beforeAll(async () => {
    await createStaff('pwduser');
    current = await t.login('pwduser');
    other = await t.login('pwduser');
  });
  const change = (body: Record<string, string>, token = current) => t.post('/api/frontend/user/password', body, token);

  it('refuses a wrong old password with 101005', async () => {
    const res = await change({ oldPassword: 'wrong-pass1', newPassword: 'newpass123', confirmPassword: 'newpass123' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 101005, msg: '原密码不正确' });
  });

  it('refuses a confirmation that differs with 101006', async () => {
    const res = await change({ oldPassword: DEMO_PASSWORD, newPassword: 'newpass123', confirmPassword: 'newpass124' });
    expect(res.json()).toMatchObject({ code: 101006, msg: '两次输入的新密码不一致' });
  });

  it('refuses the same password (101007) and a weak one (100001 with the rule)', async () => {
    const same = await change({ oldPassword: DEMO_PASSWORD, newPassword: DEMO_PASSWORD, confirmPassword: DEMO_PASSWORD });
    expect(same.json()).toMatchObject({ code: 101007, msg: '新密码不能与原密码相同' });
    const weak = await change({ oldPassword: DEMO_PASSWORD, newPassword: 'abcdefgh', confirmPassword: 'abcdefgh' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ code: 100001, msg: PASSWORD_RULE.msg });
  });

  it('changes the password, keeps the current session and logs out the others', async () => {
    const res = await change({ oldPassword: DEMO_PASSWORD, newPassword: 'newpass123', confirmPassword: 'newpass123' });
    expect(res.json()).toMatchObject({ code: 0, msg: '密码修改成功' });
    expect((await t.get('/api/frontend/user/info', current)).statusCode).toBe(200);
    const gone = await t.get('/api/frontend/user/info', other);
    expect(gone.statusCode).toBe(401);
    expect(gone.json().code).toBe(100002);

    expect((await loginFrom('pwduser', DEMO_PASSWORD, '10.0.2.1')).json().code).toBe(101001);
    expect((await loginFrom('pwduser', 'newpass123', '10.0.2.1')).json().code).toBe(0);
  });

  it('needs a token', async () => {
    const res = await t.post('/api/frontend/user/password', {
      oldPassword: 'a',
      newPassword: 'newpass123',
      confirmPassword: 'newpass123',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(100002);
  });
});
