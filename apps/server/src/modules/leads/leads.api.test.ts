import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LeadCompany, LeadMapResult, LeadSearchResult } from '@crm/contracts';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { customers, jobs, leadBatchRows, leadCompanies, leadLookups, staff } from '../../db/schema';
import { waitJob } from '../../test/customers';
import { createTestApp, type TestApp, uploadAs } from '../../test/harness';
import { type JobEnv, recoverJobs } from '../jobs/jobs.service';
import { fictionalCompany } from './fictional-companies';
import { haversineKm } from './geo';
import { type ProviderTestDouble, startProviderTestDouble } from './provider/provider-test-double';

let t: TestApp;
let double: ProviderTestDouble;
let dataDir: string;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u] as string;
const P = '/api/frontend/customer/kqhk';

const get = async <T>(url: string, user = 'admin') => {
  const res = await t.get(url, as(user));
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as T;
};
const post = async <T>(url: string, body: unknown, user = 'admin') => {
  const res = await t.post(url, body, as(user));
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as T;
};
const qs = (q: Record<string, string | number | boolean>) =>
  Object.entries(q)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');
const advanced = (q: Record<string, string | number | boolean>, user = 'admin') =>
  get<LeadSearchResult>(`${P}/advanced?${qs({ limit: 100, ...q })}`, user);

