import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

/** Issue 25: GET /api/health/ready checks the database, Redis (when configured) and the line; request ids. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Check = { name: string; ok: boolean; detail: string; ms: number };

/** Makes the database's `select 1` fail while `run` runs; every other query goes through. */
const withBrokenSelect1 = async <T>(app: TestApp['app'], run: () => Promise<T>) => {
  const original = app.db.execute.bind(app.db);
  const spy = vi.spyOn(app.db, 'execute').mockImplementation(((query: { queryChunks?: { value?: string[] }[] }) => {
    const text = query?.queryChunks?.map((c) => c.value?.join('') ?? '').join('');
    if (text?.trim() === 'select 1') return Promise.reject(new Error('connection terminated'));
    return original(query as never);
  }) as never);
  try {
    return await run();
  } finally {
    spy.mockRestore();
  }
};

describe('GET /api/health/ready', () => {
  it('answers 200 with each check when the database and the line are ready (no Redis configured)', async () => {
    const res = await t.get('/api/health/ready');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ code: 0, data: { status: 'ok' } });
    const checks = body.data.checks as Check[];
    expect(checks.map((c) => c.name)).toEqual(['database', 'line']);
    expect(checks.every((c) => c.ok && c.ms >= 0)).toBe(true);
    expect(checks[0].detail).toBe(t.database.kind);
  });

  it('answers 503 naming the database when its check fails; /api/health is unchanged otherwise', async () => {
    const res = await withBrokenSelect1(t.app, () => t.get('/api/health/ready'));
    expect(res.statusCode).toBe(503);
    const body = res.json();
    expect(body.code).toBe(100503);
    expect(body.msg).toBe('服务未就绪：database');
    expect(body.data.status).toBe('fail');
    expect(body.data.checks).toContainEqual(expect.objectContaining({ name: 'database', ok: false, detail: '无法连接' }));
    expect(body.data.checks).toContainEqual(expect.objectContaining({ name: 'line', ok: true }));
    // the error's text stays in the log, not in this public answer
    expect(res.body).not.toContain('connection terminated');
    expect((await t.get('/api/health/ready')).statusCode).toBe(200);
  });

  it('checks the pub/sub when REDIS_URL is set, and answers 503 naming it when it fails', async () => {
    const withBus = await createTestApp({ config: { redisUrl: `memory://ready-${process.pid}` } });
    try {
      const ready = await withBus.get('/api/health/ready');
      expect(ready.statusCode).toBe(200);
      expect((ready.json().data.checks as Check[]).map((c) => [c.name, c.ok])).toEqual([
        ['database', true],
        ['redis', true],
        ['line', true],
      ]);
      const spy = vi.spyOn(withBus.app.calls.bus, 'publish').mockRejectedValue(new Error('ECONNREFUSED'));
      try {
        const down = await withBus.get('/api/health/ready');
        expect(down.statusCode).toBe(503);
        expect(down.json().msg).toBe('服务未就绪：redis');
      } finally {
        spy.mockRestore();
      }
    } finally {
      await withBus.close();
    }
  });
});

describe('request ids', () => {
  it('echoes a sane incoming X-Request-Id, on errors too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'nginx-7f3a.42' } });
    expect(res.headers['x-request-id']).toBe('nginx-7f3a.42');
    const refused = await t.app.inject({ method: 'GET', url: '/api/frontend/user/info', headers: { 'x-request-id': 'abc-1' } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['x-request-id']).toBe('abc-1');
  });

  it('makes a new id when none comes or the incoming one is not sane', async () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    const none = await t.get('/api/health');
    expect(none.headers['x-request-id']).toMatch(uuid);
    for (const bad of ['has spaces in it', 'x'.repeat(200), '<script>', 'a\u00e9b']) {
      const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': bad } });
      expect(res.headers['x-request-id'], bad).toMatch(uuid);
    }
    const a = await t.get('/api/health');
    expect(a.headers['x-request-id']).not.toBe(none.headers['x-request-id']);
  });
});
