/**
 * The production layout, CI-sized (issue 25): two app processes on one PostgreSQL and Redis behind
 * nginx with deploy/production/nginx-crm.conf, on 127.0.0.1. Checks that
 *  1. both instances are ready and nginx serves the app and upgrades the call socket (/ws/call);
 *  2. an agent whose call socket is on instance B hears of a call instance A placed (Redis);
 *  3. kill -9 of instance A while its call is answered and an export job was just queued loses
 *     neither: B's cluster sweep ends the call (a call record, state ended) and B runs the job to its
 *     file; nginx keeps answering through B;
 *  4. deploy/production/backup.sh and restore.sh carry the rows and the stored files over.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379 npm run test:cluster
 *
 * A fresh database is created beside DATABASE_URL's and dropped at the end; needs nginx, psql.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';

const ROOT = resolve(import.meta.dirname, '../..');
const BASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const PORT_BASE = Number(process.env.CLUSTER_TEST_PORT ?? 3210);
const PROXY = `http://127.0.0.1:${PORT_BASE}`;
const A = { name: 'cluster-a', port: PORT_BASE + 1 };
const B = { name: 'cluster-b', port: PORT_BASE + 2 };
const url = (port: number) => `http://127.0.0.1:${port}`;

if (!BASE_URL || !REDIS_URL) {
  console.error('test:cluster needs DATABASE_URL (PostgreSQL) and REDIS_URL');
  process.exit(2);
}

const dbName = `crm_cluster_${process.pid}`;
const adminUrl = BASE_URL;
const dbUrl = (() => {
  const u = new URL(BASE_URL);
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const work = mkdtempSync(join(tmpdir(), 'crm-cluster-'));
const children: ChildProcess[] = [];
const logs = new Map<string, string[]>();

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const step = (what: string) => console.log(`== ${what}`);
const fail = (what: string): never => {
  throw new Error(what);
};

const psql = (sql: string, target = dbUrl) => execFileSync('psql', [target, '-Atc', sql], { encoding: 'utf8' }).trim();

const waitFor = async <T>(what: string, read: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> => {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < until) {
    try {
      const v = await read();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await sleep(250);
  }
  return fail(`timed out (${timeoutMs} ms): ${what}${last ? ` — last error ${(last as Error).message}` : ''}`);
};

const keepLog = (name: string, child: ChildProcess) => {
  const lines: string[] = [];
  logs.set(name, lines);
  const add = (d: Buffer) => {
    lines.push(...String(d).split('\n').filter(Boolean));
    if (lines.length > 400) lines.splice(0, lines.length - 400);
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
};

const startInstance = (inst: { name: string; port: number }) => {
  // the production bundle (npm run build:server), as deploy/production runs it
  const child = spawn(process.execPath, ['apps/server/dist/main.mjs'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(inst.port),
      HOST: '127.0.0.1',
      INSTANCE_ID: inst.name,
      DATABASE_URL: dbUrl,
      REDIS_URL,
      DATA_DIR: join(work, 'data'),
      DEMO_HISTORY: '0',
      TELEPHONY: 'sim',
      SIM_SPEED: '1',
      SIM_TALK_SECONDS: '600',
      TRUST_PROXY: 'loopback',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  keepLog(inst.name, child);
  return child;
};

const ready = (port: number) =>
  waitFor(`instance on ${port} ready`, async () => (await fetch(`${url(port)}/api/health/ready`)).status === 200, 180_000);

const startNginx = () => {
  const shipped = readFileSync(join(ROOT, 'deploy/production/nginx-crm.conf'), 'utf8');
  const site = shipped
    .replace('listen 80;', `listen 127.0.0.1:${PORT_BASE};`)
    .replace('server 127.0.0.1:3001', `server 127.0.0.1:${A.port}`)
    .replace('server 127.0.0.1:3002', `server 127.0.0.1:${B.port}`);
  if (!site.includes(`:${A.port}`) || !site.includes(`:${B.port}`)) fail('nginx-crm.conf: upstream lines not found');
  writeFileSync(join(work, 'crm-site.conf'), site);
  writeFileSync(
    join(work, 'nginx.conf'),
    [
      'worker_processes 1;',
      `pid ${join(work, 'nginx.pid')};`,
      `error_log ${join(work, 'nginx-error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      `  access_log ${join(work, 'nginx-access.log')};`,
      `  client_body_temp_path ${join(work, 'nginx-body')};`,
      `  proxy_temp_path ${join(work, 'nginx-proxy')};`,
      `  include ${join(work, 'crm-site.conf')};`,
      '}',
    ].join('\n'),
  );
  execFileSync('nginx', ['-t', '-p', work, '-c', join(work, 'nginx.conf')], { stdio: 'pipe' });
  const child = spawn('nginx', ['-p', work, '-c', join(work, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  keepLog('nginx', child);
};

type Frame = { msg_type: number; data?: { uuid?: string; event?: string } };
const callSocket = async (base: string, token: string) => {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/ws/call`);
  const frames: Frame[] = [];
  ws.on('message', (d) => frames.push(JSON.parse(String(d)) as Frame));
  await new Promise<void>((res, rej) => {
    ws.once('open', () => res());
    ws.once('error', rej);
  });
  const next = (match: (f: Frame) => boolean, what: string, timeoutMs = 15_000) =>
    waitFor(what, async () => frames.find(match), timeoutMs);
  await next((f) => f.msg_type === 0, 'the socket asks for a login');
  ws.send(JSON.stringify({ type: 'login', token }));
  await next((f) => f.msg_type === 1, 'the socket login is accepted');
  const beat = setInterval(() => ws.send(JSON.stringify({ type: 'heartbeat' })), 10_000);
  ws.on('close', () => clearInterval(beat));
  return { ws, frames, next };
};

const api = async (base: string, path: string, token: string | null, body?: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? { authorization: token } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; msg: string; data: Record<string, unknown> };
  if (json.code !== 0) fail(`${path}: ${res.status} ${json.code} ${json.msg}`);
  return json.data;
};

const main = async () => {
  step(`database ${dbName}, files in ${work}`);
  psql(`create database ${dbName}`, adminUrl);

  step('the production bundle (npm run build:server)');
  execFileSync(process.execPath, [join(ROOT, 'apps/server/build.mjs')], { stdio: 'inherit' });

  step('instance A (seeds the demo company), then instance B');
  const a = startInstance(A);
  await ready(A.port);
  startInstance(B);
  await ready(B.port);

  step('nginx in front of both (deploy/production/nginx-crm.conf)');
  startNginx();
  await waitFor('nginx answers /api/health/ready', async () => (await fetch(`${PROXY}/api/health/ready`)).status === 200, 20_000);
  for (let i = 0; i < 10; i++) {
    const res = await fetch(`${PROXY}/api/health/ready`);
    if (res.status !== 200) fail(`through nginx: ready answered ${res.status}`);
  }
  const metrics = await fetch(`${PROXY}/metrics`);
  if (metrics.status !== 404) fail(`/metrics through nginx answered ${metrics.status} (must not be proxied)`);

  const token = (await api(PROXY, '/api/frontend/login', null, { username: 'lisi', password: 'demo123456' })).token as string;
  await api(PROXY, '/api/frontend/call/sipdefaultregisterStatus', token, { registerStatus: 1 });

  step('the call socket through nginx (WebSocket upgrade)');
  const proxied = await callSocket(PROXY, token);
  proxied.ws.close();

  step("李四's call socket on B; a call placed by A reaches it");
  const onB = await callSocket(url(B.port), token);
  const call = (await api(url(A.port), '/api/frontend/call/dial', token, { dstNumber: '13977000011' })) as { uuid: string };
  const event = (name: string) => (f: Frame) => f.msg_type === 4 && f.data?.uuid === call.uuid && f.data?.event === name;
  await onB.next(event('answered'), 'B hears the answer of the call A placed', 30_000);
  const owner = psql(`select owner_instance from call_records where uuid = '${call.uuid}'`);
  if (owner !== A.name) fail(`the call is owned by ${owner || 'nobody'}, not ${A.name}`);

  step('an export queued on A, then kill -9 of A while the call is answered');
  const admin = (await api(PROXY, '/api/frontend/login', null, { username: 'admin', password: 'demo123456' })).token as string;
  const { jobId } = (await api(url(A.port), '/api/frontend/customer/allotexportlist', admin, { page: 1, limit: 20 })) as {
    jobId: string;
  };
  a.kill('SIGKILL');
  const killedAt = Date.now();

  step('nginx keeps answering through B');
  for (let i = 0; i < 10; i++) {
    const res = await fetch(`${PROXY}/api/frontend/user/info`, { headers: { authorization: token } });
    if (res.status !== 200) fail(`through nginx after the kill: ${res.status}`);
  }

  step("B's sweep ends A's call, and B runs the job");
  await onB.next(event('ended'), "the socket on B hears the end of A's call", 120_000);
  const state = psql(`select state from call_records where uuid = '${call.uuid}'`);
  if (state !== '3') fail(`the call record is in state ${state}, not ended (3)`);
  const endedAfter = ((Date.now() - killedAt) / 1000).toFixed(1);
  const job = await waitFor(
    'the export job finishes on B',
    async () => {
      const info = (await api(url(B.port), `/api/frontend/customer/job?jobId=${jobId}`, admin)) as {
        status: string;
        fileUrl: string;
        error: string;
      };
      if (info.status === 'failed') fail(`the export job failed: ${info.error}`);
      return info.status === 'done' && info;
    },
    180_000,
  );
  const file = await fetch(`${PROXY}${job.fileUrl}`, { headers: { authorization: admin } });
  if (file.status !== 200) fail(`the export's file answered ${file.status}`);
  onB.ws.close();
  console.log(`ok: call ended ${endedAfter} s after the kill; export done (${job.fileUrl.split('/').pop()})`);

  step('backup.sh while B runs, restore.sh into a new database: the same rows and files');
  const env = { ...process.env, CRM_ENV_FILE: '/nonexistent', DATABASE_URL: dbUrl, DATA_DIR: join(work, 'data') };
  const out = execFileSync('bash', [join(ROOT, 'deploy/production/backup.sh'), join(work, 'backups')], { env, encoding: 'utf8' });
  const backup = out.trim().split('\n').pop() ?? fail('backup.sh named no backup');
  psql(`create database ${dbName}_restored`, adminUrl);
  const restoredUrl = dbUrl.replace(`/${dbName}`, `/${dbName}_restored`);
  execFileSync('bash', [join(ROOT, 'deploy/production/restore.sh'), backup], {
    env: { ...env, DATABASE_URL: restoredUrl, DATA_DIR: join(work, 'restored') },
    stdio: 'pipe',
  });
  const counts = (target: string) =>
    psql('select (select count(*) from customers), (select count(*) from call_records), (select count(*) from files)', target);
  if (counts(restoredUrl) !== counts(dbUrl)) fail(`restored rows ${counts(restoredUrl)} ≠ ${counts(dbUrl)}`);
  const exported = job.fileUrl.split('/').pop() ?? '';
  execFileSync('bash', ['-c', `find "${join(work, 'restored', 'files')}" -name '${exported}' | grep -q .`]);
  console.log(
    `ok: restored ${counts(restoredUrl).replaceAll('|', ' / ')} customers / calls / files, the export's file among them`,
  );
};

const cleanup = async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
  await sleep(1500);
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  try {
    psql(`drop database if exists ${dbName} with (force)`, adminUrl);
    psql(`drop database if exists ${dbName}_restored with (force)`, adminUrl);
  } catch (e) {
    console.error(`could not drop ${dbName}: ${(e as Error).message}`);
  }
  rmSync(work, { recursive: true, force: true });
};

try {
  await main();
  await cleanup();
  process.exit(0);
} catch (e) {
  console.error(`FAILED: ${(e as Error).message}`);
  for (const [name, lines] of logs) console.error(`--- ${name} (last lines)\n${lines.slice(-30).join('\n')}`);
  await cleanup();
  process.exit(1);
}
