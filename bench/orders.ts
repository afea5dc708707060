/**
 * Deal-order benchmark (issue 13): the order list at 100,000 orders and approve/reject latency.
 * Runs the real app in-process (routes, auth, zod, service, SQL, serialisation; no socket) on a
 * fresh database: embedded PGlite by default, or a new database on DATABASE_URL's server.
 *
 *   npx tsx bench/orders.ts                                                   # PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/orders.ts   # PostgreSQL
 *
 * Budget: p95 under 50 ms for the list and for approve/reject. Prints a table; never part of npm test.
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client';
import { createTestApp } from '../apps/server/src/test/harness';
import { summarise } from './lib';

const ORDERS = Number(process.argv[2] ?? 100_000);
const REQUESTS = Number(process.argv[3] ?? 60);
const ACTIONS = Number(process.argv[4] ?? 100);

const t = await createTestApp({ config: { logLevel: 'silent' } });
const db = t.database.db;
const kind = t.database.kind;
const tenant = (await queryRows<{ id: number }>(db, sql`select id from tenants where is_demo limit 1`))[0].id;
const staffRows = await queryRows<{ id: number; username: string }>(
  db,
  sql`select id, username from staff where tenant_id = ${tenant}`,
);
const staffId = (u: string) => staffRows.find((s) => s.username === u)?.id ?? 0;
const product = (
  await queryRows<{ id: number; name: string }>(
    db,
    sql`select id, name from products where tenant_id = ${tenant} and code = 'QC-001'`,
  )
)[0];

// ---------- seed: ORDERS orders over the last year, owners spread over the five demo staff ----------
const t0 = Date.now();
const owners = `{${staffRows.map((s) => s.id).join(',')}}`;
const CHUNK = 20_000;
for (let from = 1; from <= ORDERS; from += CHUNK) {
  const to = Math.min(ORDERS, from + CHUNK - 1);
  await db.execute(sql`
    with c as (select array_agg(id) as ids from customers where tenant_id = ${tenant}),
    o as (
      insert into orders (tenant_id, customer_id, owner_id, creator_id, contact_phone, attr, amount, is_below_min, product_names,
                          verify_status, deal_at, created_at)
      select ${tenant}, c.ids[1 + (g % array_length(c.ids, 1))], (${owners}::int[])[1 + (g % ${staffRows.length})],
             (${owners}::int[])[1 + (g % ${staffRows.length})], '139' || lpad((g % 100000000)::text, 8, '0'),
             jsonb_build_object('2', to_char(now() - (g % 365) * interval '1 day', 'YYYY-MM-DD'), '5', '微信'),
             1000 * (100 + (g * 7919) % 50000), (g % 10 = 0)::int, ${product.name},
             (array[-1, 0, 1, 1, 1, 2, 3])[1 + g % 7], now() - (g % 365) * interval '1 day',
             now() - (g % 365) * interval '1 day' - (g % 86400) * interval '1 second'
      from generate_series(${from}::int, ${to}::int) g, c
      returning id, amount
    )
    insert into order_lines (tenant_id, order_id, product_id, product_name, deal_price, cost, minimum_price, qty, total)
    select ${tenant}, o.id, ${product.id}, ${product.name}, o.amount, 0, 0, 1, o.amount from o`);
}
// lisi collaborates on 50 orders of others (the list shows his own plus these)
await db.execute(sql`insert into order_cooperators (tenant_id, order_id, staff_id)
  select ${tenant}, id, ${staffId('lisi')} from orders where tenant_id = ${tenant} and owner_id <> ${staffId('lisi')} order by id limit 50`);
// the steady state autovacuum keeps (visibility map set, statistics fresh)
await db.execute(sql`vacuum analyze orders`);
await db.execute(sql`vacuum analyze order_lines`);
const seedMs = Date.now() - t0;

const tokens: Record<string, string> = {};
for (const u of ['admin', 'zhangsan', 'lisi']) tokens[u] = await t.login(u);

const time = async (fn: () => Promise<{ statusCode: number; body: string }>) => {
  const s = performance.now();
  const res = await fn();
  const ms = performance.now() - s;
  if (res.statusCode !== 200 || !res.body.startsWith('{"code":0')) throw new Error(`failed: ${res.body.slice(0, 200)}`);
  return ms;
};
const rows: { measure: string; n: number; p50: number; p95: number; p99: number; max: number; count?: number }[] = [];
const listMix = async (measure: string, user: string, query: string, pageBase = 1) => {
  const url = (page: number) => `/api/frontend/order/list?limit=10&page=${pageBase - 1 + page}${query}`;
  const first = (await t.get(url(1), tokens[user])).json().data.count as number;
  for (let i = 0; i < 20; i++) await t.get(url(1 + (i % 5)), tokens[user]);
  const ms: number[] = [];
  for (let i = 0; i < REQUESTS; i++) ms.push(await time(() => t.get(url(1 + (i % 5)), tokens[user])));
  rows.push({ measure, ...summarise(ms), count: first });
};

await listMix('admin (all), no filter', 'admin', '');
await listMix('lisi (own scope + collaborations)', 'lisi', '');
await listMix('zhangsan (department tree), 已通过', 'zhangsan', '&verify_status=1');
await listMix(
  'admin, deal range + amount range',
  'admin',
  '&deal_start=2026-09-01&deal_end=2026-10-31&amount_min=1000000&amount_max=20000000',
);
await listMix('admin, keyword matching every order (product name)', 'admin', `&keyword=${encodeURIComponent('智能')}`);
const oneCustomer = (
  await queryRows<{ name: string }>(
    db,
    sql`select name from customers where tenant_id = ${tenant} and name <> '' order by id limit 1`,
  )
)[0].name;
await listMix(`admin, keyword = one customer's name (${oneCustomer})`, 'admin', `&keyword=${encodeURIComponent(oneCustomer)}`);
await listMix('admin, pages 200–204 (offset ≈ 2,000)', 'admin', '', 200);

// ---------- approve / reject: ACTIONS each on fresh pending orders (lisi submits, zhangsan decides) ----------
const flow = (
  (await t.get('/api/v1/merchantapp/templatelist?isOrder=1', tokens.lisi)).json().data.list as {
    coMatid: number;
    name: string;
    templateControls: { coTacid: number; dmType: number }[];
  }[]
).find((x) => x.name === '订单审批');
if (!flow) throw new Error('no flow');
const link = flow.templateControls.find((c) => c.dmType === 17)?.coTacid ?? 0;
const customer = (
  await queryRows<{ id: number }>(
    db,
    sql`select id from customers where tenant_id = ${tenant} and owner_id = ${staffId('lisi')} limit 1`,
  )
)[0].id;
const pending: number[] = [];
const submitMs: number[] = [];
for (let i = 0; i < ACTIONS * 2; i++) {
  const store = await t.post(
    '/api/frontend/order/store',
    {
      customer_id: customer,
      contact_phone: '13900001111',
      attr: { '2': '2026-11-24', '5': '微信' },
      product: [{ id: product.id, cost_price: 2_400_000, num: 1 }],
    },
    tokens.lisi,
  );
  const orderId = store.json().data.order_id as number;
  submitMs.push(
    await time(() =>
      t.post(
        '/api/v1/staff/templatecreate',
        {
          isSave: 2,
          coMatid: flow.coMatid,
          templateControls: [{ coTacid: link, dmValue: [String(orderId)] }],
          staffApproveNode: [{ nodeId: 1, staffS: [{ id: staffId('zhangsan') }] }],
        },
        tokens.lisi,
      ),
    ),
  );
  pending.push(orderId);
}
rows.push({ measure: 'templatecreate (submit for approval)', ...summarise(submitMs) });
const approveMs: number[] = [];
const rejectMs: number[] = [];
for (const [i, orderId] of pending.entries()) {
  const status = i % 2 === 0 ? 1 : 2;
  const ms = await time(() =>
    t.post('/api/frontend/order/verify', { order_id: orderId, node_id: 1, status, remark: '压测' }, tokens.zhangsan),
  );
  (status === 1 ? approveMs : rejectMs).push(ms);
}
rows.push({ measure: 'order/verify approve (last node → 已通过, CC, events)', ...summarise(approveMs) });
rows.push({ measure: 'order/verify reject', ...summarise(rejectMs) });

const total = (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from orders where tenant_id = ${tenant}`))[0].n;
console.log(
  `\n${kind}: ${total} orders (seeded ${ORDERS} in ${(seedMs / 1000).toFixed(1)} s), ${REQUESTS} requests per list mix\n`,
);
const f = (n: number) => n.toFixed(1).padStart(7);
console.log(`| measure | rows | n | p50 ms | p95 ms | p99 ms | max ms |\n|---|---|---|---|---|---|---|`);
for (const r of rows)
  console.log(`| ${r.measure} | ${r.count ?? ''} | ${r.n} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.p99)} | ${f(r.max)} |`);
await t.close();
process.exit(0);
