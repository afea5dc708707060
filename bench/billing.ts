/**
 * Billing benchmark (issue 27): rating call records and the dial-time credit check. Runs on a fresh
 * database through the app's own services: embedded PGlite by default, or a new database on
 * DATABASE_URL's server (dropped at the end).
 *
 *   npx tsx bench/billing.ts [calls=1000000] [batch=2000] [dials=2000]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/billing.ts 1000000
 *
 * 1. Rating: `calls` ended calls of the demo company are written pending (as the call.ended reaction
 *    writes them, in SQL chunks of 100,000, then `analyze`d as autovacuum would), then rated by
 *    rateTenantBatch (the job's unit: one transaction of four statements per `batch` calls, the
 *    settling one set-based) until none is left; the app's own rating job is stopped. Prints
 *    calls/s and the process RSS after each chunk (constant memory: nothing grows with the number
 *    of calls), and checks that the ledger sums to the balance. Goal: > 5,000 calls/s on one core.
 * 2. Dial credit check: `dials` transactions like the dial's (insert-free), each timing
 *    reserveForDial alone (one statement: the plan in force checked against the cached one, the
 *    balance row's conditional update, the reservation).
 *    Goal: p95 < 2 ms. Never part of npm test.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client';
import * as repo from '../apps/server/src/modules/billing/billing.repo';
import {
  assignPlan,
  createPlan,
  rateTenantBatch,
  recharge,
  reserveForDial,
} from '../apps/server/src/modules/billing/billing.service';
import { RATE_QUEUE } from '../apps/server/src/modules/billing/billing-rating-job';
import { createTestApp } from '../apps/server/src/test/harness';
import { summarise } from './lib';

const CALLS = Number(process.argv[2] ?? 1_000_000);
const BATCH = Number(process.argv[3] ?? 2000);
const DIALS = Number(process.argv[4] ?? 2000);
const CHUNK = 100_000;

const t = await createTestApp({ config: { logLevel: 'silent' } });
// the bench rates by hand: the app's own rating job (its minute's schedule) must not take its calls
await t.app.queue.boss.offWork(RATE_QUEUE);
const db = t.database.db;
const kind = t.database.kind;
const tenant = (await queryRows<{ id: number }>(db, sql`select id from tenants where is_demo limit 1`))[0].id;
const staffIds = (await queryRows<{ id: number }>(db, sql`select id from staff where tenant_id = ${tenant}`)).map((r) => r.id);
const rate = { connect_fee: 0, first_block: 6, increment: 6, price_per_minute: 700, charge_unanswered: false };
const planId = await createPlan(db, {
  name: '压测资费',
  rates: { manual: rate, task: rate, group: rate, ai: rate, inbound: rate },
});
await assignPlan(db, {
  company: tenant,
  plan_id: planId,
  effective_from: new Date(Date.now() - 400 * 86_400_000).toISOString(),
  operator: 'bench',
});
await recharge(db, {
  company: tenant,
  amount: 90_000_000_000,
  bonus: 0,
  channel: '对公转账',
  ref: 'bench',
  operator: 'bench',
  remark: '',
});
const rssMb = () => Math.round(process.memoryUsage().rss / 1048576);
console.log(`billing bench on ${kind}: ${CALLS} calls, batch ${BATCH}; RSS at start ${rssMb()} MB`);

let rated = 0;
let ratingMs = 0;
for (let done = 0; done < CALLS; done += CHUNK) {
  const n = Math.min(CHUNK, CALLS - done);
  // n ended calls over the last year: a quarter unanswered, talk 0–299 s, kinds and staff mixed
  await db.execute(sql`
    insert into billing_call_usage (call_uuid, tenant_id, kind, staff_id, call_type, caller, callee, start_at, answer_at, end_at, duration)
    select 'bench-' || (${done}::int + g), ${tenant},
           (array['manual','task','group','ai','inbound'])[1 + g % 5], (${`{${staffIds.join(',')}}`}::int[])[1 + g % ${staffIds.length}],
           case when g % 5 = 4 then 4 else 1 end, '0206666' || (g % 10), '139' || lpad((g % 100000000)::text, 8, '0'),
           now() - (g % 360) * interval '1 day' - interval '10 minutes',
           case when g % 4 = 0 then null else now() - (g % 360) * interval '1 day' - interval '9 minutes' end,
           now() - (g % 360) * interval '1 day', case when g % 4 = 0 then 0 else g % 300 end
    from generate_series(1, ${n}::int) g`);
  // the statistics autovacuum keeps after a bulk load (a fresh table's guess plans the take as a sort of every pending call)
  await db.execute(sql`analyze billing_call_usage`);
  const t0 = performance.now();
  for (;;) {
    const r = await rateTenantBatch(db, tenant, BATCH);
    if (r.rated === 0) break;
    rated += r.rated;
  }
  ratingMs += performance.now() - t0;
  console.log(`  rated ${rated.toLocaleString()} calls, ${Math.round(rated / (ratingMs / 1000))} calls/s, RSS ${rssMb()} MB`);
}
const bal = await repo.readBalance(db, tenant);
const { sum, count } = await repo.ledgerSum(db, tenant);
console.log(
  `rating: ${rated} calls in ${(ratingMs / 1000).toFixed(1)} s = ${Math.round(rated / (ratingMs / 1000))} calls/s; ledger rows ${count}, ledger sum ${sum} ${sum === bal.balance ? '=' : '≠'} balance ${bal.balance}`,
);

// the dial-time credit check
const times: number[] = [];
const base: number[] = [];
for (let i = 0; i < DIALS; i++) {
  const callUuid = randomUUID();
  await db.transaction(async (tx) => {
    const a = performance.now();
    await tx.execute(sql`select 1`);
    base.push(performance.now() - a);
    const s = performance.now();
    await reserveForDial(tx, { tenantId: tenant, callUuid, kind: 'manual', at: new Date() });
    times.push(performance.now() - s);
  });
}
const s = summarise(times);
const b = summarise(base);
console.log(
  `dial credit check (${DIALS}): p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms (one trivial query in the same transaction: p95 ${b.p95.toFixed(2)} ms)`,
);
console.log(`RSS at end ${rssMb()} MB`);
await t.close();
