import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('health', () => {
  it('answers code 0 without a token, naming the database in use', async () => {
    const res = await t.get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 0, data: { status: 'ok', database: t.database.kind } });
    expect(t.database.kind).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
  });
});

describe('OpenAPI docs', () => {
  it('serves an OpenAPI document listing the API routes', async () => {
    const res = await t.get('/api/docs/json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.title).toBe('云呼 CRM API');
    expect(doc.paths['/api/frontend/login'].post).toBeDefined();
    for (const p of [
      '/api/frontend/user/info',
      '/api/frontend/staff/list',
      '/api/frontend/department/create',
      '/api/frontend/upload/file',
      '/api/health',
    ]) {
      expect(Object.keys(doc.paths)).toContain(p);
    }
    // The login body is documented from its schema.
    const body = doc.paths['/api/frontend/login'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties).sort()).toEqual(['password', 'username']);
  });

  it('serves the docs page without a token', async () => {
    const res = await t.get('/api/docs');
    expect(res.statusCode).toBeLessThan(400);
  });
});

describe('unknown API paths', () => {
  it('answer 401 without a token and 404 with one', async () => {
    expect((await t.get('/api/frontend/nothing-here')).statusCode).toBe(401);
    const token = await t.login('lisi');
    const res = await t.get('/api/frontend/nothing-here', token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 100005, msg: '接口不存在' });
  });
});
