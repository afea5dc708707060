import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ImportPreview, ImportResult } from '@crm/contracts';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, jobs, staff } from '../../db/schema';
import { buildXlsx, multipart, waitJob } from '../../test/customers';
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

  it('an in-process job (export) whose process died ends failed with the count it had reached', async () => {
    const id = await crashedJob({ kind: 'export', processed: 40, total: 100 });
    await recoverJobs(env);
    const job = (await t.get(`/api/frontend/customer/job?jobId=${id}`, token)).json().data;
    expect(job).toMatchObject({ status: 'failed', processed: 40, total: 100 });
    expect(job.error).toBe('任务因服务重启中断，已处理40条，请核对后重新发起剩余部分');
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
