import { WORK_STATUS } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { createTestApp, type TestApp } from '../../test/harness';
import { isWorkOverdue, workOverdueSql } from './workorders-overdue';

/**
 * The overdue rule of a work order (issue 24: one rule, its TS and SQL forms tested at both edges):
 * open and due before the moment; due exactly now is not yet overdue, a second ago is, a done one never.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('work order overdue rule', () => {
  it('the TS and SQL forms agree at both edges', async () => {
    const at = new Date('2026-11-20T08:00:00.000Z');
    const sqlSays = async (status: number, dueAt: Date) =>
      (
        await queryRows<{ overdue: boolean }>(
          t.database.db,
          sql`select ${workOverdueSql(sql`w`, at)} as overdue
              from (values (${status}::int, ${dueAt.toISOString()}::timestamptz)) as w(status, due_at)`,
        )
      )[0].overdue;
    const cases: [string, number, Date, boolean][] = [
      ['due a second ago', WORK_STATUS.open, new Date(at.getTime() - 1000), true],
      ['due exactly now', WORK_STATUS.open, at, false],
      ['due in a second', WORK_STATUS.open, new Date(at.getTime() + 1000), false],
      ['done, due a day ago', WORK_STATUS.done, new Date(at.getTime() - 86_400_000), false],
    ];
    for (const [name, status, dueAt, overdue] of cases) {
      expect(isWorkOverdue({ status, dueAt }, at), `TS: ${name}`).toBe(overdue);
      expect(await sqlSays(status, dueAt), `SQL: ${name}`).toBe(overdue);
    }
  });
});
