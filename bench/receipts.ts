/**
 * Receipt benchmark (issue 14): the receipt summary of a customer with 200 plans and 2,000 receipts,
 * and 回款管理's lists at 100,000 receipts. Runs the real app in-process (routes, auth, zod, service,
 * SQL, serialisation) on a fresh database: embedded PGlite by default, or a new database on
 * DATABASE_URL's server.
 *
 *   npx tsx bench/receipts.ts [receipts] [requests]
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/receipts.ts
 *
 * Budget: p95 under 50 ms. Prints a table; never part of npm test.
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client';
import { createTestApp } from '../apps/server/src/test/harness';
import { summarise } from './lib';

const RECEIPTS = Number(process.argv[2] ?? 100_000);
const REQUESTS = Number(process.argv[3] ?? 60);

const t = await createTestApp({ config: { logLevel: 'silent' } });
const db = t.database.db;
const kind = t.database.kind;
const tenant = (await queryRows<{ id: number }>(db, sql`select id from tenants where is_demo limit 1`))[0].id;
const staffRows = await queryRows<{ id: number; username: string }>(
  db,
  sql`select id, username from staff where tenant_id = ${tenant}`,
);
const lisi = staffRows.find((s) => s.username === 'lisi')?.id ?? 0;
const owners = `{${staffRows.map((s) => s.id).join(',')}}`;
const t0 = Date.now();

// one customer of lisi: 20 approved orders, 200 plans (10 each), 2,000 receipts (10 per plan)
const [mine] = await queryRows<{ id: number }>(
  db,
  sql`insert into customers (tenant_id, template_id, name, owner_id, creator_id)
      select ${tenant}, template_id, '回款压测客户', ${lisi}, ${lisi} from customers where tenant_id = ${tenant} limit 1 returning id`,
);
await db.execute(sql`
  with o as (
    insert into orders (tenant_id, customer_id, owner_id, creator_id, amount, product_names, verify_status, deal_at, created_at)
    select ${tenant}, ${mine.id}, ${lisi}, ${lisi}, 100000000, '智能质检模块', 1, now(), now() from generate_series(1, 20)
    returning id
  ), p as (
    insert into receipt_plans (tenant_id, order_id, customer_id, owner_id, creator_id, amount, plan_at, created_at)
    select ${tenant}, o.id, ${mine.id}, ${lisi}, ${lisi}, 10000000, current_date + (g - 5), now()
    from o, generate_series(1, 10) g returning id, order_id
  )
  insert into receipts (tenant_id, order_id, plan_id, customer_id, owner_id, creator_id, amount, repayment_at, pay_type, created_at)
  select ${tenant}, p.order_id, p.id, ${mine.id}, ${lisi}, ${lisi}, 100000, current_date, 1 + g % 4, now() - g * interval '1 minute'
  from p, generate_series(1, 10) g`);

// the company: RECEIPTS receipts over RECEIPTS / 2 plans of RECEIPTS / 10 orders, owners spread over the demo staff
const ORDERS = Math.max(1, Math.floor(RECEIPTS / 10));
await db.execute(sql`
  with c as (select array_agg(id) as ids from customers where tenant_id = ${tenant} and id <> ${mine.id}),
  o as (
    insert into orders (tenant_id, customer_id, owner_id, creator_id, amount, product_names, verify_status, deal_at, created_at)
    select ${tenant}, c.ids[1 + g % array_length(c.ids, 1)], (${owners}::int[])[1 + g % ${staffRows.length}],
           (${owners}::int[])[1 + g % ${staffRows.length}], 10000000, '智能质检模块', 1, now(), now() - g * interval '1 minute'
    from generate_series(1, ${ORDERS}::int) g, c returning id, customer_id, owner_id
  ), p as (
    insert into receipt_plans (tenant_id, order_id, customer_id, owner_id, creator_id, amount, plan_at, created_at)
    select ${tenant}, o.id, o.customer_id, o.owner_id, o.owner_id, 2000000, current_date + ((o.id * 7 + g) % 120 - 60), now()
    from o, generate_series(1, 5) g returning id, order_id, customer_id, owner_id
  )
  insert into receipts (tenant_id, order_id, plan_id, customer_id, owner_id, creator_id, amount, repayment_at, pay_type, created_at)
  select ${tenant}, p.order_id, p.id, p.customer_id, p.owner_id, p.owner_id, 100000 * g, current_date - (p.id % 90), 1 + (p.id + g) % 4,
         now() - (p.id % 100000) * interval '1 second'
  from p, generate_series(1, 2) g`);
// what the service keeps under each plan's lock: the sum of its counted receipts
await db.execute(sql`
  update receipt_plans p set repaid_amount = s.amount
  from (select plan_id, sum(amount)::int as amount from receipts where tenant_id = ${tenant} and verify_status in (-1, 1) group by plan_id) s
  where s.plan_id = p.id`);
for (const table of ['orders', 'receipt_plans', 'receipts']) await db.execute(sql.raw(`vacuum analyze ${table}`));
const seedMs = Date.now() - t0;

const tokens: Record<string, string> = {};
for (const u of ['admin', 'lisi']) tokens[u] = await t.login(u);
const rows: { measure: string; n: number; p50: number; p95: number; p99: number; max: number; count?: number }[] = [];
const mix = async (
  measure: string,
  user: string,
  url: string,
  countOf: (d: { count?: number; plan_collection?: unknown[] }) => number,
) => {
  const first = (await t.get(url, tokens[user])).json();
  if (first.code !== 0) throw new Error(`${url}: ${JSON.stringify(first).slice(0, 200)}`);
  for (let i = 0; i < 10; i++) await t.get(url, tokens[user]);
  const ms: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const s = performance.now();
    const res = await t.get(url, tokens[user]);
    ms.push(performance.now() - s);
    if (res.statusCode !== 200) throw new Error(res.body.slice(0, 200));
  }
  rows.push({ measure, ...summarise(ms), count: countOf(first.data) });
};

await mix(
  'summary: one customer, 200 plans, 2,000 receipts',
  'lisi',
  `/api/frontend/receipt/summary?customer_id=${mine.id}`,
  (d) => d.plan_collection?.length ?? 0,
);
await mix('回款管理 receipts, admin (all), page 1', 'admin', '/api/frontend/receipt/list?limit=10', (d) => d.count ?? 0);
await mix('回款管理 receipts, lisi (own scope), page 1', 'lisi', '/api/frontend/receipt/list?limit=10', (d) => d.count ?? 0);
await mix('回款管理 plans, admin (all), page 1', 'admin', '/api/frontend/receipt/planlist?limit=10', (d) => d.count ?? 0);
await mix('回款管理 plans, admin, 已逾期', 'admin', '/api/frontend/receipt/planlist?limit=10&status=3', (d) => d.count ?? 0);
await mix('回款管理 plans, admin, 未回款', 'admin', '/api/frontend/receipt/planlist?limit=10&status=0', (d) => d.count ?? 0);
await mix(
  '回款管理 plans, lisi (own scope), 部分回款',
  'lisi',
  '/api/frontend/receipt/planlist?limit=10&status=1',
  (d) => d.count ?? 0,
);
await mix('回款管理 figures, admin (all)', 'admin', '/api/frontend/receipt/stats', () => 0);

const total = (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from receipts where tenant_id = ${tenant}`))[0].n;
console.log(`\n${kind}: ${total} receipts (seeded in ${(seedMs / 1000).toFixed(1)} s), ${REQUESTS} requests per mix\n`);
const f = (n: number) => n.toFixed(1).padStart(7);
console.log('| measure | rows | n | p50 ms | p95 ms | p99 ms | max ms |\n|---|---|---|---|---|---|---|');
for (const r of rows)
  console.log(`| ${r.measure} | ${r.count ?? ''} | ${r.n} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${f(r.max)} |`);
await t.close();
process.exit(0);
