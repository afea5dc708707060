import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { customers } from '../../db/schema';
import { demoValues, fetchTemplate, listCustomers, mustCreate, type Template } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';

// A salesperson's list filtered by name and a choice value (issue 25): one GIN index holds the owner,
// the name's bigrams and the values (btree_gin, migration 0034), so the owner's rows are intersected
// inside the index instead of ANDing a bitmap of his whole book (bench/README.md). On both databases.
let t: TestApp;
let tpl: Template;
let lisi: string;
let lisiId = 0;
let industry = 0;
const rare: number[] = [];
const BOOK = 300;

const sorted = (list: number[]) => [...list].sort((a, b) => a - b);

beforeAll(async () => {
  t = await createTestApp();
  lisi = await t.login('lisi');
  tpl = await fetchTemplate(t, await t.login('admin'));
  industry = tpl.byName.行业.cbTacid;
  rare.push(await mustCreate(t, lisi, tpl, '稀罕物流甲', demoValues({ 行业: ['互联网'] })));
  rare.push(await mustCreate(t, lisi, tpl, '稀罕物流乙', demoValues({ 行业: ['互联网'] })));
  // same name, another value: the control filter must leave it out
  await mustCreate(t, lisi, tpl, '稀罕物流丙', demoValues({ 行业: ['教育培训'] }));
  const [model] = await queryRows<{ tenant_id: number; template_id: number; owner_id: number }>(
    t.database.db,
    sql`select tenant_id, template_id, owner_id from ${customers} where id = ${rare[0]}`,
  );
  lisiId = Number(model.owner_id);
  await t.database.db.insert(customers).values(
    Array.from({ length: BOOK }, (_, i) => ({
      tenantId: Number(model.tenant_id),
      templateId: Number(model.template_id),
      name: `大户客户${i}`,
      vals: { [String(industry)]: ['互联网'] },
      ownerId: lisiId,
      creatorId: lisiId,
    })),
  );
});
afterAll(async () => {
  await t?.close();
});

describe('the customers GIN index with the owner in it', () => {
  it('answers owner + name + value in one index condition', async () => {
    const plan = await t.database.db.transaction(async (tx) => {
      // The test company is tiny, so the planner would read the table or the owner's btree. Without the
      // seq scan and without deleted_at (the btrees are partial), only the GIN index can answer.
      await tx.execute(sql`set local enable_seqscan = off`);
      const rows = await queryRows<{ 'QUERY PLAN': string }>(
        tx,
        sql`explain select c.id from ${customers} c where c.owner_id = ${lisiId} and c.name_grams @> '{稀罕}'::text[]
          and c.vals @> ${JSON.stringify({ [industry]: ['互联网'] })}::jsonb`,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('customers_owner_grams_vals_gin');
    expect(plan).toMatch(/Index Cond: \(\(owner_id = \d+\) AND \(name_grams @> .*\) AND \(vals @> .*\)\)/);
  });

  it('gives the right rows through the list API, and none of another salesperson’s', async () => {
    const control = { cbTacid: industry, dmValue: ['互联网'] };
    const ids = async (body: Record<string, unknown>) =>
      sorted((await listCustomers(t, lisi, 'minelist', body)).list.map((r) => r.cmCtid));
    expect(await ids({ name: '稀罕物流', templateControls: [control] })).toEqual(sorted(rare));
    expect((await listCustomers(t, lisi, 'minelist', { name: '稀罕' })).count).toBe(3);
    const broad = await listCustomers(t, lisi, 'minelist', { name: '大户', templateControls: [control], limit: 20 });
    expect(broad.count).toBe(BOOK);
    expect(broad.list).toHaveLength(20);
    expect((await listCustomers(t, await t.login('wangwu'), 'minelist', { name: '稀罕物流' })).count).toBe(0);
    const admin = await listCustomers(t, await t.login('admin'), 'allotlist', { name: '稀罕物流', templateControls: [control] });
    expect(sorted(admin.list.map((r) => r.cmCtid))).toEqual(sorted(rare));
  });
});
