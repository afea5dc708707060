import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { RatePart } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { type Db, queryRows } from '../../db/client';
import { provisionCompany } from '../../db/seed/provision';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';
import * as repo from './billing.repo';
import { assignPlan, createPlan, rateDue, rateTenantBatch, recharge } from './billing.service';
import { RATE_QUEUE } from './billing-rating-job';
import { callCost } from './rating';

// kill -9 during rating and during a recharge (issue 27): after a restart every call is charged
// exactly once and every recharge booked once, the ledger sums to the balance. On PostgreSQL a
// child process runs the real billing code (billing-crash.child.ts) and is killed with SIGKILL
// while it works; on either engine a crash between the last statement and COMMIT is simulated
// (the transaction's callback completes, then the "process dies": nothing is committed).

let t: TestApp;
let seq = 0;
const rate: RatePart = { connect_fee: 50, first_block: 6, increment: 6, price_per_minute: 700, charge_unanswered: false };
const INITIAL = 100_000_000;

const company = async () => {
  seq += 1;
  const { tenantId } = await provisionCompany(t.database.db, {
    companyName: `崩溃计费${process.pid}_${seq}`,
    adminUsername: `crash${process.pid}_${seq}`,
    adminName: 'x',
    adminPhone: `135${String(process.pid % 100_000).padStart(5, '0')}${String(seq).padStart(3, '0')}`,
    password: DEMO_PASSWORD,
  });
  const planId = await createPlan(t.app.db, {
    name: `崩溃资费${process.pid}_${seq}`,
    rates: { manual: rate, task: rate, group: rate, ai: rate, inbound: rate },
  });
  await assignPlan(t.app.db, {
    company: tenantId,
    plan_id: planId,
    effective_from: new Date(Date.now() - 30 * 86_400_000).toISOString(),
    operator: 'o',
  });
  await recharge(t.app.db, {
    company: tenantId,
    amount: INITIAL,
    bonus: 0,
    channel: '对公转账',
    ref: 'init',
    operator: 'o',
    remark: '',
  });
  return tenantId;
};

/** `n` ended calls waiting to be rated (a fifth unanswered, talk 0–199 s); answers what they cost. */
const pendingCalls = async (tenantId: number, n: number) => {
  await t.app.db.execute(sql`
    insert into billing_call_usage (call_uuid, tenant_id, kind, call_type, start_at, answer_at, end_at, duration)
    select 'crash-' || ${tenantId}::int || '-' || g, ${tenantId}, 'manual', 1, now() - interval '1 hour',
           case when g % 5 = 0 then null else now() - interval '59 minutes' end, now() - interval '50 minutes',
           case when g % 5 = 0 then 0 else g % 200 end
    from generate_series(1, ${n}::int) g`);
  let cost = 0;
  for (let g = 1; g <= n; g++) cost += callCost(rate, g % 5 !== 0, g % 5 === 0 ? 0 : g % 200).cost;
  return cost;
};

const books = async (tenantId: number) => {
  const [u] = await queryRows<{ pending: unknown; rated: unknown; short: unknown; charged: unknown }>(
    t.app.db,
    sql`select count(*) filter (where status = 0) as pending, count(*) filter (where status = 1) as rated,
               count(*) filter (where status = 1 and amount <> cost) as short, coalesce(sum(amount), 0) as charged
        from billing_call_usage where tenant_id = ${tenantId}`,
  );
  const [l] = await queryRows<{ calls: unknown; dup: unknown; recharges: unknown; unlinked: unknown }>(
    t.app.db,
    sql`select count(*) filter (where source_kind = 'call') as calls,
               count(*) - count(distinct idem_key) as dup,
               count(*) filter (where source_kind = 'recharge') as recharges,
               (select count(*) from billing_call_usage cu where cu.tenant_id = ${tenantId} and cu.amount > 0
                  and not exists (select 1 from billing_ledger x where x.id = cu.ledger_id and x.amount = -cu.amount)) as unlinked
        from billing_ledger where tenant_id = ${tenantId}`,
  );
  const balance = await repo.readBalance(t.app.db, tenantId);
  const { sum } = await repo.ledgerSum(t.app.db, tenantId);
  expect(sum).toBe(balance.balance);
  expect(Number(l.dup)).toBe(0);
  expect(Number(l.unlinked)).toBe(0);
  return {
    pending: Number(u.pending),
    rated: Number(u.rated),
    short: Number(u.short),
    charged: Number(u.charged),
    callRows: Number(l.calls),
    rechargeRows: Number(l.recharges),
    balance: balance.balance,
    reserved: balance.reserved,
  };
};

/** The same database as the test's app, by URL (PostgreSQL). */
const databaseUrl = async () => {
  const [row] = await queryRows<{ name: string }>(t.app.db, sql`select current_database() as name`);
  const url = new URL(loadConfig(undefined, {}).databaseUrl);
  url.pathname = `/${row.name}`;
  return url.toString();
};

const CHILD = fileURLToPath(new URL('./billing-crash.child.ts', import.meta.url));

