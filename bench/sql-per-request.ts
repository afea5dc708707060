/**
 * How many SQL statements each busy endpoint sends (issue 25: the load profile says the time goes to
 * statements, not to the app's own code). Builds the app in-process on bench/load.ts's database
 * (prepared by its first run) and counts the pg queries issued inside each request's async context
 * (AsyncLocalStorage), so the background jobs' polling is not counted.
 *
 *   npx tsx bench/sql-per-request.ts
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';

const DB_URL = process.env.LOAD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crm_bench_load';
const counter = new AsyncLocalStorage<{ n: number; texts: string[] }>();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const store = counter.getStore();
  if (store) {
    store.n++;
    const first = args[0] as string | { text?: string };
    store.texts.push(
      String(typeof first === 'string' ? first : first?.text)
        .replace(/\s+/g, ' ')
        .slice(0, 90),
    );
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
const requests: Array<[string, Parameters<typeof app.inject>[0]]> = [
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
const verbose = process.argv.includes('--list');
console.log('| endpoint | SQL statements |\n| --- | --- |');
for (const [name, req] of requests) {
  const store = { n: 0, texts: [] as string[] };
  const res = await counter.run(store, () => app.inject(req));
  if (res.json().code !== 0) throw new Error(`${name}: ${res.body}`);
  console.log(`| ${name} | ${store.n} |`);
  if (verbose) for (const t of store.texts) console.log(`    ${t}`);
}
await direct.query(`delete from sessions where token_hash = $1`, [createHash('sha256').update(token).digest('hex')]);
await direct.end();
await app.close();
await database.close();
process.exit(0);
