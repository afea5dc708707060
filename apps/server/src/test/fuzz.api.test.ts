import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildRecorded, type FuzzReport, type RouteInfo, runFuzz } from './fuzz';
import { createTestApp, DEMO_PASSWORD, type TestApp } from './harness';

/**
 * Issue 11 hole 7: NUL bytes, lone surrogates, ids beyond int4, floats, objects where scalars belong,
 * 10,000 levels of nesting and wrong content types, on every /api route, as an admin and as a sales
 * user, answer a 4xx. The full set is bench/fuzz-api.ts.
 */

let t: TestApp;
let routes: RouteInfo[];
let report: FuzzReport;

beforeAll(async () => {
  const recorded = await buildRecorded(() => createTestApp());
  t = recorded.built;
  routes = recorded.routes;
  report = await runFuzz(t, routes, recorded.errors, { level: 'quick', users: ['admin', 'lisi'], password: DEMO_PASSWORD });
}, 300_000);
afterAll(async () => {
  await t?.close();
});

it('every /api route is fuzzed', () => {
  const api = routes.filter((r) => r.url.startsWith('/api/') && !r.isWebsocket);
  expect(api.length).toBeGreaterThan(100);
  expect(report.routes).toBe(api.length);
  expect(report.requests).toBeGreaterThan(api.length * 20);
});

it('the contracts refuse bad input before the database does', () => {
  // the error handler's last line (a database refusal turned into a 400) is never needed
  expect(report.refusedByDatabase.slice(0, 20)).toEqual([]);
});

it('no bad input gets a 5xx answer', () => {
  expect(report.failures.slice(0, 20)).toEqual([]);
  expect(report.serverErrors).toBe(0);
});
