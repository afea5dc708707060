import SwaggerParser from '@apidevtools/swagger-parser';
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

  // issue 23: 14 operations pointed at #/components/schemas/schema0, which did not exist (the recursive
  // schemas), so standard tools and client generators refused the document.
  it('is a valid OpenAPI document for a standard validator, its recursive schemas named components', async () => {
    const doc = (await t.get('/api/docs/json')).json();
    const refs = new Set([...JSON.stringify(doc).matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]));
    for (const ref of refs) expect(Object.keys(doc.components.schemas)).toContain(ref.replace('#/components/schemas/', ''));
    expect(doc.components.schemas).toHaveProperty('DepartmentNode');
    expect(doc.components.schemas).toHaveProperty('TemplateControl');
    const list = doc.paths['/api/frontend/department/list'].get.responses['200'].content['application/json'].schema;
    expect(list.properties.data.properties.list.items).toEqual({ $ref: '#/components/schemas/DepartmentNode' });
    // swagger-parser mutates what it validates: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
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
