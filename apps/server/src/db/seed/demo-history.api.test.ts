import { and, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clockOffsetMs, now } from '../../lib/clock';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';
import { aiCalls, callRecords, followRecords, orders, sessions, staff, workOrderStages, workOrders } from '../schema';
import { type HistoryCounts, seedDemoHistory } from './demo-history';

// The demo company's history (issue 23.6): what the first start of `npm start` writes so 回款管理,
// the workbench, 通话记录 and the AI reports are not empty. The harness seeds the lean demo company
// (as e2e does with DEMO_HISTORY=0); this file adds the history to its own copy.
let t: TestApp;
let counts: HistoryCounts;
let admin: string;
let tenantId: number;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  const started = Date.now();
  counts = await seedDemoHistory(t.app, DEMO_PASSWORD);
  console.log(`demo history: ${JSON.stringify(counts)} in ${Date.now() - started} ms`);
  admin = await t.login('admin');
  [{ tenantId }] = await t.database.db.select({ tenantId: staff.tenantId }).from(staff).where(eq(staff.username, 'admin'));
}, 180_000);
afterAll(async () => t?.close());

describe('demo history', () => {
  it('writes months of orders, receipts, work orders, calls and AI calls, and gives the clock back', () => {
    expect(counts.orders).toBe(24);
    expect(counts.receipts).toBeGreaterThanOrEqual(15);
    expect(counts.workOrders).toBe(8);
    expect(counts.calls).toBeGreaterThanOrEqual(30);
    expect(counts.aiCalls).toBe(40);
    expect(clockOffsetMs()).toBe(0);
  });

  it('dates everything in the last four months of the business clock, nothing in the future', async () => {
    const [o] = await t.database.db
      .select({ first: sql<string>`min(created_at)::text`, last: sql<string>`max(created_at)::text` })
      .from(orders)
      .where(eq(orders.tenantId, tenantId));
    const [c] = await t.database.db
      .select({ first: sql<string>`min(start_at)::text`, last: sql<string>`max(end_at)::text` })
      .from(callRecords)
      .where(eq(callRecords.tenantId, tenantId));
    const today = now().getTime();
    for (const [first, last] of [
      [o.first, o.last],
      [c.first, c.last],
    ]) {
      expect(Date.parse(first)).toBeGreaterThan(today - 125 * DAY);
      expect(Date.parse(last)).toBeLessThanOrEqual(today);
    }
    expect(Date.parse(o.first)).toBeLessThan(today - 90 * DAY);
  });

  it('orders went through the approval engine: trails, 成交, pending ones wait for 张三', async () => {
    const list = (await t.get('/api/frontend/order/list?page=1&limit=50', admin)).json().data;
    expect(list.count).toBe(24);
    const statuses = new Set(list.list.map((r: { verify_status: number }) => r.verify_status));
    expect([...statuses].sort()).toEqual([0, 1, 2]);
    const approved = list.list.find((r: { verify_status: number }) => r.verify_status === 1);
    const detail = (await t.get(`/api/frontend/order/auditdetail?order_id=${approved.id}`, admin)).json().data;
    expect(detail.approval.actions.map((a: { action: string }) => a.action)).toEqual(['submit', 'approve', 'cc']);
    const zhangsan = await t.login('zhangsan');
    const summary = (await t.get('/api/frontend/workbench/summary', zhangsan)).json().data;
    expect(summary.orders.pendingApprovals).toBe(3);
  });

  it('回款管理 and the workbench have figures: months of receipts, plans due and overdue', async () => {
    const stats = (await t.get('/api/frontend/receipt/stats', admin)).json().data;
    expect(stats.byMonth.filter((m: { amount: number }) => m.amount > 0).length).toBeGreaterThanOrEqual(3);
    expect(stats.byStaff.length).toBeGreaterThanOrEqual(3);
    expect(stats.dueNext30.some((d: { count: number }) => d.count > 0)).toBe(true);
    const summary = (await t.get('/api/frontend/workbench/summary', admin)).json().data;
    expect(summary.orders.monthOrders).toBeGreaterThan(0);
    expect(summary.receipts.overdue).toBeGreaterThan(0);
    expect(summary.receipts.dueIn30Days).toBeGreaterThan(0);
  });

  it('work orders stand in every stage of 售后服务', async () => {
    const rows = await t.database.db
      .select({ stage: workOrderStages.name })
      .from(workOrders)
      .innerJoin(workOrderStages, eq(workOrderStages.id, workOrders.stageId))
      .where(eq(workOrders.tenantId, tenantId));
    expect(new Set(rows.map((r) => r.stage))).toEqual(new Set(['受理', '处理中', '回访', '已完成']));
  });

  it('通话记录 lists answered calls with a playable recording and their follow records', async () => {
    const res = await t.post('/api/frontend/call/list', { page: 1, limit: 100, startTime: '2000-01-01' }, admin);
    const list = res.json().data.list as { uuid: string; billsec: number; recordFile: string }[];
    expect(list.length).toBe(counts.calls + counts.aiCalls);
    const answered = list.find((r) => r.billsec > 0 && r.recordFile);
    expect(answered).toBeDefined();
    const wav = await t.app.inject({ method: 'GET', url: answered?.recordFile as string, headers: { authorization: admin } });
    expect(wav.statusCode).toBe(200);
    expect(wav.rawPayload.subarray(0, 4).toString()).toBe('RIFF');
    expect(wav.rawPayload.length).toBe(44 + (answered?.billsec ?? 0) * 8000 * 2);
    const follows = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(followRecords)
      .where(and(eq(followRecords.tenantId, tenantId), eq(followRecords.recordId, answered?.uuid as string)));
    expect(follows[0].n).toBe(1);
  });

  it('the AI task has its report: every grade, per day', async () => {
    const tasks = (await t.post('/api/frontend/aicall/list', { page: 1, limit: 20 }, admin)).json().data.list as {
      cmStid: number;
      name: string;
    }[];
    const done = tasks.find((x) => x.name === '老客户回访');
    const report = (await t.get(`/api/frontend/aicall/report?cmStid=${done?.cmStid}`, admin)).json().data;
    expect(report.called).toBe(40);
    expect(report.connected).toBe(28);
    expect(report.grades).toMatchObject({ A: 4, B: 7, C: 9, D: 8, E: 12 });
    expect(report.days).toHaveLength(3);
    const [withTurns] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(aiCalls)
      .where(and(eq(aiCalls.tenantId, tenantId), gt(aiCalls.rounds, 0)));
    expect(withTurns.n).toBe(28);
  });

  it('leaves no session or login of its own behind', async () => {
    const [{ n }] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(sessions)
      .where(eq(sessions.tenantId, tenantId));
    // the test's own logins (admin, zhangsan) are the only sessions
    expect(n).toBeLessThanOrEqual(2);
  });
});
