/**
 * Many users at once on PostgreSQL (issue 25): N logged-in clients, each with its call socket open,
 * work the busiest endpoints (我的客户 list, plain and by name, customer detail, call list, order list,
 * workbench) at a paced rate for a fixed time, and send the socket heartbeat; prints requests/s and
 * p50/p95/p99 per endpoint, errors, and the load average. The app runs as CLUSTER_WORKERS processes
 * (apps/server/src/cluster.ts) on its own database and Redis.
 *
 *   npx tsx bench/load.ts [--clients=200] [--rate=520] [--seconds=40] [--workers=2] [--customers=20000]
 *
 * --rate is the requests/s all clients together aim at (each client waits clients/rate seconds between
 * the starts of its requests; a slow answer delays only its own client); --rate=0: no waiting (capacity).
 * LOAD_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/crm_bench_load) is created and prepared on
 * the first run: the demo company with its history, customers up to --customers, and `clients` staff
 * `load001…` (销售, own data scope, 销售一部) each owning a share of the customers and a copy of the demo
 * history's calls and orders. LOAD_REDIS_URL (default redis://127.0.0.1:6379) is needed for 2+ workers.
 * BENCH_NODE_ARGS adds node flags to the app (e.g. `--cpu-prof --cpu-prof-dir=.tmp/prof`), BENCH_PORT its port.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import pg from 'pg';
import WebSocket from 'ws';
import { ensureDatabase, serverEntry, summarise } from './lib';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const CLIENTS = arg('clients', 200);
const RATE = arg('rate', 520);
const SECONDS = arg('seconds', 40);
const WORKERS = arg('workers', 2);
const CUSTOMERS = arg('customers', 20_000);
const WARMUP_S = 5;
const HEARTBEAT_MS = 5_000;
const DB_URL = process.env.LOAD_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crm_bench_load';
const REDIS_URL = process.env.LOAD_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PORT = Number(process.env.BENCH_PORT ?? 3960);
const base = `http://127.0.0.1:${PORT}`;

const startApp = async () => {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn('node', [...nodeArgs, ...serverEntry('cluster')], {
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATABASE_URL: DB_URL,
      REDIS_URL: WORKERS > 1 ? REDIS_URL : (process.env.REDIS_URL ?? ''),
      CLUSTER_WORKERS: String(WORKERS),
      LOG_LEVEL: 'warn',
      DATA_DIR: '.tmp/bench-load-data',
      DEMO_HISTORY: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // BENCH_START_SECONDS: how long the app may take to start (default 300: a loaded machine)
  for (let i = 0; i < Number(process.env.BENCH_START_SECONDS ?? 300) * 2; i++) {
    try {
      const r = await fetch(`${base}/api/health/ready`);
      if (r.ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill('SIGTERM');
  throw new Error('app did not start');
};

/** Copies rows of `table` matching `where`, once per load staff member, replacing some columns. */
const cloneForStaff = async (db: pg.Client, table: string, where: string, replace: Record<string, string>) => {
  const cols = (
    await db.query(
      `select column_name, column_default from information_schema.columns
       where table_name = $1 and table_schema = 'public' and is_generated = 'NEVER' order by ordinal_position`,
      [table],
    )
  ).rows.filter((c) => !(c.column_name === 'id' && String(c.column_default ?? '').startsWith('nextval')));
  const names = cols.map((c) => c.column_name as string);
  await db.query(
    `insert into ${table} (${names.join(', ')})
     select ${names.map((n) => replace[n] ?? `t.${n}`).join(', ')}
     from ${table} t cross join staff s
     where ${where} and s.username like 'load%'`,
  );
};