beforeAll(async () => {
  double = await startProviderTestDouble({
    keys: { 'platform-key': 'platform-secret', 'demo-own-key': 'demo-own-secret' },
    qps: 5,
  });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-leads-'));
  const base = loadConfig(undefined).leads;
  t = await createTestApp({
    dataDir,
    config: { leads: { ...base, providerUrl: double.url, providerKey: 'platform-key', providerSecret: 'platform-secret' } },
  });
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'zhaoliu', 'other_admin']) tokens[u] = await t.login(u);
}, 400_000);
afterAll(async () => {
  await t?.close();
  await double?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('name lookup (kqhk/company)', () => {
  it('finds a demo company by part of its name, by bracket and 有限公司/有限责任公司 variants, exact first', async () => {
    const target = fictionalCompany(3).name; // 深圳润泽华信通信设备有限责任公司
    const part = await get<LeadSearchResult>(`${P}/company?keyword=${encodeURIComponent('润泽华信')}`);
    expect(part.list.map((c) => c.name)).toContain(target);
    const variant = target.replace('有限责任公司', '有限公司');
    const exact = await get<LeadSearchResult>(`${P}/company?keyword=${encodeURIComponent(` ${variant} `)}`);
    expect(exact.list[0]?.name).toBe(target);
    expect(exact.providerError).toBe('');
    expect((await t.get(`${P}/company?keyword=`, as('admin'))).json().code).not.toBe(0);
  });
});

describe('advanced search (kqhk/advanced): each filter', () => {
  it('region (province, city, district), industry (门类 and 大类)', async () => {
    const gd = await advanced({ regionCode: 440000 });
    expect(gd.count).toBeGreaterThan(0);
    expect(gd.list.every((c) => c.regionCodes[0] === 440000)).toBe(true);
    const sz = await advanced({ regionCode: 440300 });
    expect(sz.count).toBeGreaterThan(0);
    expect(sz.count).toBeLessThan(gd.count);
    expect(sz.list.every((c) => c.regionCodes[1] === 440300)).toBe(true);
    const district = sz.list[0]?.regionCodes[2] as number;
    const d = await advanced({ regionCode: district });
    expect(d.list.every((c) => c.regionCodes[2] === district)).toBe(true);
    const soft = await advanced({ industryCode: '65' });
    expect(soft.count).toBeGreaterThan(0);
    expect(soft.list.every((c) => c.industryCode === '65' && c.industryLabel === '软件和信息技术服务业')).toBe(true);
    const manufacturing = await advanced({ industryCode: 'C' });
    expect(manufacturing.list.every((c) => c.industrySection === 'C')).toBe(true);
    expect((await t.get(`${P}/advanced?regionCode=123456`, as('admin'))).json().code).toBe(119005);
  });

  it('capital range includes both edges; a reversed range is refused', async () => {
    const at500 = await advanced({ capitalMin: 500, capitalMax: 500 });
    expect(at500.count).toBeGreaterThan(0);
    expect(at500.list.every((c) => c.capitalWan === 500)).toBe(true);
    const above = await advanced({ capitalMin: 501, capitalMax: 999 });
    expect(above.list.every((c) => c.capitalWan > 500 && c.capitalWan < 1000)).toBe(true);
    const res = await t.get(`${P}/advanced?capitalMin=600&capitalMax=500`, as('admin'));
    expect(res.json().code).toBe(119004);
  });

  it('founding years inclusive at both ends; sort by founding date and by capital', async () => {
    const y = await advanced({ foundedFrom: 2010, foundedTo: 2010, orderBy: 'foundedOn', orderSort: 'asc' });
    expect(y.count).toBeGreaterThan(0);
    expect(y.list.every((c) => c.foundedOn.startsWith('2010-'))).toBe(true);
    const dates = y.list.map((c) => c.foundedOn);
    expect([...dates].sort()).toEqual(dates);
    const byCapital = await advanced({ regionCode: 440000, orderBy: 'capital', orderSort: 'desc' });
    const caps = byCapital.list.map((c) => c.capitalWan);
    expect([...caps].sort((a, b) => b - a)).toEqual(caps);
  });

  it('status, has phone, has mobile, business scope keyword, name keyword', async () => {
    const revoked = await advanced({ statuses: '3' });
    expect(revoked.count).toBeGreaterThan(0);
    expect(revoked.list.every((c) => c.status === 3 && c.statusLabel === '吊销')).toBe(true);
    const two = await advanced({ statuses: '2,3' });
    expect(two.count).toBeGreaterThan(revoked.count);
    const phone = await advanced({ hasPhone: 1 });
    expect(phone.list.every((c) => c.phones.length > 0)).toBe(true);
    const noPhone = await advanced({ hasPhone: 0 });
    expect(noPhone.list.every((c) => c.phones.length === 0)).toBe(true);
    const mobile = await advanced({ hasMobile: 1 });
    expect(mobile.list.every((c) => c.phones.some((p) => /^1[3-9]\d{9}$/.test(p)))).toBe(true);
    const scope = await advanced({ scopeKeyword: '软件开发' });
    expect(scope.count).toBeGreaterThan(0);
    expect(scope.list.every((c) => c.scope.includes('软件开发'))).toBe(true);
    const named = await advanced({ keyword: '华信' });
    expect(named.list.every((c) => c.name.includes('华信'))).toBe(true);
  });
});

describe('map search (kqhk/map)', () => {
  it('a company exactly at the radius is in; a metre less leaves it out', async () => {
    const centre = { lat: 22.5431, lng: 114.0579 };
    const near = await get<LeadMapResult>(`${P}/map?${qs({ lat: centre.lat, lng: centre.lng, radiusKm: 3 })}`);
    expect(near.isClustered).toBe(false);
    expect(near.count).toBeGreaterThan(1);
    const far = near.points.at(-1) as LeadMapResult['points'][number];
    const d = haversineKm(centre, far);
    expect(d).toBeLessThanOrEqual(3);
    const at = await get<LeadMapResult>(`${P}/map?${qs({ lat: centre.lat, lng: centre.lng, radiusKm: d + 1e-6 })}`);
    expect(at.points.map((p) => p.id)).toContain(far.id);
    const inside = await get<LeadMapResult>(`${P}/map?${qs({ lat: centre.lat, lng: centre.lng, radiusKm: d - 0.001 })}`);
    expect(inside.points.map((p) => p.id)).not.toContain(far.id);
    expect(inside.count).toBe(at.count - 1);
  });

  it('a dense area comes back as clusters that add up to the count; a polygon works; no area is refused', async () => {
    const big = await get<LeadMapResult>(`${P}/map?${qs({ lat: 22.5431, lng: 114.0579, radiusKm: 40 })}`);
    if (big.count > 300) {
      expect(big.isClustered).toBe(true);
      expect(big.clusters.reduce((s, c) => s + c.count, 0)).toBe(big.count);
    }
    const polygon = JSON.stringify([
      [113.9, 22.4],
      [114.3, 22.4],
      [114.3, 22.7],
      [113.9, 22.7],
    ]);
    const inPolygon = await get<LeadMapResult>(`${P}/map?${qs({ polygon })}`);
    expect(inPolygon.count).toBeGreaterThan(0);
    expect((await t.get(`${P}/map`, as('admin'))).json().code).toBe(119002);
    expect((await t.get(`${P}/map?polygon=${encodeURIComponent('[[1,2]]')}`, as('admin'))).json().code).toBe(119003);
    expect((await t.get(`${P}/map?lat=22&lng=114&radiusKm=51`, as('admin'))).json().code).not.toBe(0);
  });
});

describe('the provider through the product', () => {
  it('a remote lookup is paid once: the same query again is answered from the registry cache', async () => {
    const before = double.requests.length;
    const first = await get<LeadSearchResult>(`${P}/company?keyword=${encodeURIComponent('星河远景')}&isRemote=1`);
    expect(first.providerError).toBe('');
    expect(first.list.some((c) => c.name.includes('星河远景') && c.source === 'provider')).toBe(true);
    expect(double.requests.length - before).toBe(1);
    await get<LeadSearchResult>(`${P}/company?keyword=${encodeURIComponent('星河远景')}&isRemote=1`, 'zhangsan');
    expect(double.requests.length - before).toBe(1);
    const logged = await t.database.db.select().from(leadLookups).where(eq(leadLookups.query, '星河远景'));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ kind: 'search', isOk: true, costFen: 10 });
  });

  it('a failed provider: a clear Chinese message while the registry results still show', async () => {
    double.setFailing(true);
    try {
      const res = await get<LeadSearchResult>(`${P}/company?keyword=${encodeURIComponent('润泽华信')}&isRemote=1`);
      expect(res.providerError).toBe('企业数据服务暂时无法访问，已显示本地企业库的结果');
      expect(res.list.length).toBeGreaterThan(0);
    } finally {
      double.setFailing(false);
    }
  });

  it("keys are per company, never answered in full, and each company's calls carry its own key", async () => {
    // 拓客设置 (menu 116) is not a sales role's (leads-settings.api.test.ts)
    expect((await t.post(`${P}/settings/set`, { providerKey: 'x' }, as('lisi'))).json().code).toBe(100003);
    await post(`${P}/settings/set`, { providerKey: 'demo-own-key', providerSecret: 'demo-own-secret' });
    const mine = await get<{ providerKeyMasked: string; hasProviderSecret: boolean }>(`${P}/settings`);
    expect(mine.providerKeyMasked).toBe('********-key');
    expect(JSON.stringify(mine)).not.toContain('demo-own');
    const theirs = await get<{ providerKeyMasked: string; hasProviderSecret: boolean }>(`${P}/settings`, 'other_admin');
    expect(theirs).toMatchObject({ providerKeyMasked: '', hasProviderSecret: false });
    const before = double.requests.length;
    await get(`${P}/company?keyword=${encodeURIComponent('蓝鲸数科')}&isRemote=1`);
    await get(`${P}/company?keyword=${encodeURIComponent('白鹭数科')}&isRemote=1`, 'other_admin');
    const keys = double.requests.slice(before).map((r) => r.key);
    expect(keys).toEqual(['demo-own-key', 'platform-key']);
  });
});

