import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { queryRows, type Tx } from './client';
import { planEachTime, STATEMENTS_PER_CONNECTION } from './named-statements';

// PostgreSQL: a parameterised statement is prepared once per connection and then only bound and
// executed (issue 25, named-statements.ts). A transaction keeps one connection, so its session's
// pg_prepared_statements shows what the client prepared.
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const preparedLike = async (tx: Tx, marker: string) =>
  (
    await queryRows<{ statement: string }>(
      tx,
      sql`select statement from pg_prepared_statements where strpos(statement, ${marker}) > 0 and strpos(statement, 'pg_prepared_statements') = 0`,
    )
  ).map((r) => r.statement);

describe('named statements (PostgreSQL)', () => {
  it('prepares a parameterised text once and leaves a text without parameters unnamed', async ({ skip }) => {
    if (t.database.kind !== 'postgres') skip();
    await t.database.db.transaction(async (tx) => {
      for (const n of [1, 2, 3]) {
        expect(await queryRows<{ n: number }>(tx, sql`select ${n}::int + 1 as n /* marker-one */`)).toEqual([{ n: n + 1 }]);
      }
      await tx.execute(sql.raw('select 1 /* marker-raw */'));
      expect(await preparedLike(tx, 'marker-one')).toHaveLength(1);
      expect(await preparedLike(tx, 'marker-raw')).toHaveLength(0);
    });
  });

  it('leaves a statement marked planEachTime unnamed (a customers list is planned with its values)', async ({ skip }) => {
    if (t.database.kind !== 'postgres') skip();
    await t.database.db.transaction(async (tx) => {
      for (const n of [1, 2]) {
        expect(await queryRows<{ n: number }>(tx, planEachTime(sql`select ${n}::int as n /* marker-each */`))).toEqual([{ n }]);
      }
      expect(await preparedLike(tx, 'marker-each')).toHaveLength(0);
    });
  });

  it('a statement that fails to parse fails again the same way, and the connection goes on', async ({ skip }) => {
    if (t.database.kind !== 'postgres') skip();
    for (let i = 0; i < 2; i++) {
      await expect(queryRows(t.database.db, sql`select no_such_column + ${i}::int /* marker-bad */`)).rejects.toThrow(
        /no_such_column/,
      );
    }
    expect(await queryRows<{ n: number }>(t.database.db, sql`select ${41}::int + 1 as n`)).toEqual([{ n: 42 }]);
  });

  it(`keeps at most ${STATEMENTS_PER_CONNECTION} texts prepared on a connection; the next ones run unnamed`, async ({ skip }) => {
    if (t.database.kind !== 'postgres') skip();
    await t.database.db.transaction(async (tx) => {
      const before = (await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from pg_prepared_statements`))[0].n;
      const extra = STATEMENTS_PER_CONNECTION - before + 5;
      for (let i = 0; i < extra; i++) {
        const [row] = await queryRows<{ n: number }>(tx, sql`select ${i}::int as n /* ${sql.raw(`marker-cap-${i}`)} */`);
        expect(row.n).toBe(i);
      }
      const after = (await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from pg_prepared_statements`))[0].n;
      expect(after).toBe(STATEMENTS_PER_CONNECTION);
    });
  });
});