const prepare = async () => {
  const db = new pg.Client({ connectionString: DB_URL });
  await db.connect();
  const tenant = (await db.query(`select id from tenants where is_demo limit 1`)).rows[0].id as number;
  const lisi = (await db.query(`select * from staff where tenant_id = $1 and username = 'lisi'`, [tenant])).rows[0];
  const have = Number((await db.query(`select count(*) from staff where username like 'load%'`)).rows[0].count);
  const theirOrders = Number(
    (await db.query(`select count(*) from orders where owner_id in (select id from staff where username like 'load%')`)).rows[0]
      .count,
  );
  if (have < CLIENTS || theirOrders === 0) {
    const total = Number((await db.query(`select count(*) from customers where tenant_id = $1`, [tenant])).rows[0].count);
    if (total < CUSTOMERS) {
      await new Promise<void>((resolve, reject) => {
        const seed = spawn('npx', ['tsx', 'bench/seed-customers.ts', String(CUSTOMERS)], {
          env: { ...process.env, BENCH_DATABASE_URL: DB_URL },
          stdio: 'inherit',
        });
        seed.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`seed exited ${code}`))));
      });
    }
    for (let i = have + 1; i <= CLIENTS; i++) {
      const n = String(i).padStart(3, '0');
      await db.query(
        `insert into staff (tenant_id, department_id, role_id, username, password_hash, name, phone)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [
          tenant,
          lisi.department_id,
          lisi.role_id,
          `load${n}`,
          lisi.password_hash,
          `压测${n}`,
          `1990000${String(i).padStart(4, '0')}`,
        ],
      );
    }
    // each load staff member owns every (clients)th private customer, and a copy of the demo's calls and orders
    await db.query(
      `with s as (select id, department_id, row_number() over (order by id) - 1 as k from staff where username like 'load%')
       update customers c set owner_id = s.id, owner_department_id = s.department_id
       from s where c.tenant_id = $1 and c.owner_id is not null and c.id % 4 = 0 and (c.id / 4) % $2 = s.k`,
      [tenant, CLIENTS],
    );
    await db.query(`delete from call_records where staff_id in (select id from staff where username like 'load%')`);
    await cloneForStaff(db, 'call_records', `t.tenant_id = ${tenant} and t.staff_id = ${lisi.id}`, {
      uuid: 'gen_random_uuid()::text',
      staff_id: 's.id',
      department_id: 's.department_id',
    });
    await cloneForStaff(db, 'orders', `t.tenant_id = ${tenant} and t.owner_id = ${lisi.id}`, {
      owner_id: 's.id',
      creator_id: 's.id',
    });
    await db.query('vacuum analyze');
  }
  const figures = (
    await db.query(
      `select (select count(*) from customers where tenant_id = $1)::int as customers,
              (select count(*) from call_records where tenant_id = $1)::int as calls,
              (select count(*) from orders where tenant_id = $1)::int as orders`,
      [tenant],
    )
  ).rows[0];
  await db.end();
  return figures as { customers: number; calls: number; orders: number };
};

const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
type Answer = { status: number; code: number; body: { code: number; data: unknown } };
const call = (method: 'GET' | 'POST', path: string, token: string, body?: object) =>
  new Promise<Answer>((resolve, reject) => {
    const payload = body ? JSON.stringify(body) : undefined;
    const req = http.request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: { authorization: token, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            resolve({ status: res.statusCode ?? 0, code: parsed.code, body: parsed });
          } catch (e) {
            reject(e);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

/**
 * Sessions are written straight into the database (as a login would: sha-256 of a random token), since
 * 200 logins from one address in a few seconds are throttled (100006) as they should be.
 */
const sessionsFor = async (count: number) => {
  const db = new pg.Client({ connectionString: DB_URL });
  await db.connect();
  const staff = (await db.query(`select id, tenant_id from staff where username like 'load%' order by id limit $1`, [count]))
    .rows;
  const tokens: string[] = [];
  for (const s of staff) {
    const token = randomBytes(32).toString('base64url');
    await db.query(
      `insert into sessions (token_hash, staff_id, tenant_id, ip, user_agent) values ($1, $2, $3, '127.0.0.1', 'bench/load')`,
      [createHash('sha256').update(token).digest('hex'), s.id, s.tenant_id],
    );
    tokens.push(token);
  }
  await db.end();
  return tokens;
};

type Client = { token: string; customerId: number; ws?: WebSocket; pongWaiters: Array<(at: number) => void> };

const openSocket = (c: Client) =>
  new Promise<void>((resolve, reject) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/ws/call`);
    c.ws = ws;
    // generous: on a starved machine the socket's login took over 30 s
    const timer = setTimeout(() => reject(new Error('socket login timed out')), 120_000);
    ws.on('message', (data) => {
      const f = JSON.parse(String(data)) as { msg_type: number };
      if (f.msg_type === 0) ws.send(JSON.stringify({ type: 'login', token: c.token }));
      else if (f.msg_type === 1) {
        clearTimeout(timer);
        resolve();
      } else if (f.msg_type === 2) c.pongWaiters.shift()?.(performance.now());
    });
    ws.on('error', reject);
  });

const endpoints: Array<{ name: string; weight: number; run: (c: Client, i: number) => Promise<Answer> }> = [
  {
    name: 'customer/minelist',
    weight: 25,
    run: (c, i) => call('POST', '/api/frontend/customer/minelist', c.token, { page: 1 + (i % 2), limit: 20 }),
  },
  {
    name: 'customer/minelist name',
    weight: 15,
    run: (c) => call('POST', '/api/frontend/customer/minelist', c.token, { name: '科技', page: 1, limit: 20 }),
  },
  { name: 'customer/info', weight: 15, run: (c) => call('GET', `/api/frontend/customer/info?cmCtid=${c.customerId}`, c.token) },
  { name: 'call/list', weight: 15, run: (c) => call('POST', '/api/frontend/call/list', c.token, { page: 1, limit: 20 }) },
  { name: 'order/list', weight: 15, run: (c) => call('GET', '/api/frontend/order/list?page=1&limit=10', c.token) },
  { name: 'workbench/summary', weight: 15, run: (c) => call('GET', '/api/frontend/workbench/summary', c.token) },
];
const totalWeight = endpoints.reduce((s, e) => s + e.weight, 0);
const pick = (x: number) => {
  let left = x * totalWeight;
  for (const e of endpoints) {
    left -= e.weight;
    if (left < 0) return e;
  }
  return endpoints[endpoints.length - 1];
};

