/**
 * Where an export's memory is allocated (issue 25: 100,000 rows allocated about 2 GB of short-lived
 * objects, and in some runs enough of them outlived V8's young generation to lift the peak RSS past
 * 300 MB). Builds the app in-process on bench/list-latency.ts's database (1,000,000 customers, from
 * bench/seed-customers.ts), starts the admin's customer export of the last 73 days through the API,
 * and samples every allocation while it runs, collected or not (the inspector's sampling heap
 * profiler); prints the bytes allocated per function, most first.
 *
 *   npx tsx bench/export-alloc.ts [top=25]
 */
import { createHash, randomBytes } from 'node:crypto';
import { Session } from 'node:inspector/promises';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/client';

const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crm_bench';
const TOP = Number(process.argv[2] ?? 25);

const config = loadConfig(undefined, {
  databaseUrl: DB_URL,
  logLevel: 'silent',
  redisUrl: '',
  webDist: '/nonexistent',
  dataDir: '.tmp/bench-export-alloc',
});
const database = await openDatabase({ databaseUrl: DB_URL, pgliteDir: '' });
const app = await buildApp(config, database);
await app.ready();
const direct = new pg.Client({ connectionString: DB_URL });
await direct.connect();
const who = (await direct.query(`select id, tenant_id from staff where username = 'admin'`)).rows[0];
const token = randomBytes(32).toString('base64url');
const tokenHash = createHash('sha256').update(token).digest('hex');
await direct.query(`insert into sessions (token_hash, staff_id, tenant_id) values ($1, $2, $3)`, [
  tokenHash,
  who.id,
  who.tenant_id,
]);
const headers = { authorization: token };
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);

type Node = { callFrame: { functionName: string; url: string; lineNumber: number }; selfSize: number; children: Node[] };
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', {
  samplingInterval: 16_384,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
} as never);
const t0 = performance.now();
const started = await app.inject({
  method: 'POST',
  url: '/api/frontend/customer/allotexportlist',
  headers,
  payload: { createTime: [day(-73), day(0)] },
});
const jobId = started.json().data.jobId;
let job = { status: 'running', total: 0 };
while (job.status === 'running') {
  await new Promise((r) => setTimeout(r, 100));
  job = (await app.inject({ method: 'GET', url: `/api/frontend/customer/job?jobId=${jobId}`, headers })).json().data;
}
const seconds = (performance.now() - t0) / 1000;
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: Node } };

const bySite = new Map<string, number>();
let total = 0;
const walk = (n: Node) => {
  const f = n.callFrame;
  const site = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-3).join('/')}:${f.lineNumber + 1}`;
  bySite.set(site, (bySite.get(site) ?? 0) + n.selfSize);
  total += n.selfSize;
  for (const c of n.children) walk(c);
};
walk(profile.head);
console.log(
  `export: ${job.status} ${job.total} rows in ${seconds.toFixed(1)} s; sampled allocations ${(total / 1e6).toFixed(0)} MB`,
);
console.log('| MB | share | function |\n| --- | --- | --- |');
for (const [site, bytes] of [...bySite.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
  console.log(`| ${(bytes / 1e6).toFixed(1)} | ${((bytes / total) * 100).toFixed(1)} % | ${site} |`);
}
await direct.query(`delete from sessions where token_hash = $1`, [tokenHash]);
await direct.end();
await app.close();
await database.close();
process.exit(0);
