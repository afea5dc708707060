import { execFileSync, spawn } from 'node:child_process';
import pg from 'pg';

export const BENCH_DB = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/crm_bench';

/** Creates the benchmark database when it does not exist yet. */
export const ensureDatabase = async (url = BENCH_DB) => {
  const u = new URL(url);
  const name = u.pathname.slice(1);
  u.pathname = '/postgres';
  const c = new pg.Client({ connectionString: u.toString() });
  await c.connect();
  const found = await c.query('select 1 from pg_database where datname = $1', [name]);
  if (found.rowCount === 0) await c.query(`create database ${name}`);
  await c.end();
};

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export const summarise = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s[s.length - 1] };
};

/**
 * The server's entry as production runs it: the bundle of `npm run build:server`, built now so it
 * matches the tree (about 1 s). BENCH_TSX=1 runs the TypeScript source under tsx instead (about
 * twice the memory: tsx keeps every transformed module).
 */
export const serverEntry = (name: 'main' | 'cluster'): string[] => {
  if (process.env.BENCH_TSX === '1') return ['--import', 'tsx', `apps/server/src/${name}.ts`];
  execFileSync(process.execPath, ['apps/server/build.mjs'], { stdio: 'ignore' });
  return [`apps/server/dist/${name}.mjs`];
};

/** Starts the real server on PostgreSQL and resolves once /api/health answers. */
export const startServer = async (port: number, url = BENCH_DB) => {
  // BENCH_NODE_ARGS: extra node flags for the server (e.g. --trace-gc)
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn('node', [...nodeArgs, ...serverEntry('main')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: url,
      LOG_LEVEL: 'warn',
      DATA_DIR: '.tmp/bench-data',
      DEMO_HISTORY: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  // BENCH_START_SECONDS: how long the server may take to start (a migration building an index on 1M rows)
  const tries = Number(process.env.BENCH_START_SECONDS ?? 60) * 2;
  for (let i = 0; i < tries; i++) {
    try {
      const r = await fetch(`${base}/api/health`);
      if (r.ok) return { child, base };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error('server did not start');
};

export const login = async (base: string, username: string, password = 'demo123456') => {
  const r = await fetch(`${base}/api/frontend/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const j = (await r.json()) as { code: number; msg: string; data: { token: string } };
  if (j.code !== 0) throw new Error(j.msg);
  return j.data.token;
};

/** Peak resident memory of a process (kB), from /proc. */
export const peakRssKb = async (pid: number) => {
  const fs = await import('node:fs/promises');
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
};

/** Resident memory of a process now (kB), from /proc. */
export const rssKb = async (pid: number) => {
  const fs = await import('node:fs/promises');
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
};
