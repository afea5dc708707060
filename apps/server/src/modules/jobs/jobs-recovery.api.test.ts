import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { customerExportBody, type ImportPreview, type ImportResult, seasListBody } from '@crm/contracts';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, followRecords, jobs, staff } from '../../db/schema';
import { buildXlsx, multipart, sheetRows, waitJob } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';
import { type JobEnv, recoverJobs, runQueuedJob, type StoredActor } from './jobs.service';

let t: TestApp;
let dataDir: string;
let token: string;
let env: JobEnv;
let admin: StoredActor;

/** n rows with their own names and numbers (`series` keeps each test's numbers apart). */
const rowsOf = (prefix: string, series: number, n: number) =>
  Array.from({ length: n }, (_, i) => [`${prefix}-${i + 1}`, `联系人${i + 1}`, `1391${series}${String(100000 + i).slice(-6)}`]);

const preview = async (rows: string[][]) => {
  const data = await buildXlsx([['客户名称', '联系人', '手机'], ...rows]);
  const { payload, contentType } = multipart({ name: 'import.xlsx', data });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/frontend/customer/importpreview',
    payload,
    headers: { 'content-type': contentType, authorization: token },
  });
  expect(res.json().code).toBe(0);
  return res.json().data as ImportPreview;
};

const countNamed = async (prefix: string) => {
  const rows = await t.database.db
    .select({ name: customers.name })
    .from(customers)
    .where(and(sql`${customers.name} like ${`${prefix}-%`}`, isNull(customers.deletedAt)));
  return rows.map((r) => r.name);
};

