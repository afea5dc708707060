import { ERRORS, LIMITS } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginLogs, staff } from '../../db/schema';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';

/**
 * Issue 11 hole 4: the login throttle held per account and address, and every X-Forwarded-For
 * was believed, so rotating a forged address gave unlimited guesses. Now the address comes from a
 * proxy only when TRUST_PROXY says so, an account is throttled whatever the address, and one
 * address is throttled across accounts (password spraying).
 */

let plain: TestApp; // TRUST_PROXY off (the default)
let proxied: TestApp; // TRUST_PROXY=true: behind a proxy that sets X-Forwarded-For
let seq = 0;

const login = (t: TestApp, username: string, password: string, forwardedFor?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/frontend/login',
    payload: { username, password },
    headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
  });

/** A fresh 销售 account created through the API; returns its username. */
const newAccount = async (t: TestApp) => {
  seq += 1;
  const admin = await t.login('admin');
  const depts = (await t.get('/api/frontend/department/list', admin)).json().data.list;
  const roles = (await t.get('/api/frontend/role/list', admin)).json().data.list;
  const username = `throttle${seq}`;
  const res = await t.post(
    '/api/frontend/staff/create',
    {
      username,
      password: DEMO_PASSWORD,
      name: `限流${seq}`,
      phone: `1361111${String(seq).padStart(4, '0')}`,
      sex: 1,
      cmDid: depts.find((d: { name: string }) => d.name === '销售一部').cmDid,
      cmArid: roles.find((r: { name: string }) => r.name === '销售').cmArid,
      merchantType: 1,
    },
    admin,
  );
  expect(res.json()).toMatchObject({ code: 0 });
  return username;
};

/** The failures of one address are spread over time: the window is what counts, not the order of tests. */
const clearFailures = (t: TestApp) => t.database.db.delete(loginLogs).where(eq(loginLogs.isSuccess, false));

beforeAll(async () => {
  plain = await createTestApp();
  proxied = await createTestApp({ config: { trustProxy: true } });
});
afterAll(async () => {
  await plain.close();
  await proxied.close();
});

describe('TRUST_PROXY off (default): X-Forwarded-For is not believed', () => {
  it('100 guesses with a rotating forged X-Forwarded-For are throttled after 5; the log keeps the real address', async () => {
    await clearFailures(plain);
    const username = await newAccount(plain);
    const answers: { status: number; code: number }[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await login(plain, username, `guess-pass${i}`, `203.0.113.${i}`);
      answers.push({ status: res.statusCode, code: res.json().code });
    }
    const first = answers.slice(0, LIMITS.loginFailMax);
    expect(first.every((a) => a.code === ERRORS.LOGIN_FAILED.code)).toBe(true);
    // every later guess is refused unchecked: the account throttle (101004), later also the
    // per-address request limit (100006, 60 a minute) — never a password check again
    const later = answers.slice(LIMITS.loginFailMax);
    expect(later.every((a) => a.status === 429)).toBe(true);
    expect(later.every((a) => a.code === ERRORS.LOGIN_TOO_MANY.code || a.code === ERRORS.RATE_LIMITED.code)).toBe(true);
    expect(later.filter((a) => a.code === ERRORS.LOGIN_TOO_MANY.code).length).toBeGreaterThan(50);
    const logged = await plain.database.db
      .selectDistinct({ ip: loginLogs.ip })
      .from(loginLogs)
      .where(eq(loginLogs.username, username));
    expect(logged.map((r) => r.ip)).toEqual(['127.0.0.1']);
  });
});

