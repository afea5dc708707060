import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLogs, staff } from '../../db/schema';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';

type LogRow = {
  id: number;
  cmSid: number | null;
  staffName: string;
  username: string;
  ip: string;
  browser: string;
  os: string;
  isSuccess: number;
  reason: string;
  createTime: string;
};

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

let t: TestApp;
let admin: string;
let lisi: string;
const ids: Record<string, number> = {};

const loginFrom = (username: string, password: string, ip: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/frontend/login',
    payload: { username, password },
    headers: { 'x-forwarded-for': ip, 'user-agent': CHROME },
  });

const logs = async (token: string, query = 'limit=500'): Promise<{ list: LogRow[]; count: number }> => {
  const res = await t.get(`/api/frontend/user/loginlog?${query}`, token);
  expect(res.json().code).toBe(0);
  return res.json().data;
};

beforeAll(async () => {
  // Behind a trusted proxy (TRUST_PROXY=true) the log records the client's address from X-Forwarded-For.
  t = await createTestApp({ config: { trustProxy: true } });
  for (const row of await t.database.db.select({ id: staff.id, username: staff.username }).from(staff))
    ids[row.username] = row.id;
  // A few attempts of several people, good and bad.
  expect((await loginFrom('lisi', 'wrong-pass1', '10.9.0.1')).json().code).toBe(101001);
  expect((await loginFrom('lisi', DEMO_PASSWORD, '10.9.0.1')).json().code).toBe(0);
  expect((await loginFrom('wangwu', 'wrong-pass2', '10.9.0.2')).json().code).toBe(101001);
  expect((await loginFrom('13800000003', DEMO_PASSWORD, '10.9.0.2')).json().code).toBe(0);
  expect((await loginFrom('zhaoliu', DEMO_PASSWORD, '10.9.0.3')).json().code).toBe(0);
  expect((await loginFrom('other_admin', 'wrong-pass3', '10.9.0.4')).json().code).toBe(101001);
  expect((await loginFrom('other_admin', DEMO_PASSWORD, '10.9.0.4')).json().code).toBe(0);
  expect((await loginFrom('nobody_here', 'wrong-pass4', '10.9.0.5')).json().code).toBe(101001);
  admin = await t.login('admin');
  lisi = await t.login('lisi');
});
afterAll(async () => {
  await t.close();
});

describe('login log', () => {
  it('records every attempt, successful or not, with IP, browser and reason', async () => {
    const rows = await t.database.db.select().from(loginLogs);
    // 8 attempts above plus the two logins of beforeAll.
    expect(rows.length).toBe(10);
    expect(
      rows
        .filter((r) => !r.isSuccess)
        .map((r) => r.username)
        .sort(),
    ).toEqual(['lisi', 'nobody_here', 'other_admin', 'wangwu']);
    const unknown = rows.find((r) => r.username === 'nobody_here');
    expect(unknown).toMatchObject({ tenantId: null, staffId: null, isSuccess: false, reason: '账号或密码错误', ip: '10.9.0.5' });
    // A login by phone number is recorded against the staff member.
    expect(rows.find((r) => r.username === '13800000003')).toMatchObject({
      staffId: ids.wangwu,
      isSuccess: true,
      reason: '登录成功',
    });
  });

  it('shows the admin every staff member of the company, newest first, and nothing of other companies', async () => {
    const { list, count } = await logs(admin);
    expect(count).toBe(list.length);
    const people = new Set(list.map((r) => r.cmSid));
    expect(people).toEqual(new Set([ids.lisi, ids.wangwu, ids.zhaoliu, ids.admin]));
    expect(list.some((r) => r.username === 'other_admin' || r.username === 'nobody_here')).toBe(false);
    expect(list.map((r) => r.id)).toEqual([...list.map((r) => r.id)].sort((a, b) => b - a));

    const failed = list.find((r) => r.username === 'wangwu');
    expect(failed).toMatchObject({
      cmSid: ids.wangwu,
      staffName: '王五',
      ip: '10.9.0.2',
      browser: 'Chrome 120',
      os: 'Windows',
      isSuccess: 0,
      reason: '账号或密码错误',
    });
    expect(failed?.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(list.find((r) => r.username === '13800000003')).toMatchObject({ cmSid: ids.wangwu, isSuccess: 1, reason: '登录成功' });
  });

  it('shows a 销售 only his own rows', async () => {
    const { list, count } = await logs(lisi);
    expect(count).toBe(3); // one failure, two successes
    expect(list.every((r) => r.cmSid === ids.lisi)).toBe(true);
    expect(list.map((r) => r.isSuccess).sort()).toEqual([0, 1, 1]);
    // Asking for another person's rows gives nothing.
    expect((await logs(lisi, `cmSid=${ids.wangwu}`)).count).toBe(0);
  });

  it('shows the other company only its own rows', async () => {
    const other = await t.login('other_admin');
    const { list } = await logs(other);
    expect(new Set(list.map((r) => r.username))).toEqual(new Set(['other_admin']));
    expect(list.length).toBe(3);
  });

  it('filters by success, staff member and paging', async () => {
    const failures = await logs(admin, 'isSuccess=0');
    expect(failures.list.map((r) => r.username).sort()).toEqual(['lisi', 'wangwu']);
    const ofZhaoliu = await logs(admin, `cmSid=${ids.zhaoliu}`);
    expect(ofZhaoliu.list.map((r) => r.username)).toEqual(['zhaoliu']);
    const all = await logs(admin);
    const page1 = await logs(admin, 'page=1&limit=2');
    const page2 = await logs(admin, 'page=2&limit=2');
    expect(page1.count).toBe(all.count);
    expect(page1.list.map((r) => r.id)).toEqual(all.list.slice(0, 2).map((r) => r.id));
    expect(page2.list.map((r) => r.id)).toEqual(all.list.slice(2, 4).map((r) => r.id));
  });

  it('needs a token', async () => {
    const res = await t.get('/api/frontend/user/loginlog');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(100002);
  });
});

describe('staff row after login', () => {
  it('keeps the last login IP', async () => {
    const [row] = await t.database.db.select().from(staff).where(eq(staff.username, 'zhaoliu'));
    expect(row.lastLoginIp).toBe('10.9.0.3');
    expect(row.lastLoginAt).toBeInstanceOf(Date);
  });
});
