import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createTestApp, DEMO_PASSWORD } from '../test/harness';
import { type Database, openDatabase } from './client';
import { MoveRefused, moveToPostgres, TARGET_NOT_EMPTY, type TableCount } from './move';
import { provisionCompany } from './seed/provision';

// PGlite → PostgreSQL (npm run db:move-to-postgres): needs a PostgreSQL server, so only in the postgres project.
const serverUrl = process.env.DATABASE_URL ?? '';

const admin = async (sql: string) => {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
};

describe.runIf(serverUrl)('moving the embedded database to PostgreSQL', () => {
  // named like a test database, so a later run drops it once stale if this one is killed
  const name = `crm_test_${Date.now()}_move_${randomBytes(4).toString('hex')}`;
  // (the describe body runs even when skipped: no URL parsing here without a server)
  const targetUrl = serverUrl ? Object.assign(new URL(serverUrl), { pathname: `/${name}` }).toString() : '';
  let source: Database;
  let counts: TableCount[];

  beforeAll(async () => {
    // the demo company (staff, customers, AI flows and tasks…) and 测试二公司 on PGlite
    const t = await createTestApp({ config: { databaseUrl: '' } });
    const image = (await t.database.dump?.()) as Blob;
    await t.close();
    source = await openDatabase({ databaseUrl: '', pgliteDir: 'memory://', pgliteImage: image });
    await admin(`create database ${name}`);
    counts = await moveToPostgres({ source, targetUrl, batchSize: 50 });
  }, 120_000);

  afterAll(async () => {
    await source?.close();
    await admin(`drop database if exists ${name} with (force)`).catch(() => undefined);
  });

  it('copies every table with the same row counts', () => {
    expect(counts.length).toBeGreaterThan(20);
    for (const c of counts) expect(c.target, c.table).toBe(c.source);
    const byTable = Object.fromEntries(counts.map((c) => [c.table, c.source]));
    expect(byTable.tenants).toBeGreaterThanOrEqual(2);
    expect(byTable.staff).toBeGreaterThan(3);
    expect(byTable.customers).toBeGreaterThan(7);
  });

  it('refuses a target that holds data and writes nothing', async () => {
    await expect(moveToPostgres({ source, targetUrl })).rejects.toThrow(MoveRefused);
    await expect(moveToPostgres({ source, targetUrl })).rejects.toThrow(TARGET_NOT_EMPTY);
    const target = await openDatabase({ databaseUrl: targetUrl, pgliteDir: '' });
    try {
      for (const c of counts.filter((x) => ['tenants', 'staff', 'customers'].includes(x.table))) {
        const { rows } = await target.sql(`select count(*)::int as n from ${c.table}`, []);
        expect(rows[0].n, c.table).toBe(c.target);
      }
    } finally {
      await target.close();
    }
  });

  it('continues the sequences after the moved ids, and the moved admin logs in', async () => {
    const target = await openDatabase({ databaseUrl: targetUrl, pgliteDir: '' });
    try {
      const before = await target.sql('select max(id)::int as m from tenants', []);
      const maxStaff = await target.sql('select max(id)::int as m from staff', []);
      // rows inserted without ids (tenant, staff, roles…)
      const made = await provisionCompany(target.db, {
        companyName: '迁移后新公司',
        adminUsername: 'moved_boss',
        adminName: '新管理员',
        adminPhone: '13900000099',
        password: DEMO_PASSWORD,
      });
      expect(made.tenantId).toBeGreaterThan(before.rows[0].m as number);
      const staffNow = await target.sql('select max(id)::int as m from staff', []);
      expect(staffNow.rows[0].m as number).toBeGreaterThan(maxStaff.rows[0].m as number);

      const app = await buildApp(
        loadConfig(undefined, {
          logLevel: 'silent',
          webDist: '/nonexistent',
          isClockControlled: true,
          dataDir: path.join(os.tmpdir(), `crm-test-${process.pid}`),
          databaseUrl: targetUrl,
          redisUrl: '',
        }),
        target,
      );
      try {
        await app.ready();
        const res = await app.inject({
          method: 'POST',
          url: '/api/frontend/login',
          payload: { username: 'admin', password: DEMO_PASSWORD },
        });
        expect(res.json().code).toBe(0);
      } finally {
        await app.close();
      }
    } finally {
      await target.close();
    }
  });
});
