import { envelope, staffOptionSchema } from '@crm/contracts';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildRecorded, type RouteInfo } from './fuzz';
import { createTestApp, type TestApp } from './harness';

/**
 * Issue 11: every /api route declares its answer from contracts, so the OpenAPI document is
 * complete and the serializer drops fields the contract does not name. A new route without one
 * fails here.
 */

let t: TestApp;
let routes: RouteInfo[];

beforeAll(async () => {
  const recorded = await buildRecorded(() => createTestApp());
  t = recorded.built;
  // /api/docs is the OpenAPI document and its UI (@fastify/swagger-ui), not an API call
  routes = recorded.routes.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && !r.isWebsocket);
});
afterAll(async () => {
  await t?.close();
});

it('every /api route declares a 200 response schema', () => {
  const missing = routes
    .filter((r) => !(r.schema?.response as Record<string, unknown> | undefined)?.[200])
    .map((r) => `${r.method} ${r.url}`);
  expect(routes.length).toBeGreaterThan(100);
  expect(missing).toEqual([]);
});

it('the OpenAPI document describes the answer of every /api route', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  const doc = res.json() as { paths: Record<string, Record<string, { responses?: Record<string, unknown> }>> };
  const undocumented = routes
    .filter((r) => {
      const path = r.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const op = doc.paths[path]?.[r.method.toLowerCase()];
      return !op?.responses?.['200'];
    })
    .map((r) => `${r.method} ${r.url}`);
  expect(undocumented).toEqual([]);
});

it('the serializer sends only the fields the contract names', async () => {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.get('/x', { schema: { response: { 200: envelope(staffOptionSchema) } } }, async () => ({
    code: 0,
    msg: 'ok',
    data: { staff_id: 1, linkman: '张三', cmDid: null, passwordHash: 'secret' } as never,
  }));
  const res = await app.inject({ method: 'GET', url: '/x' });
  expect(res.json()).toEqual({ code: 0, msg: 'ok', data: { staff_id: 1, linkman: '张三', cmDid: null } });
  await app.close();
});
