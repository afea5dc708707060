/**
 * p50/p95/p99 latency of minelist and allotlist over HTTP for three filter mixes, and the
 * export of ~100,000 rows (seconds, server peak memory). Run after bench/seed-customers.ts:
 *
 *   npx tsx bench/list-latency.ts [requestsPerMix=60] [--export-only | --lists-only]
 */

import os from 'node:os';
import pg from 'pg';
import { BENCH_DB, login, peakRssKb, rssKb, startServer, summarise } from './lib';

const args = process.argv.slice(2);
const exportOnly = args.includes('--export-only');
const listsOnly = args.includes('--lists-only');
const perMix = Number(args.find((a) => /^\d+$/.test(a)) ?? 60);
const PORT = Number(process.env.BENCH_PORT ?? 3950);

const db = new pg.Client({ connectionString: BENCH_DB });
await db.connect();
const tenant = (await db.query(`select id from tenants where is_demo limit 1`)).rows[0].id;
const controls = Object.fromEntries(
  (await db.query(`select id, name from template_controls where tenant_id = $1`, [tenant])).rows.map((r) => [r.name, r.id]),
);
const stage = (await db.query(`select id from stages where tenant_id = $1 order by id limit 1 offset 1`, [tenant])).rows[0].id;
const tag = (await db.query(`select id from labels where tenant_id = $1 and pid <> 0 order by id limit 1`, [tenant])).rows[0].id;
const total = Number((await db.query(`select count(*) from customers where tenant_id = $1`, [tenant])).rows[0].count);
await db.end();

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
const mixes: Record<string, object> = {
  'no filter': {},
  'stage + tag + created range': { cmNid: stage, cmClids: [tag], createTime: [day(-365), day(0)] },
  'control value + name contains': { templateControls: [{ cbTacid: controls['行业'], dmValue: ['互联网'] }], name: '华信' },
};

const { child, base } = await startServer(PORT);
try {
  const tokens = { lisi: await login(base, 'lisi'), admin: await login(base, 'admin') };
  const post = async (token: string, path: string, body: object) => {
    const t = performance.now();
    const r = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const j = (await r.json()) as { code: number; msg: string; data: { count: number; jobId?: string } };
    if (j.code !== 0) throw new Error(`${path}: ${j.msg}`);
    return { ms: performance.now() - t, data: j.data };
  };
  console.log(`customers in the demo company: ${total}`);
  console.log('| list | filter mix | rows matched | p50 ms | p95 ms | p99 ms | max ms |');
  console.log('|---|---|---|---|---|---|---|');
  for (const [list, who] of exportOnly
    ? []
    : ([
        ['minelist', 'lisi'],
        ['allotlist', 'admin'],
      ] as const)) {
    for (const [name, filters] of Object.entries(mixes)) {
      const times: number[] = [];
      let matched = 0;
      for (let i = 0; i < perMix + 5; i++) {
        // Vary the page like a person paging through results.
        const { ms, data } = await post(tokens[who], `/api/frontend/customer/${list}`, {
          ...filters,
          page: 1 + (i % 5),
          limit: 20,
        });
        matched = data.count;
        if (i >= 5) times.push(ms);
      }
      const s = summarise(times);
      console.log(
        `| ${list} (${who}) | ${name} | ${matched}${matched >= 100_000 ? '+' : ''} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.p99.toFixed(1)} | ${s.max.toFixed(1)} |`,
      );
    }
  }

  console.log(`load average (1 min) at the end of the lists: ${os.loadavg()[0].toFixed(1)}`);
  // Export of about 100,000 rows: the newest customers by creation time.
  if (!listsOnly) {
    const exportFilter = { createTime: [day(-73), day(0)] };
    const rssBefore = await peakRssKb(child.pid as number);
    const loadBefore = os.loadavg()[0];
    const t0 = performance.now();
    const { data } = await post(tokens.admin, '/api/frontend/customer/allotexportlist', exportFilter);
    let job: { status: string; processed: number; total: number; error: string } = {
      status: 'running',
      processed: 0,
      total: 0,
      error: '',
    };
    // the server's resident memory every ~5 s while the export runs (MB)
    const timeline: number[] = [];
    for (let polls = 0; job.status === 'running'; polls++) {
      await new Promise((r) => setTimeout(r, 250));
      if (polls % 20 === 0) timeline.push(Math.round((await rssKb(child.pid as number)) / 1024));
      const r = await fetch(`${base}/api/frontend/customer/job?jobId=${data.jobId}`, {
        headers: { authorization: tokens.admin },
      });
      job = ((await r.json()) as { data: typeof job }).data;
    }
    const seconds = (performance.now() - t0) / 1000;
    const rssAfter = await peakRssKb(child.pid as number);
    console.log(
      `\nexport: ${job.status} ${job.total} rows in ${seconds.toFixed(1)} s; server peak RSS ${(rssBefore / 1024).toFixed(0)} MB before, ${(rssAfter / 1024).toFixed(0)} MB after${job.error ? ` (${job.error})` : ''}; load average ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end`,
    );
    console.log(`server RSS every 5 s during the export (MB): ${timeline.join(' ')}`);
  }
} finally {
  child.kill();
}