describe('TRUST_PROXY=true: per account whatever the address', () => {
  it('100 guesses from 100 addresses are throttled after 5', async () => {
    await clearFailures(proxied);
    const username = await newAccount(proxied);
    let throttled = 0;
    for (let i = 0; i < 100; i++) {
      const res = await login(proxied, username, `guess-pass${i}`, `198.51.100.${i + 1}`);
      if (res.json().code === ERRORS.LOGIN_TOO_MANY.code) throttled += 1;
    }
    expect(throttled).toBe(100 - LIMITS.loginFailMax);
  });

  it(`edge: ${LIMITS.loginFailMax - 1} failures from different addresses still let the right password in`, async () => {
    await clearFailures(proxied);
    const username = await newAccount(proxied);
    for (let i = 0; i < LIMITS.loginFailMax - 1; i++) {
      expect((await login(proxied, username, `wrong-pass${i}`, `192.0.2.${i + 1}`)).json().code).toBe(ERRORS.LOGIN_FAILED.code);
    }
    expect((await login(proxied, username, DEMO_PASSWORD, '192.0.2.200')).json().code).toBe(0);
  });

  it(`edge: ${LIMITS.loginFailMax} failures from different addresses refuse the right password (${ERRORS.LOGIN_TOO_MANY.msg})`, async () => {
    await clearFailures(proxied);
    const username = await newAccount(proxied);
    for (let i = 0; i < LIMITS.loginFailMax; i++) {
      expect((await login(proxied, username, `wrong-pass${i}`, `192.0.2.${i + 1}`)).json().code).toBe(ERRORS.LOGIN_FAILED.code);
    }
    const res = await login(proxied, username, DEMO_PASSWORD, '192.0.2.200');
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: ERRORS.LOGIN_TOO_MANY.code, msg: ERRORS.LOGIN_TOO_MANY.msg });
    // another account is not affected
    expect((await login(proxied, 'wangwu', DEMO_PASSWORD, '192.0.2.200')).json().code).toBe(0);
  });

  it('failures older than the window do not count', async () => {
    await clearFailures(proxied);
    const username = await newAccount(proxied);
    for (let i = 0; i < LIMITS.loginFailMax; i++) await login(proxied, username, `wrong-pass${i}`, `192.0.2.${i + 1}`);
    const past = new Date(Date.now() - (LIMITS.loginFailWindowSeconds + 1) * 1000);
    await proxied.database.db.update(loginLogs).set({ createdAt: past }).where(eq(loginLogs.username, username));
    expect((await login(proxied, username, DEMO_PASSWORD, '192.0.2.9')).json().code).toBe(0);
  });
});

describe('password spraying: one address across accounts', () => {
  it(`edge: ${LIMITS.loginFailMaxPerAddress - 1} failures over many accounts still let a right password in from that address`, async () => {
    await clearFailures(proxied);
    const ip = '203.0.113.50';
    for (let i = 0; i < LIMITS.loginFailMaxPerAddress - 1; i++) {
      expect((await login(proxied, `nobody${i}`, 'wrong-pass1', ip)).json().code).toBe(ERRORS.LOGIN_FAILED.code);
    }
    expect((await login(proxied, 'lisi', DEMO_PASSWORD, ip)).json().code).toBe(0);
  });

  it(`edge: ${LIMITS.loginFailMaxPerAddress} failures over many accounts throttle that address, not others`, async () => {
    await clearFailures(proxied);
    const ip = '203.0.113.51';
    for (let i = 0; i < LIMITS.loginFailMaxPerAddress; i++) {
      expect((await login(proxied, `spray${i}`, 'wrong-pass1', ip)).json().code).toBe(ERRORS.LOGIN_FAILED.code);
    }
    const refused = await login(proxied, 'lisi', DEMO_PASSWORD, ip);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe(ERRORS.LOGIN_TOO_MANY.code);
    expect((await login(proxied, 'lisi', DEMO_PASSWORD, '203.0.113.52')).json().code).toBe(0);
    // the refused attempt named a real account: it is logged against it
    const [row] = await proxied.database.db.select({ id: staff.id }).from(staff).where(eq(staff.username, 'lisi'));
    const logs = await proxied.database.db.select().from(loginLogs).where(eq(loginLogs.staffId, row.id));
    expect(logs.some((l) => l.ip === ip && !l.isSuccess)).toBe(true);
  });
});
