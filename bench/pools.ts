/**
 * Shared-pool benchmark on a seeded PostgreSQL database (1,000,000 customers):
 *   1. recycling sweep of 100,000 due customers (runRecycle, set-based SQL),
 *   2. batch allocation of 100,000 customers (POST batchallot, job polled to the end),
 *   3. claim throughput with 20 staff claiming at once (POST followup).
 *
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/crm_bench_pools npx tsx bench/seed-customers.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/crm_bench_pools npx tsx bench/pools.ts
 *
 * It rewrites owners, pools and dates of the database it runs on: use a database of its own.
 */
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client';
import { runRecycle } from '../apps/server/src/modules/pools/pools-recycle';
import { BENCH_DB, login, startServer, summarise } from './lib';

const PORT = 3971;
const DUE = 100_000;
const STAFF = 20;
const CLAIM_SECONDS = 10;

const pool = new pg.Pool({ connectionString: BENCH_DB, max: 4 });
const q = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await pool.query<T>(text, values)).rows;

const tenant = (await q<{ id: number }>('select id from tenants where is_demo limit 1'))[0].id;
const idOf = async (username: string) =>
  (await q<{ id: number }>('select id from staff where tenant_id = $1 and username = $2', [tenant, username]))[0].id;
const [lisi, wangwu, zhangsan, zhaoliu] = await Promise.all(['lisi', 'wangwu', 'zhangsan', 'zhaoliu'].map(idOf));
const total = Number((await q<{ n: string }>('select count(*) as n from customers where tenant_id = $1', [tenant]))[0].n);
console.log(`database: ${total} customers`);

const rules = (noFollowDays: number) =>
  JSON.stringify({
    recycle: { isOn: noFollowDays > 0 ? 1 : 0, noFollowDays, noDealDays: 0, logic: 'or', cmNids: [], cmClids: [] },
    claim: { dailyMax: 0, cooldownDays: 0 },
  });
await q(`update pools set action_state = 1 where tenant_id = $1`, [tenant]);
const benchPool = (
  await q<{ id: number }>(
    `insert into pools (tenant_id, name, dm_type, use_department_ids, rules, sort_num) values ($1, $2, 1, '{}', $3, 0) returning id`,
    [tenant, `压测公海${Date.now()}`, rules(7)],
  )
)[0].id;

// ---------- 1. recycling sweep ----------
// Every private customer was followed today, except exactly DUE of them, last touched 10 days ago.
let t0 = Date.now();
await q(`update customers set follow_at = now(), allot_at = now() where tenant_id = $1 and owner_id is not null`, [tenant]);
await q(
  `update customers set follow_at = null, last_contact_at = null, allot_at = now() - interval '10 days', created_at = now() - interval '10 days'
   where id in (select id from customers where tenant_id = $1 and owner_id is not null and deleted_at is null order by id limit $2)`,
  [tenant, DUE],
);
await q('vacuum analyze customers');
console.log(`sweep set-up: ${Date.now() - t0} ms`);
const database = await openDatabase({ databaseUrl: BENCH_DB, pgliteDir: '' });
t0 = Date.now();
const swept = await runRecycle(database.db, tenant);
const sweepMs = Date.now() - t0;
t0 = Date.now();
const again = await runRecycle(database.db, tenant);
const idleMs = Date.now() - t0;
console.log(
  `sweep: ${swept.recycled} customers recycled in ${sweepMs} ms; second (idempotent) run ${again.recycled} in ${idleMs} ms`,
);
await q(`update pools set rules = $2 where id = $1`, [benchPool, rules(0)]);
await database.close();