const xlsxOf = async (rows: (string | number)[][]) => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('名单');
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
};

describe('own imported lists', () => {
  it("a company's own list shows in its searches only", async () => {
    const up = await uploadAs(
      t,
      as('other_admin'),
      '名单.xlsx',
      await xlsxOf([
        ['企业名称', '电话'],
        ['紫藤花园私享科技有限公司', '13912345678'],
      ]),
    );
    const fileId = up.json().data.id as number;
    const imported = await post<{ imported: number }>(`${P}/own/import`, { name: '展会名单', fileId }, 'other_admin');
    expect(imported.imported).toBe(1);
    const theirs = await get<LeadSearchResult>(`${P}/company?keyword=${encodeURIComponent('紫藤花园')}`, 'other_admin');
    expect(theirs.list.map((c) => [c.name, c.isOwn])).toEqual([['紫藤花园私享科技有限公司', true]]);
    const mine = await get<LeadSearchResult>(`${P}/company?keyword=${encodeURIComponent('紫藤花园')}`);
    expect(mine.count).toBe(0);
    const id = theirs.list[0]?.id as number;
    expect((await t.get(`${P}/company/info?id=${id}`, as('admin'))).json().code).toBe(119000);
    expect((await t.post(`${P}/convert`, { ids: [id] }, as('admin'))).json().code).toBe(119000);
  });
});

describe('industry templates', () => {
  it('starter templates are read-only; own ones are created, run and deleted', async () => {
    const list = await get<{ templates: { id: number; name: string; isStarter: boolean }[] }>(`${P}/industry`);
    const starter = list.templates.find((x) => x.isStarter) as { id: number };
    expect(starter).toBeTruthy();
    expect((await t.post(`${P}/industry/del`, { id: starter.id }, as('admin'))).json().code).toBe(119011);
    const { id } = await post<{ id: number }>(`${P}/industry/create`, {
      name: '深圳软件',
      filters: { regionCode: 440300, industryCode: '65' },
    });
    expect((await t.post(`${P}/industry/create`, { name: '深圳软件', filters: {} }, as('admin'))).json().code).toBe(119012);
    const run = await get<{ result: LeadSearchResult }>(`${P}/industry?runId=${id}`);
    expect(run.result.list.every((c) => c.regionCodes[1] === 440300 && c.industryCode === '65')).toBe(true);
    expect((await t.get(`${P}/industry?runId=${id}`, as('other_admin'))).json().code).toBe(119010);
    await post(`${P}/industry/del`, { id });
  });
});