await ensureDatabase(DB_URL);
const loadStart = os.loadavg();
const app = await startApp();
try {
  const figures = await prepare();
  console.log(
    `data: ${figures.customers} customers, ${figures.calls} calls, ${figures.orders} orders; ${CLIENTS} clients, ${WORKERS} app process(es), rate ${RATE || 'unpaced'}/s, ${SECONDS} s (+${WARMUP_S} s warm-up)`,
  );
  const tokens = await sessionsFor(CLIENTS);
  const clients: Client[] = [];
  for (let i = 0; i < CLIENTS; i += 10) {
    const batch = await Promise.all(
      tokens.slice(i, i + 10).map(async (token) => {
        const c: Client = { token, customerId: 0, pongWaiters: [] };
        const first = await call('POST', '/api/frontend/customer/minelist', c.token, { page: 1, limit: 1 });
        c.customerId = (first.body.data as { list: Array<{ cmCtid: number }> }).list[0]?.cmCtid ?? 0;
        await openSocket(c);
        return c;
      }),
    );
    clients.push(...batch);
  }
  const times = new Map<string, number[]>(endpoints.map((e) => [e.name, []]));
  times.set('socket heartbeat', []);
  const errors = new Map<string, number>();
  const fail = (name: string, what: string) => errors.set(`${name}: ${what}`, (errors.get(`${name}: ${what}`) ?? 0) + 1);
  const t0 = performance.now();
  const measureFrom = t0 + WARMUP_S * 1000;
  const endAt = measureFrom + SECONDS * 1000;
  const gapMs = RATE > 0 ? (CLIENTS / RATE) * 1000 : 0;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const work = async (c: Client, seed: number) => {
    await sleep(Math.random() * (gapMs || 10));
    for (let i = seed; performance.now() < endAt; i++) {
      const started = performance.now();
      const e = pick(Math.random());
      try {
        const r = await e.run(c, i);
        if (r.status !== 200 || r.code !== 0) fail(e.name, `HTTP ${r.status} code ${r.code}`);
        else if (started >= measureFrom) times.get(e.name)?.push(performance.now() - started);
      } catch (err) {
        fail(e.name, (err as Error).message);
      }
      const wait = gapMs - (performance.now() - started);
      if (wait > 0) await sleep(wait);
    }
  };
  const beat = async (c: Client) => {
    await sleep(Math.random() * HEARTBEAT_MS);
    while (performance.now() < endAt) {
      const started = performance.now();
      const pong = new Promise<number>((resolve) => c.pongWaiters.push(resolve));
      c.ws?.send(JSON.stringify({ type: 'heartbeat' }));
      const at = await Promise.race([pong, sleep(10_000).then(() => -1)]);
      if (at < 0) fail('socket heartbeat', 'no pong in 10 s');
      else if (started >= measureFrom) times.get('socket heartbeat')?.push(at - started);
      await sleep(HEARTBEAT_MS - (performance.now() - started));
    }
  };
  await Promise.all([...clients.map((c, i) => work(c, i)), ...clients.map((c) => beat(c))]);
  const loadEnd = os.loadavg();

  const all: number[] = [];
  console.log('\n| endpoint | requests | req/s | p50 ms | p95 ms | p99 ms | max ms |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, ms] of times) {
    all.push(...ms);
    const s = summarise(ms);
    console.log(
      `| ${name} | ${s.n} | ${(s.n / SECONDS).toFixed(1)} | ${s.p50?.toFixed(1)} | ${s.p95?.toFixed(1)} | ${s.p99?.toFixed(1)} | ${s.max?.toFixed(1)} |`,
    );
  }
  const s = summarise(all);
  console.log(
    `| **all** | ${s.n} | **${(s.n / SECONDS).toFixed(1)}** | ${s.p50.toFixed(1)} | **${s.p95.toFixed(1)}** | ${s.p99.toFixed(1)} | ${s.max.toFixed(1)} |`,
  );
  const errorCount = [...errors.values()].reduce((a, b) => a + b, 0);
  console.log(`\nerrors: ${errorCount}${errorCount ? ` ${JSON.stringify(Object.fromEntries(errors))}` : ''}`);
  console.log(
    `load average (1/5/15 min): before start ${loadStart.map((x) => x.toFixed(1)).join(' / ')}, at the end ${loadEnd.map((x) => x.toFixed(1)).join(' / ')}`,
  );
  for (const c of clients) c.ws?.close();
} finally {
  agent.destroy();
  app.kill('SIGTERM');
  await new Promise((r) => app.once('exit', r));
}
