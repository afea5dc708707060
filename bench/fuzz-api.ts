/**
 * Issue 11 hole 7: fuzzes every route of the API in-process (app.inject on a fresh in-memory
 * PGlite, or on DATABASE_URL's server) and prints the requests sent and the 5xx answers.
 *
 *   npx tsx bench/fuzz-api.ts            # full set, as admin and as a sales user
 *   npx tsx bench/fuzz-api.ts quick      # the smaller set the API test uses
 */
import { buildRecorded, type FuzzLevel, runFuzz } from '../apps/server/src/test/fuzz';
import { createTestApp, DEMO_PASSWORD } from '../apps/server/src/test/harness';

const level: FuzzLevel = process.argv[2] === 'quick' ? 'quick' : 'full';
const started = Date.now();
const { built: t, routes, errors } = await buildRecorded(() => createTestApp());
try {
  const report = await runFuzz(t, routes, errors, {
    level,
    users: ['admin', 'lisi'],
    password: DEMO_PASSWORD,
    onProgress: (done, route) =>
      process.stderr.write(`\r${String(done).padStart(7)} requests  ${route.method} ${route.url}`.padEnd(100)),
  });
  process.stderr.write('\n');
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`level: ${level}; users: admin (all data), lisi (sales, own data)`);
  console.log(`routes fuzzed: ${report.routes} (of ${routes.length} declared, websockets and non-/api excluded)`);
  console.log(`requests: ${report.requests} in ${seconds} s`);
  console.log(`answers by status: ${JSON.stringify(report.byStatus)}`);
  console.log(`5xx answers: ${report.serverErrors}`);
  console.log(`4xx refused by the database, not the contracts (last line of defence): ${report.refusedByDatabase.length}`);
  for (const f of report.refusedByDatabase.slice(0, 20))
    console.log(`  ${f.status} ${f.method} ${f.url.split('?')[0]} [${f.user}] ${f.label}: SQLSTATE ${f.error}`);
  const seen = new Set<string>();
  for (const f of report.failures) {
    const key = `${f.method} ${f.url.split('?')[0]} ${f.label.split('=')[0]} ${f.error}`;
    if (seen.has(key)) continue;
    seen.add(key);
    console.log(`  ${f.status} ${f.method} ${f.url.split('?')[0]} [${f.user}] ${f.label}: ${f.error}`);
  }
} finally {
  await t.close();
}
