import { LIMITS } from '@crm/contracts';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema';
import { SESSION_PURGE_CRON, SESSION_PURGE_QUEUE, scheduleSessionPurge } from '../../jobs/session-purge';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';
import { purgeExpiredSessions } from './auth.service';
import { forgetKeptSessions } from './session-actors';

/**
 * Issue 11 hole 12: sessions had only an idle expiry, expired ones were never deleted, and the
 * token cookie was written by the page's script (readable by any script).
 */

let t: TestApp;
let prod: TestApp;
const DAY = 24 * 60 * 60 * 1000;

const loginRes = (app: TestApp, username: string) =>
  app.app.inject({ method: 'POST', url: '/api/frontend/login', payload: { username, password: DEMO_PASSWORD } });

/** The session row of a token just logged in (the newest of the staff). */
const newestSession = async (app: TestApp, token: string) => {
  const res = await app.get('/api/frontend/user/info', token);
  const staffId = res.json().data.userInfo.cmSid as number;
  const rows = await app.database.db.select().from(sessions).where(eq(sessions.staffId, staffId));
  return rows.sort((a, b) => b.id - a.id)[0];
};

/** Ages a session by hand (behind the app's back, so its kept copies are forgotten). */
const setSession = async (app: TestApp, id: number, values: { createdAt?: Date; lastSeenAt?: Date }) => {
  await app.database.db.update(sessions).set(values).where(eq(sessions.id, id));
  forgetKeptSessions(app.database.db);
};

beforeAll(async () => {
  t = await createTestApp();
  prod = await createTestApp({ config: { isProduction: true } });
});
afterAll(async () => {
  await t.close();
  await prod.close();
});

describe('absolute maximum age', () => {
  it(`edge: a session active all along is accepted just under ${LIMITS.sessionMaxAgeSeconds / 86400} days`, async () => {
    const token = await t.login('zhangsan');
    const row = await newestSession(t, token);
    await setSession(t, row.id, {
      createdAt: new Date(Date.now() - LIMITS.sessionMaxAgeSeconds * 1000 + 60_000),
      lastSeenAt: new Date(),
    });
    expect((await t.get('/api/frontend/user/info', token)).statusCode).toBe(200);
  });

  it(`edge: past ${LIMITS.sessionMaxAgeSeconds / 86400} days it ends (401 / 100002) although used a minute ago`, async () => {
    const token = await t.login('zhangsan');
    const row = await newestSession(t, token);
    await setSession(t, row.id, {
      createdAt: new Date(Date.now() - LIMITS.sessionMaxAgeSeconds * 1000 - 1000),
      lastSeenAt: new Date(),
    });
    const res = await t.get('/api/frontend/user/info', token);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(100002);
    expect(await t.database.db.select().from(sessions).where(eq(sessions.id, row.id))).toEqual([]);
  });

  it('is 7 days', () => {
    expect(LIMITS.sessionMaxAgeSeconds).toBe(7 * 24 * 60 * 60);
  });
});

describe('purge of expired sessions', () => {
  it('deletes sessions idle past a day or older than the maximum age, and only those (both edges)', async () => {
    const ids: Record<string, number> = {};
    const now = Date.now();
    const cases: Record<string, { createdAt: Date; lastSeenAt: Date }> = {
      idleJustUnder: { createdAt: new Date(now - 2 * DAY), lastSeenAt: new Date(now - DAY + 60_000) },
      idleJustOver: { createdAt: new Date(now - 2 * DAY), lastSeenAt: new Date(now - DAY - 60_000) },
      ageJustUnder: { createdAt: new Date(now - 7 * DAY + 60_000), lastSeenAt: new Date(now) },
      ageJustOver: { createdAt: new Date(now - 7 * DAY - 60_000), lastSeenAt: new Date(now) },
    };
    for (const [name, values] of Object.entries(cases)) {
      const token = await t.login('wangwu');
      ids[name] = (await newestSession(t, token)).id;
      await setSession(t, ids[name], values);
    }
    const purged = await purgeExpiredSessions(t.app.db, new Date(now));
    expect(purged).toBeGreaterThanOrEqual(2);
    const left = await t.database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(inArray(sessions.id, Object.values(ids)));
    expect(left.map((r) => r.id).sort()).toEqual([ids.idleJustUnder, ids.ageJustUnder].sort());
  });

  it('is scheduled on the durable job queue (hourly, once per cluster)', async () => {
    await scheduleSessionPurge(t.app.queue, t.app.db, t.app.log);
    const schedules = await t.app.queue.boss.getSchedules();
    expect(schedules.find((s) => s.name === SESSION_PURGE_QUEUE)).toMatchObject({ cron: SESSION_PURGE_CRON });
  });
});

describe('the token cookie', () => {
  it('is set by the server at login: HttpOnly, SameSite=Lax, Path=/, not Secure outside production', async () => {
    const res = await loginRes(t, 'lisi');
    const token = res.json().data.token as string;
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`token=${encodeURIComponent(token)}`);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    // SPEC §9: the cookie expires after 1 day (issue 23: it said 7)
    expect(cookie).toContain('Max-Age=86400;');
    expect(cookie).not.toMatch(/Secure/);
    // the cookie alone authenticates (file links)
    const viaCookie = await t.app.inject({
      method: 'GET',
      url: '/api/frontend/user/info',
      headers: { cookie: `token=${token}` },
    });
    expect(viaCookie.statusCode).toBe(200);
  });

  it('is Secure in production', async () => {
    const res = await loginRes(prod, 'lisi');
    expect(res.json().code).toBe(0);
    expect(String(res.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
  });

  it('is cleared at logout', async () => {
    const token = (await loginRes(t, 'lisi')).json().data.token as string;
    const res = await t.post('/api/frontend/logout', {}, token);
    expect(res.json().code).toBe(0);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^token=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax/);
  });

  it('a failed login sets no cookie', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/frontend/login',
      payload: { username: 'lisi', password: 'wrong-pass1' },
    });
    expect(res.json().code).toBe(101001);
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});