/** Runs the child; `killAfter` lines of progress (or never): answers the lines it printed and how it ended. */
const runChild = (args: string[], killAfter?: number) =>
  new Promise<{ lines: number; signal: NodeJS.Signals | null; code: number | null }>((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let lines = 0;
    let err = '';
    child.stderr?.on('data', (d) => {
      err += String(d);
    });
    child.stdout?.on('data', (d) => {
      for (const line of String(d).split('\n')) {
        if (!line || line === 'ready') continue;
        lines += 1;
        if (killAfter !== undefined && lines === killAfter) child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== null && code !== 0) reject(new Error(`child exited ${code}: ${err}`));
      else resolve({ lines, signal, code });
    });
  });

/** A database whose transactions die after their last statement, before COMMIT (a crash there). */
const crashingBeforeCommit = (db: Db): Db =>
  new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'transaction') return Reflect.get(target, prop, receiver);
      return (fn: Parameters<Db['transaction']>[0]) =>
        target.transaction(async (tx) => {
          await fn(tx);
          throw new Error('the process died before COMMIT');
        });
    },
  });

beforeAll(async () => {
  t = await createTestApp();
  // the tests rate by hand (and by the killed process): the app's own rating job must not take their calls
  await t.app.queue.boss.offWork(RATE_QUEUE);
}, 300_000);
afterAll(async () => {
  await t?.close();
}, 60_000);

describe('a crash during rating or a recharge charges nothing twice and loses nothing', () => {
  it('a crash before COMMIT of a rating batch and of a recharge: nothing booked; the retry books it once', async () => {
    const tenantId = await company();
    const cost = await pendingCalls(tenantId, 40);
    await expect(rateTenantBatch(crashingBeforeCommit(t.app.db), tenantId, 25)).rejects.toThrow('before COMMIT');
    expect(await books(tenantId)).toMatchObject({ pending: 40, rated: 0, callRows: 0, balance: INITIAL, reserved: 0 });
    const body = {
      company: tenantId,
      amount: 5000,
      bonus: 100,
      channel: '对公转账' as const,
      ref: 'after-crash',
      operator: 'o',
      remark: '',
    };
    await expect(recharge(crashingBeforeCommit(t.app.db), body)).rejects.toThrow('before COMMIT');
    expect((await books(tenantId)).rechargeRows).toBe(1);
    // restarted: the job rates everything, the CLI's retry records the recharge, once each
    await rateDue(t.app.db);
    await rateDue(t.app.db);
    expect((await recharge(t.app.db, body)).is_new).toBe(true);
    expect((await recharge(t.app.db, body)).is_new).toBe(false);
    const b = await books(tenantId);
    expect(b).toMatchObject({ pending: 0, rated: 40, short: 0, charged: cost, rechargeRows: 2, reserved: 0 });
    expect(b.balance).toBe(INITIAL + 5100 - cost);
  });

  it('kill -9 of a process rating calls, three times, then a restart: each call charged exactly once', async (ctx) => {
    if (t.database.kind !== 'postgres') ctx.skip();
    const tenantId = await company();
    const cost = await pendingCalls(tenantId, 600);
    const url = await databaseUrl();
    for (const killAfter of [3, 9, 17]) {
      const run = await runChild(['rate', url, String(tenantId)], killAfter);
      expect(run.signal).toBe('SIGKILL');
      const b = await books(tenantId);
      // killed while rating: work left, and no batch half done (7 calls a transaction)
      expect(b.pending).toBeGreaterThan(0);
      expect(b.rated % 7).toBe(0);
      expect(b.balance).toBe(INITIAL - b.charged);
    }
    const last = await runChild(['rate', url, String(tenantId)]);
    expect(last.code).toBe(0);
    const b = await books(tenantId);
    expect(b).toMatchObject({ pending: 0, rated: 600, short: 0, charged: cost, reserved: 0 });
    expect(b.callRows).toBe(480); // the answered ones (a fifth were not answered: no charge)
    expect(b.balance).toBe(INITIAL - cost);
  }, 180_000);

  it('kill -9 of a process recording recharges, then its rerun: each recharge booked exactly once', async (ctx) => {
    if (t.database.kind !== 'postgres') ctx.skip();
    const tenantId = await company();
    const url = await databaseUrl();
    const run = await runChild(['recharge', url, String(tenantId), '200'], 40);
    expect(run.signal).toBe('SIGKILL');
    const mid = await books(tenantId);
    expect(mid.rechargeRows).toBeGreaterThanOrEqual(41);
    expect(mid.rechargeRows).toBeLessThan(201);
    // the operator runs the same batch again: what was recorded is answered, the rest recorded
    const rerun = await runChild(['recharge', url, String(tenantId), '200']);
    expect(rerun.code).toBe(0);
    const b = await books(tenantId);
    expect(b.rechargeRows).toBe(201);
    let added = 0;
    for (let i = 1; i <= 200; i++) added += 100 + i;
    expect(b.balance).toBe(INITIAL + added);
    const [r] = await queryRows<{ c: unknown }>(
      t.app.db,
      sql`select count(*) as c from billing_recharges where tenant_id = ${tenantId}`,
    );
    expect(Number(r.c)).toBe(201);
  }, 180_000);
});