// ---------- 2. batch allocation ----------
// zhaoliu holds exactly DUE customers; batchallot gives them to three colleagues.
await q(`update customers set owner_id = $2 where tenant_id = $1 and owner_id = $3`, [tenant, lisi, zhaoliu]);
await q(
  `update customers set owner_id = $2 where id in (select id from customers where tenant_id = $1 and owner_id = $3 and deleted_at is null order by id limit $4)`,
  [tenant, zhaoliu, lisi, DUE],
);
// claimers: 20 staff of 销售一部 with lisi's password
await q(
  `insert into staff (tenant_id, department_id, role_id, username, password_hash, name, phone, merchant_type)
   select tenant_id, department_id, role_id, 'bench' || g || '_' || $2::int, password_hash, '压测' || g, '137' || lpad((g + $2::int)::text, 8, '0'), 1
   from staff, generate_series(1, $3) g where id = $1`,
  [lisi, Date.now() % 100000, STAFF],
);
const claimers = (
  await q<{ username: string }>(
    `select username from staff where tenant_id = $1 and username like 'bench%' order by id desc limit $2`,
    [tenant, STAFF],
  )
).map((r) => r.username);
await q(`update customers set pool_id = $2 where tenant_id = $1 and owner_id is null`, [tenant, benchPool]);
await q('vacuum analyze customers');

const { child, base } = await startServer(PORT);
try {
  const admin = await login(base, 'admin');
  const call = async (token: string, path: string, body: unknown) => {
    const r = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify(body),
    });
    return (await r.json()) as { code: number; msg: string; data: unknown };
  };
  t0 = Date.now();
  const started = await call(admin, '/api/frontend/customer/batchallot', {
    fromCmSid: zhaoliu,
    toCmSids: [lisi, wangwu, zhangsan],
  });
  if (started.code !== 0) throw new Error(started.msg);
  const jobId = (started.data as { jobId: string }).jobId;
  const progress: string[] = [];
  for (;;) {
    const r = await fetch(`${base}/api/frontend/customer/job?jobId=${jobId}`, { headers: { authorization: admin } });
    const job = ((await r.json()) as { data: { status: string; processed: number; total: number; result: unknown } }).data;
    progress.push(`${job.processed}/${job.total}`);
    if (job.status !== 'running') {
      console.log(
        `batchallot: ${JSON.stringify(job.result)} in ${Date.now() - t0} ms (progress seen: ${[...new Set(progress)].join(' → ')})`,
      );
      break;
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  // ---------- 3. claim throughput ----------
  const poolIds = (
    await q<{ id: number }>(
      `select id from customers where tenant_id = $1 and owner_id is null and pool_id = $2 and deleted_at is null order by random() limit 20000`,
      [tenant, benchPool],
    )
  ).map((r) => r.id);
  const tokens = await Promise.all(claimers.map((u) => login(base, u)));
  const latencies: number[] = [];
  let won = 0;
  let lost = 0;
  const until = Date.now() + CLAIM_SECONDS * 1000;
  // Each worker walks the same shuffled ids from its own offset, so neighbours collide now and then.
  await Promise.all(
    tokens.map(async (token, w) => {
      for (let i = w * 50; Date.now() < until; i++) {
        const id = poolIds[i % poolIds.length];
        const s = performance.now();
        const r = await call(token, '/api/frontend/customer/followup', { cmCtids: [id] });
        latencies.push(performance.now() - s);
        if (r.code === 0) won += 1;
        else lost += 1;
      }
    }),
  );
  const stats = summarise(latencies);
  console.log(
    `claims: ${STAFF} staff for ${CLAIM_SECONDS} s: ${won} claimed (${Math.round(won / CLAIM_SECONDS)}/s), ${lost} refused (already taken); latency p50 ${stats.p50.toFixed(1)} ms, p95 ${stats.p95.toFixed(1)} ms, p99 ${stats.p99.toFixed(1)} ms`,
  );
  const dupes = await q<{ n: string }>(
    `select count(*) as n from (select customer_id from follow_records where tenant_id = $1 and follow_type = 2 and created_at > now() - interval '1 hour' group by customer_id having count(*) > 1) d`,
    [tenant],
  );
  console.log(`customers claimed twice: ${dupes[0].n}`);
} finally {
  child.kill();
  await pool.end();
}
