import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { queryRows } from './client';

// PostgreSQL: the app's sessions start no parallel workers (client.ts SESSION_OPTIONS): on a small
// server a parallel count of 25,714 orders took 71–95 ms against 26 ms alone (bench/README.md).
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("the app's PostgreSQL sessions", () => {
  it('plan no parallel workers, on every connection of the pool', async ({ skip }) => {
    if (t.database.kind !== 'postgres') skip();
    // several at once: each takes its own connection
    const settings = await Promise.all(
      [1, 2, 3].map(() =>
        queryRows<{ v: string }>(
          t.database.db,
          sql`select current_setting('max_parallel_workers_per_gather') as v, pg_sleep(0.05)`,
        ),
      ),
    );
    expect(settings.map((rows) => rows[0].v)).toEqual(['0', '0', '0']);
  });
});
