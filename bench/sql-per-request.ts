/**
 * How many SQL statements each busy endpoint sends (issue 25: the load profile says the time goes to
 * statements, not to the app's own code). Builds the app in-process on bench/load.ts's database
 * (prepared by its first run) and counts the pg queries sent while 20 requests of each run one after
 * another, minus the background's statements over the same time (measured right after, idle), pg-boss's
 * own statements (`pgboss.`) not counted at all.
 *
 *   npx tsx bench/sql-per-request.ts
 *   SQL_TRACE=1 npx tsx bench/sql-per-request.ts   # also prints the statements of each endpoint's last request
 */
import { createHash, randomBytes } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';

const DB_URL = process.env.LOAD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crm_bench_load';
let statements = 0;
const TRACE = process.env.SQL_TRACE === '1';
let traced: string[] = [];
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as string | { text?: string };
  const text = String(typeof first === 'string' ? first : first?.text);
  if (!text.includes('pgboss.')) {
    statements++;
    if (TRACE) traced.push(text.replace(/\s+/g, ' ').slice(0, 220));
  }
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

const config = loadConfig(undefined, { databaseUrl: DB_URL, logLevel: 'silent', redisUrl: '', webDist: '/nonexistent' });
const database = await openDatabase({ databaseUrl: DB_URL, pgliteDir: '' });
const app = await buildApp(config, database);
await app.ready();
const direct = new pg.Client({ connectionString: DB_URL });
await direct.connect();
const who = (await direct.query(`select id, tenant_id from staff where username = 'load001'`)).rows[0];
if (!who) throw new Error('run bench/load.ts once first (it prepares the database)');
const token = randomBytes(32).toString('base64url');
await direct.query(`insert into sessions (token_hash, staff_id, tenant_id) values ($1, $2, $3)`, [
  createHash('sha256').update(token).digest('hex'),
  who.id,
  who.tenant_id,
]);
const headers = { authorization: token };
const first = await app.inject({
  method: 'POST',
  url: '/api/frontend/customer/minelist',
  headers,
  payload: { page: 1, limit: 1 },
});
const customerId = first.json().data.list[0].cmCtid;
const requests: Array<[string, InjectOptions]> = [
  ['customer/minelist', { method: 'POST', url: '/api/frontend/customer/minelist', headers, payload: { page: 1, limit: 20 } }],
  [
    'customer/minelist name',
    { method: 'POST', url: '/api/frontend/customer/minelist', headers, payload: { name: '科技', page: 1, limit: 20 } },
  ],
  ['customer/info', { method: 'GET', url: `/api/frontend/customer/info?cmCtid=${customerId}`, headers }],
  ['call/list', { method: 'POST', url: '/api/frontend/call/list', headers, payload: { page: 1, limit: 20 } }],
  ['order/list', { method: 'GET', url: '/api/frontend/order/list?page=1&limit=10', headers }],
  ['workbench/summary', { method: 'GET', url: '/api/frontend/workbench/summary', headers }],
];
const N = 20;
console.log('| endpoint | SQL statements per request |\n| --- | --- |');
for (const [name, req] of requests) {
  const s0 = statements;
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    traced = [];
    const res = await app.inject(req);
    if (res.json().code !== 0) throw new Error(`${name}: ${res.body}`);
  }
  const during = statements - s0;
  if (TRACE) for (const t of traced) console.log(`    ${t}`);
  const b0 = statements;
  await new Promise((r) => setTimeout(r, performance.now() - t0));
  const background = statements - b0;
  console.log(`| ${name} | ${((during - background) / N).toFixed(1)} (background over the same time: ${background}) |`);
}
await direct.query(`delete from sessions where token_hash = $1`, [createHash('sha256').update(token).digest('hex')]);
await direct.end();
await app.close();
await database.close();
process.exit(0);
