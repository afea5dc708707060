/**
 * Bytes of JavaScript a browser downloads for the login page and then for the workbench (issue 23.3).
 *
 *   npx tsx bench/static-size.ts [baseUrl]
 *
 * Without a base URL it starts the real server on a fresh PGlite data directory (the built SPA of
 * WEB_DIST, default apps/web/dist; run `npm run build` first) on port STATIC_BENCH_PORT (4610).
 * The system Chromium asks with `Accept-Encoding: br, gzip` (Chromium offers brotli only over HTTPS,
 * the header makes it ask over plain HTTP too; ACCEPT_ENCODING=gzip or identity for the others); each response's transferred body size is counted
 * (`request.sizes().responseBodySize`, the bytes on the wire) next to its decoded size.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page, type Response } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';

const ACCEPT_ENCODING = process.env.ACCEPT_ENCODING ?? 'br, gzip';

type Row = { url: string; encoding: string; wire: number; decoded: number };

const startServer = async (port: number) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'static-bench-'));
  const child = spawn('node', ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      DEMO_HISTORY: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { base, stop: () => child.kill(), dataDir };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill();
  throw new Error('server did not start');
};

/** Records every script response of the page from now on. */
const recordScripts = (page: Page) => {
  const rows: Row[] = [];
  const pending: Promise<void>[] = [];
  const onResponse = (res: Response) => {
    const url = new URL(res.url());
    if (!url.pathname.endsWith('.js')) return;
    pending.push(
      (async () => {
        const [sizes, body] = await Promise.all([res.request().sizes(), res.body().catch(() => Buffer.alloc(0))]);
        rows.push({
          url: url.pathname,
          encoding: res.headers()['content-encoding'] ?? 'identity',
          wire: sizes.responseBodySize,
          decoded: body.length,
        });
      })(),
    );
  };
  page.on('response', onResponse);
  return async () => {
    page.off('response', onResponse);
    await Promise.all(pending);
    return rows;
  };
};

const total = (rows: Row[]) => ({
  files: rows.length,
  wire: rows.reduce((s, r) => s + r.wire, 0),
  decoded: rows.reduce((s, r) => s + r.decoded, 0),
});

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

const main = async () => {
  const server = process.argv[2]
    ? { base: process.argv[2].replace(/\/$/, ''), stop: () => undefined, dataDir: '' }
    : await startServer(Number(process.env.STATIC_BENCH_PORT ?? 4610));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({
      viewport: { width: 1366, height: 768 },
      locale: 'zh-CN',
      extraHTTPHeaders: { 'Accept-Encoding': ACCEPT_ENCODING },
    });
    const page = await context.newPage();

    let stop = recordScripts(page);
    await page.goto(`${server.base}/login`, { waitUntil: 'networkidle' });
    const login = await stop();

    stop = recordScripts(page);
    await page.getByPlaceholder('账号或手机号').fill('admin');
    await page.getByPlaceholder('密码').fill(process.env.DEMO_PASSWORD ?? 'demo123456');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL(/\/home\/Index/);
    // the chart 近30天我新增的客户 mounts once the summary is in; ECharts loads then
    await page.locator('canvas').first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const workbench = await stop();

    for (const [name, rows] of [
      ['login page', login],
      ['workbench (after the login page)', workbench],
    ] as const) {
      const t = total(rows);
      console.log(`\n${name}: ${t.files} JS files, ${kb(t.wire)} transferred, ${kb(t.decoded)} decoded`);
      for (const r of [...rows].sort((a, b) => b.wire - a.wire).slice(0, 12)) {
        console.log(`  ${kb(r.wire).padStart(10)} ${r.encoding.padEnd(8)} ${kb(r.decoded).padStart(10)}  ${r.url}`);
      }
    }
    console.log(
      JSON.stringify({
        loginWireBytes: total(login).wire,
        loginDecodedBytes: total(login).decoded,
        workbenchWireBytes: total(workbench).wire,
        workbenchDecodedBytes: total(workbench).decoded,
      }),
    );
  } finally {
    await browser.close();
    server.stop();
    if (server.dataDir) fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
};

await main();