/** The jobs row a process killed mid-run leaves: running, heartbeat minutes old. */
const crashedJob = async (values: Partial<typeof jobs.$inferInsert> & { kind: string }) => {
  const id = randomUUID();
  await t.database.db.insert(jobs).values({
    id,
    tenantId: admin.tenantId,
    staffId: admin.staffId,
    status: 'running',
    attempt: 1,
    heartbeatAt: sql`now() - interval '5 minutes'`,
    ...values,
  });
  return id;
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-jobs-recovery-'));
  t = await createTestApp({ dataDir });
  token = await t.login('admin');
  const [me] = await t.database.db.select().from(staff).where(eq(staff.username, 'admin'));
  admin = {
    sessionId: 0,
    staffId: me.id,
    tenantId: me.tenantId,
    departmentId: me.departmentId ?? null,
    roleId: me.roleId ?? 0,
    dataScope: 4,
    isSystemRole: true,
    menuIds: [],
    actions: [],
    name: me.name,
  };
  env = { db: t.database.db, log: t.app.log, dataDir };
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('jobs after a crash (hole 8)', () => {
  it('an import killed after 5 of 12 rows resumes from its committed checkpoint: 12 customers, none twice', async () => {
    const rows = rowsOf('续导', 1, 12);
    // what the killed process committed: rows 1-5, each with its checkpoint in the same transaction
    const first = await preview(rows.slice(0, 5));
    const firstJob = await t.post('/api/frontend/customer/importstart', { fileId: first.fileId, mapping: first.mapping }, token);
    expect((await waitJob(t, token, firstJob.json().data.jobId)).status).toBe('done');
    expect(await countNamed('续导')).toHaveLength(5);

    const full = await preview(rows);
    const checkpoint: ImportResult = { created: 5, updated: 0, skipped: 0, rejected: 0, reasons: [] };
    const id = await crashedJob({
      kind: 'import',
      processed: 5,
      total: 12,
      result: checkpoint,
      payload: { actor: admin, body: { fileId: full.fileId, mapping: full.mapping, duplicateMode: 'skip' } },
    });
    // before the restart the poll shows the stuck state the issue describes
    expect((await t.get(`/api/frontend/customer/job?jobId=${id}`, token)).json().data).toMatchObject({
      status: 'running',
      processed: 5,
      result: null,
    });

    await recoverJobs(env);
    const job = await waitJob(t, token, id);
    expect(job).toMatchObject({ status: 'done', processed: 12, total: 12, error: '' });
    expect(job.result).toMatchObject({ created: 12, updated: 0, skipped: 0, rejected: 0 });
    const names = await countNamed('续导');
    expect(names).toHaveLength(12);
    expect(new Set(names).size).toBe(12);
  });

  it('a second delivery of the same attempt does not run the job again', async () => {
    const full = await preview(rowsOf('重投', 2, 3));
    const id = await crashedJob({
      kind: 'import',
      attempt: 0,
      // fresh: the recovery sweep leaves it to this test
      heartbeatAt: new Date(),
      payload: { actor: admin, body: { fileId: full.fileId, mapping: full.mapping, duplicateMode: 'skip' } },
    });
    await Promise.all([runQueuedJob(env, { jobId: id, attempt: 1 }), runQueuedJob(env, { jobId: id, attempt: 1 })]);
    await runQueuedJob(env, { jobId: id, attempt: 1 });
    const [row] = await t.database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: 'done', attempt: 1, processed: 3 });
    expect((row.result as ImportResult).created).toBe(3);
    expect(await countNamed('重投')).toHaveLength(3);
  });

  it('an export whose process died is run again from the start: done, with a whole file', async () => {
    const body = customerExportBody.parse({});
    const id = await crashedJob({ kind: 'export', processed: 40, total: 100, payload: { actor: admin, kind: 'mine', body } });
    await recoverJobs(env);
    const job = await waitJob(t, token, id);
    expect(job).toMatchObject({ kind: 'export', status: 'done', error: '' });
    expect(job.total).toBeGreaterThan(0);
    expect(job.processed).toBe(job.total);
    expect(job.fileName).toMatch(/^我的客户_\d{12}\.xlsx$/);
    const file = await t.get(job.fileUrl, token);
    expect(file.statusCode).toBe(200);
    // header + every row of the list: the file was written by the new attempt alone
    expect(await sheetRows(file.rawPayload)).toHaveLength(job.total + 1);
    // the pool list's own filters come back from the stored body (no pool 999999: an empty sheet)
    const seas = await crashedJob({
      kind: 'export',
      payload: { actor: admin, kind: 'seas', body: seasListBody.parse({ cmHsid: 999999 }) },
    });
    await recoverJobs(env);
    const seasJob = await waitJob(t, token, seas);
    expect(seasJob).toMatchObject({ status: 'done', total: 0, processed: 0 });
    expect(seasJob.fileName).toMatch(/^公海客户_/);
  });

  it('a batch allocation killed after its first chunk resumes: done with the true count, no customer moved twice', async () => {
    const staffId = async (username: string) =>
      (
        await t.database.db
          .select({ id: staff.id })
          .from(staff)
          .where(and(eq(staff.username, username), eq(staff.tenantId, admin.tenantId)))
      )[0].id;
    const [from, to1, to2] = [await staffId('zhangsan'), await staffId('lisi'), await staffId('wangwu')];
    // zhangsan's book: whatever the demo gave him plus 9 imported here
    const full = await preview(rowsOf('批转', 5, 9));
    const imp = await t.post('/api/frontend/customer/importstart', { fileId: full.fileId, mapping: full.mapping }, token);
    expect((await waitJob(t, token, imp.json().data.jobId)).status).toBe('done');
    await t.database.db.update(customers).set({ ownerId: from }).where(sql`${customers.name} like '批转-%'`);
    const ownedBy = async (ownerId: number) =>
      (
        await t.database.db
          .select({ id: customers.id })
          .from(customers)
          .where(and(eq(customers.ownerId, ownerId), isNull(customers.deletedAt)))
          .orderBy(customers.id)
      ).map((r) => r.id);
    const book = await ownedBy(from);
    const total = book.length;
    const before = { to1: (await ownedBy(to1)).length, to2: (await ownedBy(to2)).length };
    const quotas = [Math.ceil(total / 2), Math.floor(total / 2)];
    // what the killed process committed: its first chunk (3 customers to lisi) with its checkpoint
    const firstChunk = book.slice(0, 3);
    await t.database.db.update(customers).set({ ownerId: to1 }).where(inArray(customers.id, firstChunk));
    const id = await crashedJob({
      kind: 'allot',
      processed: 3,
      total,
      result: {
        moved: 3,
        notAssigned: total - 3,
        perStaff: [
          { cmSid: to1, name: '', count: 3 },
          { cmSid: to2, name: '', count: 0 },
        ],
        plan: { total, quotas, remaining: [quotas[0] - 3, quotas[1]] },
      },
      payload: { actor: admin, body: { fromCmSid: from, toCmSids: [to1, to2], isNodeId: 0 } },
    });
    await recoverJobs(env);
    const job = await waitJob(t, token, id);
    expect(job).toMatchObject({ kind: 'allot', status: 'done', total, error: '' });
    expect(job.result).toMatchObject({
      moved: total,
      notAssigned: 0,
      perStaff: [
        { cmSid: to1, count: quotas[0] },
        { cmSid: to2, count: quotas[1] },
      ],
    });
    expect(await ownedBy(from)).toHaveLength(0);
    expect((await ownedBy(to1)).length - before.to1).toBe(quotas[0]);
    expect((await ownedBy(to2)).length - before.to2).toBe(quotas[1]);
    // the resumed attempt moved only what was left, each customer once
    const history = await t.database.db
      .select({ customerId: followRecords.customerId })
      .from(followRecords)
      .where(and(inArray(followRecords.customerId, book), sql`${followRecords.remark} like '批量转移：%'`));
    expect(history).toHaveLength(total - 3);
    expect(new Set(history.map((h) => h.customerId)).size).toBe(total - 3);
    expect(history.some((h) => firstChunk.includes(h.customerId))).toBe(false);
  });

  it('a batch allocation out of attempts ends failed and shows what its committed chunks moved', async () => {
    const id = await crashedJob({
      kind: 'allot',
      attempt: 3,
      processed: 4,
      total: 10,
      result: {
        moved: 4,
        notAssigned: 6,
        perStaff: [{ cmSid: admin.staffId, name: '', count: 4 }],
        plan: { total: 10, quotas: [10], remaining: [6] },
      },
      payload: { actor: admin, body: { fromCmSid: 1, toCmSids: [admin.staffId], isNodeId: 0 } },
    });
    await recoverJobs(env);
    const res = await t.get(`/api/frontend/customer/job?jobId=${id}`, token);
    expect(res.statusCode).toBe(200);
    const job = res.json().data;
    expect(job).toMatchObject({ status: 'failed', processed: 4, total: 10, result: { moved: 4, notAssigned: 6 } });
    expect(job.result).not.toHaveProperty('plan');
  });

  it('an import out of attempts ends failed with its committed count and partial result', async () => {
    const full = await preview(rowsOf('三次', 3, 4));
    const checkpoint: ImportResult = { created: 2, updated: 0, skipped: 0, rejected: 0, reasons: [] };
    const id = await crashedJob({
      kind: 'import',
      attempt: 3,
      processed: 2,
      total: 4,
      result: checkpoint,
      payload: { actor: admin, body: { fileId: full.fileId, mapping: full.mapping, duplicateMode: 'skip' } },
    });
    await recoverJobs(env);
    const job = (await t.get(`/api/frontend/customer/job?jobId=${id}`, token)).json().data;
    expect(job).toMatchObject({ status: 'failed', processed: 2, total: 4, result: { created: 2 } });
    expect(job.error).toContain('任务因服务重启中断，已处理2条');
  });

  it('a job whose runner is alive (fresh heartbeat) is left alone', async () => {
    const id = await crashedJob({ kind: 'export', heartbeatAt: new Date() });
    await recoverJobs(env);
    const [row] = await t.database.db
      .select()
      .from(jobs)
      .where(inArray(jobs.id, [id]));
    expect(row.status).toBe('running');
  });

  it('a runner the sweep took for dead and handed on stops at its next row, committing nothing more', async () => {
    const full = await preview(rowsOf('交接', 4, 40));
    const id = await crashedJob({
      kind: 'import',
      attempt: 0,
      // fresh: the recovery sweep leaves it to this test
      heartbeatAt: new Date(),
      payload: { actor: admin, body: { fileId: full.fileId, mapping: full.mapping, duplicateMode: 'skip' } },
    });
    // the sweep hands the job to attempt 2 right as row 5 commits (a trigger plays the sweep)
    await t.database.db.execute(
      sql.raw(`create function test_handover() returns trigger language plpgsql as $$
        begin if new.id = '${id}' and new.processed = 5 then new.attempt := 2; end if; return new; end $$`),
    );
    await t.database.db.execute(
      sql.raw('create trigger test_handover before update on jobs for each row execute function test_handover()'),
    );
    try {
      await runQueuedJob(env, { jobId: id, attempt: 1 });
    } finally {
      await t.database.db.execute(sql.raw('drop trigger test_handover on jobs'));
      await t.database.db.execute(sql.raw('drop function test_handover()'));
    }
    const [row] = await t.database.db.select().from(jobs).where(eq(jobs.id, id));
    // attempt 1 stopped: row 6 was rolled back with its failed checkpoint, nothing marked done or failed
    expect(row).toMatchObject({ status: 'running', attempt: 2, processed: 5 });
    expect(await countNamed('交接')).toHaveLength(5);
  });
});
