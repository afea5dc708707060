import { type JobInfo, WORK_ORDER_MSG_TYPE, type WorkOrderDetail, type WorkOrderRow, type WorkType } from '@crm/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../../lib/clock';
import { staffChannel } from '../../lib/pubsub';
import { createTestApp, type TestApp } from '../../test/harness';
import { customerOf, staffIdOf } from '../../test/orders';
import { runWorkOrderReminders } from './workorders-remind';

let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u];
const HOUR = 3_600_000;
const P = '/api/frontend/workorder';
let type: WorkType;

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu']) tokens[u] = await t.login(u);
  type = ((await t.get(`${P}/typelist`, as('lisi'))).json().data.list as WorkType[]).find(
    (x) => x.name === '售后服务',
  ) as WorkType;
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

const detail = async (id: number, user: string) => (await t.get(`${P}/detail?id=${id}`, as(user))).json().data as WorkOrderDetail;
const overdueIds = async (user: string) =>
  ((await t.get(`${P}/list?tab=overdue`, as(user))).json().data.list as WorkOrderRow[]).map((r) => r.id);

describe('SLA reminders', () => {
  it('an open work order past due is told to its handler once, with an overdue event; a new due time owes a new reminder', async () => {
    const zhangsan = await staffIdOf(t, as('admin'), '张三');
    const c = await customerOf(t, as('lisi'), '工单超时客户');
    const create = async (name: string) =>
      (await t.post(`${P}/create`, { customer_id: c, type_id: type.id, workOrderName: name }, as('lisi'))).json().data
        .id as number;
    const late = await create('超时工单');
    const done = await create('已完结工单');
    for (const s of type.stages.slice(1)) {
      expect((await t.post(`${P}/transition`, { id: done, stage_id: s.id }, as('zhangsan'))).json().code).toBe(0);
    }
    const seen: { msg_type: number; data: { kind: string; workOrderId: number } }[] = [];
    const off = await t.app.calls.bus.subscribe(staffChannel(zhangsan), (m) => seen.push((m as { frame: never }).frame));
    const counts = async () => (await t.get(`${P}/counts`, as('zhangsan'))).json().data;

    // 47 hours on: not yet due
    setClockOffsetMs(47 * HOUR);
    await runWorkOrderReminders(t.database.db, t.app.calls.bus);
    expect(seen).toEqual([]);
    expect(await overdueIds('zhangsan')).not.toContain(late);
    const before = await counts();

    // 49 hours on: past the 48-hour SLA; the job runs twice, told once
    setClockOffsetMs(49 * HOUR);
    await runWorkOrderReminders(t.database.db, t.app.calls.bus);
    await runWorkOrderReminders(t.database.db, t.app.calls.bus);
    expect(seen.filter((f) => f.data.workOrderId === late)).toEqual([
      expect.objectContaining({ msg_type: WORK_ORDER_MSG_TYPE, data: expect.objectContaining({ kind: 'overdue' }) }),
    ]);
    expect(seen.some((f) => f.data.workOrderId === done)).toBe(false);
    expect(await overdueIds('zhangsan')).toContain(late);
    expect(await overdueIds('zhangsan')).not.toContain(done);
    expect(await overdueIds('wangwu')).not.toContain(late);
    expect((await counts()).overdue).toBe(before.overdue + 1);
    const d = await detail(late, 'lisi');
    expect(d.overdue).toBe(true);
    expect(d.events.map((e) => [e.kind, e.staff_name])).toEqual([
      ['created', '李四'],
      ['overdue', '系统'],
    ]);
    expect(d.last_time).toBe(d.events[1].created_at);

    // a later due time: no longer overdue, and reminded again once it passes
    const edit = await t.post(
      `${P}/edit`,
      {
        id: late,
        workOrderName: '超时工单',
        priority: 2,
        due_at: d.due_at.slice(0, 16).replace(/\d{4}/, (y) => String(Number(y) + 1)),
      },
      as('lisi'),
    );
    expect(edit.json().code, JSON.stringify(edit.json())).toBe(0);
    expect((await detail(late, 'lisi')).overdue).toBe(false);
    seen.length = 0;
    await runWorkOrderReminders(t.database.db, t.app.calls.bus);
    expect(seen).toEqual([]);
    setClockOffsetMs(49 * HOUR + 370 * 24 * HOUR);
    await runWorkOrderReminders(t.database.db, t.app.calls.bus);
    expect(seen.map((f) => f.data.workOrderId)).toEqual([late]);
    off();
    setClockOffsetMs(0);
  });
});

describe('workorder/export', () => {
  it('writes the caller’s tab as .xlsx (a durable job); the export action is required', async () => {
    expect((await t.post(`${P}/export`, {}, as('lisi'))).json().code).toBe(100004); // no export action
    // the company's 工单 switch off: no export either
    const modules = { order: true, receipt: true, work: true };
    expect((await t.post('/api/frontend/company/modulesave', { ...modules, work: false }, as('admin'))).json().code).toBe(0);
    expect((await t.post(`${P}/export`, { tab: 'assigned' }, as('zhangsan'))).json().code).toBe(114003);
    expect((await t.post('/api/frontend/company/modulesave', modules, as('admin'))).json().code).toBe(0);
    const res = await t.post(`${P}/export`, { tab: 'assigned' }, as('zhangsan'));
    expect(res.json().code, JSON.stringify(res.json())).toBe(0);
    let job: JobInfo | undefined;
    for (let i = 0; i < 200; i++) {
      job = (await t.get(`/api/frontend/customer/job?jobId=${res.json().data.jobId}`, as('zhangsan'))).json().data;
      if (job?.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(job?.status).toBe('done');
    const file = await t.get(job?.fileUrl ?? '', as('zhangsan'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    wb.worksheets[0].eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(expect.arrayContaining(['工单编号', '工单名称', '客户名称', '当前阶段', '处理人', '截止时间']));
    expect(
      rows
        .slice(1)
        .map((r) => r[1])
        .sort(),
    ).toEqual(['已完结工单', '超时工单']);
    expect(rows.slice(1).find((r) => r[1] === '已完结工单')).toEqual(expect.arrayContaining(['已完成', '已完结', '张三']));
  });
});
