import { type ApprovalTemplate, type JobInfo, type Product, RECEIPT_REMIND_MSG_TYPE } from '@crm/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../../lib/clock';
import { staffChannel } from '../../lib/pubsub';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, orderBody, products, staffIdOf, store, submitBody, templates } from '../../test/orders';
import { businessToday } from './receipts.service';
import { runReceiptReminders } from './receipts-remind';

let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
const DAY = 86_400_000;
const day = (n: number) => businessToday(new Date(Date.now() + n * DAY));

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi']) tokens[u] = await t.login(u);
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('receipt plan reminders', () => {
  it('tell the owner of plans due within the lead days or overdue, at most once per plan per day', async () => {
    const product = (await products(t, as('admin'))).find((p) => p.code === 'QC-001') as Product;
    const flow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
    const zhangsan = await staffIdOf(t, as('admin'), '张三');
    const lisi = await staffIdOf(t, as('admin'), '李四');
    const c = await customerOf(t, as('lisi'), '回款提醒客户');
    const orderId = await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: 4_000_000 }]));
    await t.post('/api/v1/staff/templatecreate', submitBody(flow, orderId, { 1: [zhangsan] }), as('lisi'));
    await t.post('/api/frontend/order/verify', { order_id: orderId, node_id: 1, status: 1 }, as('zhangsan'));
    const plan = async (amount: number, at: string) =>
      (await t.post('/api/frontend/receipt/plancreate', { order_id: orderId, amount, plan_at: at }, as('lisi'))).json().data
        .id as number;
    const due = await plan(1_000_000, day(3));
    const overdue = await plan(1_000_000, day(-1));
    const later = await plan(1_000_000, day(4));
    const paid = await plan(1_000_000, day(1));
    const r = await t.post(
      '/api/frontend/receipt/create',
      { order_id: orderId, order_repayment_plan_id: paid, amount: 1_000_000, repayment_at: day(0), pay_type: 2 },
      as('lisi'),
    );
    expect(r.json().code).toBe(0);

    const seen: { msg_type: number; msg: string; data: { planId: number; overdue: number } }[] = [];
    const off = await t.app.calls.bus.subscribe(staffChannel(lisi), (m) => seen.push((m as { frame: never }).frame));
    const planIds = () => seen.map((f) => f.data.planId).sort((a, b) => a - b);
    await runReceiptReminders(t.database.db, t.app.calls.bus);
    await runReceiptReminders(t.database.db, t.app.calls.bus);
    expect(planIds()).toEqual([due, overdue].sort((a, b) => a - b));
    expect(seen.every((f) => f.msg_type === RECEIPT_REMIND_MSG_TYPE)).toBe(true);
    expect(seen.find((f) => f.data.planId === overdue)?.msg).toBe(`回款计划已逾期（${day(-1)}），待回款 ¥1000.00`);
    expect(seen.find((f) => f.data.planId === due)?.msg).toBe(`回款计划将于${day(3)}到期，待回款 ¥1000.00`);

    // the next business day: told again, and the plan four days out has come within the three days
    seen.length = 0;
    setClockOffsetMs(DAY);
    await runReceiptReminders(t.database.db, t.app.calls.bus);
    await runReceiptReminders(t.database.db, t.app.calls.bus);
    expect(planIds()).toEqual([due, overdue, later].sort((a, b) => a - b));
    off();
  });
});

describe('receipt/export', () => {
  it('writes 回款管理’s plans of the caller’s scope as .xlsx (a durable job)', async () => {
    const res = await t.post('/api/frontend/receipt/export', {}, as('lisi'));
    expect(res.json().code, JSON.stringify(res.json())).toBe(0);
    let job: JobInfo | undefined;
    for (let i = 0; i < 200; i++) {
      job = (await t.get(`/api/frontend/customer/job?jobId=${res.json().data.jobId}`, as('lisi'))).json().data;
      if (job?.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(job?.status).toBe('done');
    const file = await t.get(job?.fileUrl ?? '', as('lisi'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(expect.arrayContaining(['计划编号', '客户名称', '计划金额(元)', '已回款(元)', '状态']));
    expect(rows).toHaveLength(5);
    expect(rows.slice(1).map((r) => r[2])).toEqual(Array(4).fill('回款提醒客户'));
    expect(rows.slice(1).some((r) => r.includes('已回款') && r.includes(1000))).toBe(true);
  });
});

describe('receipt/listexport', () => {
  it('writes 回款管理’s receipts (回款记录) of the filters as .xlsx, through the same job and file path', async () => {
    const product = (await products(t, as('admin'))).find((p) => p.code === 'QC-001') as Product;
    const flow = (await templates(t, as('lisi'))).find((x) => x.name === '订单审批') as ApprovalTemplate;
    const c = await customerOf(t, as('lisi'), '回款记录导出客户');
    const orderId = await store(t, as('lisi'), orderBody(c, [{ id: product.id, cost_price: 4_000_000 }]));
    const submitted = await t.post(
      '/api/v1/staff/templatecreate',
      submitBody(flow, orderId, { 1: [await staffIdOf(t, as('admin'), '张三')] }),
      as('lisi'),
    );
    expect(submitted.json().code, submitted.body).toBe(0);
    const verified = await t.post('/api/frontend/order/verify', { order_id: orderId, node_id: 1, status: 1 }, as('zhangsan'));
    expect(verified.json().code, verified.body).toBe(0);
    const created = await t.post(
      '/api/frontend/receipt/plancreate',
      { order_id: orderId, amount: 2_000_000, plan_at: day(1) },
      as('lisi'),
    );
    expect(created.json().code, created.body).toBe(0);
    const plan = created.json().data.id as number;
    const receipt = { order_id: orderId, order_repayment_plan_id: plan, amount: 1_000_000, repayment_at: day(0), pay_type: 2 };
    expect((await t.post('/api/frontend/receipt/create', receipt, as('lisi'))).json().code).toBe(0);

    const res = await t.post('/api/frontend/receipt/listexport', { customer_id: c }, as('lisi'));
    expect(res.json().code, JSON.stringify(res.json())).toBe(0);
    let job: JobInfo | undefined;
    for (let i = 0; i < 200; i++) {
      job = (await t.get(`/api/frontend/customer/job?jobId=${res.json().data.jobId}`, as('lisi'))).json().data;
      if (job?.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(job?.status, JSON.stringify(job)).toBe('done');
    expect(job?.total).toBe(1);
    const file = await t.get(job?.fileUrl ?? '', as('lisi'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(wb.worksheets[0].name).toBe('回款记录');
    expect(rows[0]).toEqual([
      '回款编号',
      '订单编号',
      '客户名称',
      '负责人',
      '回款日期',
      '计划回款日期',
      '回款金额(元)',
      '付款方式',
      '审批状态',
      '备注',
      '创建时间',
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[1].slice(2, 9)).toEqual(['回款记录导出客户', '李四', day(0), day(1), 1000, '支付宝', '无需审批']);
  });

  it('refuses another company’s customer as the filter, like the list', async () => {
    const res = await t.post('/api/frontend/receipt/listexport', { customer_id: 999_999 }, as('lisi'));
    expect(res.json().code).not.toBe(0);
    expect(res.statusCode).toBeLessThan(500);
  });
});