const findByName = async (name: string, user = 'admin') =>
  (await get<LeadSearchResult>(`${P}/company?keyword=${encodeURIComponent(name)}`, user)).list.find(
    (c) => c.name === name,
  ) as LeadCompany;

describe('转为客户', () => {
  it('makes a customer through the template, links the lead, and says who already has it (data scope, masking)', async () => {
    const lead = await findByName(fictionalCompany(14).name);
    const made = await post<{ created: { cmCtid: number }[] }>(`${P}/convert`, { ids: [lead.id] }, 'wangwu');
    expect(made.created, JSON.stringify(made)).toHaveLength(1);
    const [row] = await t.database.db
      .select()
      .from(customers)
      .where(eq(customers.id, made.created[0]?.cmCtid as number));
    expect(row?.name).toBe(lead.name);
    // the owner's manager sees whose it is; a colleague of his own scope only that it exists
    const boss = await get<{
      existing: { isVisible: boolean; ownerName: string; name: string }[];
      convertedCustomerIds: number[];
    }>(`${P}/company/info?id=${lead.id}`, 'admin');
    expect(boss.existing[0]).toMatchObject({ isVisible: true, ownerName: '王五', name: lead.name });
    expect(boss.convertedCustomerIds).toEqual([made.created[0]?.cmCtid]);
    const colleague = await get<{
      existing: { isVisible: boolean; ownerName: string; name: string; cmCtid: number; phone: string }[];
    }>(`${P}/company/info?id=${lead.id}`, 'lisi');
    expect(colleague.existing.length).toBeGreaterThan(0);
    for (const e of colleague.existing) {
      expect(e).toMatchObject({ isVisible: false, ownerName: '', name: '', cmCtid: 0 });
      if (e.phone) expect(e.phone).toContain('****');
    }
    // converting it again is refused as a duplicate, named through the same policy
    const again = await post<{ created: unknown[]; skipped: { existing: unknown[] }[] }>(
      `${P}/convert`,
      { ids: [lead.id] },
      'lisi',
    );
    expect(again.created).toHaveLength(0);
    expect(again.skipped[0]?.existing.length).toBeGreaterThan(0);
    // another company does not see this company's customers
    const other = await get<{ existing: unknown[] }>(`${P}/company/info?id=${lead.id}`, 'other_admin');
    expect(other.existing).toEqual([]);
  });

  it('a similar name counts as the same company', async () => {
    const lead = await findByName(fictionalCompany(16).name);
    const [me] = await t.database.db.select().from(staff).where(eq(staff.username, 'zhangsan'));
    const [any] = await t.database.db
      .select()
      .from(customers)
      .where(eq(customers.tenantId, me?.tenantId as number))
      .limit(1);
    // the same company typed by hand with 市 after the city and without a phone
    await t.database.db.insert(customers).values({
      tenantId: me?.tenantId as number,
      templateId: any?.templateId as number,
      name: lead.name.replace(/^(..)/, '$1市'),
      ownerId: me?.id as number,
      creatorId: me?.id as number,
    });
    const check = await post<{ list: { id: number; existing: { matchedBy: string; ownerName: string }[] }[] }>(
      `${P}/convert/check`,
      {
        ids: [lead.id],
      },
    );
    expect(check.list[0]?.existing).toMatchObject([{ matchedBy: 'name', ownerName: '张三' }]);
    const unrelated = await findByName(fictionalCompany(17).name);
    expect((await post<{ list: unknown[] }>(`${P}/convert/check`, { ids: [unrelated.id] })).list).toEqual([]);
  });

  it('the daily quota stops conversions at its edge', async () => {
    await post(`${P}/settings/set`, { dailyQuota: 2 });
    const names = [20, 21, 22].map((i) => fictionalCompany(i).name);
    const leads = await Promise.all(names.map((n) => findByName(n)));
    const check = await post<{ quotaLeft: number }>(`${P}/convert/check`, { ids: [leads[0]?.id] }, 'zhaoliu');
    expect(check.quotaLeft).toBe(2);
    const res = await post<{ created: unknown[]; skipped: { reason: string }[]; quotaLeft: number }>(
      `${P}/convert`,
      { ids: leads.map((l) => l.id) },
      'zhaoliu',
    );
    expect(res.created).toHaveLength(2);
    expect(res.skipped[0]?.reason).toBe('今日转为客户的额度已用完');
    expect(res.quotaLeft).toBe(0);
    const refused = await t.post(`${P}/convert`, { ids: [leads[2]?.id] }, as('zhaoliu'));
    expect(refused.json().code).toBe(119030);
    await post(`${P}/settings/set`, { dailyQuota: 10 });
  });
});

describe('batch lookup', () => {
  it('matches pasted names exactly, fuzzily with a score, or not at all, and exports the answers', async () => {
    const exact = fictionalCompany(5).name;
    const variant = fictionalCompany(6).name.replace('有限公司', '有限责任公司');
    const fuzzy = fictionalCompany(7).name.replace('有限公司', '');
    const { jobId } = await post<{ jobId: string }>(
      `${P}/batch/company`,
      { names: [exact, variant, fuzzy, '完全不存在的名字呀', ''] },
      'admin',
    );
    const job = await waitJob(t, as('admin'), jobId);
    expect(job).toMatchObject({ status: 'done', total: 4 });
    const res = await get<{
      list: { input: string; match: string; score: number; company: LeadCompany | null }[];
      summary: object;
    }>(`${P}/batch/company?jobId=${jobId}`);
    expect(res.list.map((r) => r.match)).toEqual(['exact', 'exact', 'fuzzy', 'none']);
    expect(res.list[2]?.score).toBeGreaterThanOrEqual(50);
    expect(res.list[2]?.score).toBeLessThan(100);
    expect(res.summary).toMatchObject({ total: 4, exact: 2, fuzzy: 1, none: 1 });
    expect((await t.get(`${P}/batch/company?jobId=${jobId}`, as('lisi'))).json().code).toBe(119022);
    const exp = await post<{ jobId: string }>(`${P}/batch/company/export`, { jobId });
    expect(await waitJob(t, as('admin'), exp.jobId)).toMatchObject({ status: 'done' });
    expect((await t.post(`${P}/batch/company`, { names: Array(10_001).fill('甲') }, as('admin'))).json().code).not.toBe(0);
  });

  it('resumes after kill -9 at the chunk after its last checkpoint', async () => {
    const [me] = await t.database.db.select().from(staff).where(eq(staff.username, 'admin'));
    const names = Array.from({ length: 1200 }, (_, i) => fictionalCompany(100 + i).name);
    const id = randomUUID();
    // the dead attempt committed chunk 1 (rows 1–500, marked 'none' on purpose: a redo would turn them 'exact')
    await t.database.db.insert(jobs).values({
      id,
      tenantId: me?.tenantId as number,
      staffId: me?.id as number,
      kind: 'leads-batch',
      status: 'running',
      attempt: 1,
      total: 1200,
      processed: 500,
      result: { total: 1200, exact: 0, fuzzy: 0, none: 500 },
      payload: { tenantId: me?.tenantId, names },
      heartbeatAt: sql`now() - interval '5 minutes'`,
    });
    await t.database.db.insert(leadBatchRows).values(
      names.slice(0, 500).map((input, i) => ({
        jobId: id,
        tenantId: me?.tenantId as number,
        row: i + 1,
        input,
        match: 'none',
        score: 0,
        companyId: null,
      })),
    );
    const env: JobEnv = { db: t.database.db, log: t.app.log, dataDir };
    await recoverJobs(env);
    const job = await waitJob(t, as('admin'), id);
    expect(job).toMatchObject({ status: 'done', processed: 1200 });
    expect(job.result).toMatchObject({ total: 1200, exact: 700, none: 500 });
    const rows = await t.database.db
      .select({ n: sql<number>`count(*)::int`, first: sql<number>`min(row)::int`, last: sql<number>`max(row)::int` })
      .from(leadBatchRows)
      .where(and(eq(leadBatchRows.jobId, id)));
    expect(rows[0]).toMatchObject({ n: 1200, first: 1, last: 1200 });
  }, 120_000);
});

describe('registry rows stay platform-wide', () => {
  it('the demo registry is seeded (fictional companies with coordinates)', async () => {
    const [row] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(leadCompanies)
      .where(sql`${leadCompanies.tenantId} is null and ${leadCompanies.lat} is not null`);
    expect(row?.n).toBeGreaterThanOrEqual(3000);
  });
});
