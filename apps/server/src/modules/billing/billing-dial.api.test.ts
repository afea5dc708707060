import { randomUUID } from 'node:crypto';
import type { RatePart } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingReservations } from '../../db/schema';
import { provisionCompany } from '../../db/seed/provision';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';
import * as repo from './billing.repo';
import { assignPlan, createPlan, recharge, reserveForDial } from './billing.service';
import { maxTalkSeconds } from './rating';

// The dial's credit check in one statement (issue 27): the reservation's max_seconds computed in
// SQL equals rating.ts maxTalkSeconds for every plan shape and balance, and the plan cache never
// answers with a plan another instance replaced (the statement checks the plan in force).

let t: TestApp;
let seq = 0;

const part = (first: number, inc: number, ppm: number, connect = 0): RatePart => ({
  connect_fee: connect,
  first_block: first,
  increment: inc,
  price_per_minute: ppm,
  charge_unanswered: false,
});
const allKinds = (p: RatePart) => ({ manual: p, task: p, group: p, ai: p, inbound: p });

const company = async () => {
  seq += 1;
  const { tenantId } = await provisionCompany(t.database.db, {
    companyName: `拨号额度${process.pid}_${seq}`,
    adminUsername: `dial${process.pid}_${seq}`,
    adminName: 'x',
    adminPhone: `136${String(process.pid % 100_000).padStart(5, '0')}${String(seq).padStart(3, '0')}`,
    password: DEMO_PASSWORD,
  });
  return tenantId;
};

const plan = async (tenantId: number, p: RatePart, from = Date.now() - 86_400_000) => {
  seq += 1;
  const id = await createPlan(t.app.db, { name: `拨号资费${process.pid}_${seq}`, rates: allKinds(p) });
  await assignPlan(t.app.db, { company: tenantId, plan_id: id, effective_from: new Date(from).toISOString(), operator: 'o' });
  return id;
};

const dial = (tenantId: number) => {
  const callUuid = randomUUID();
  return t.app.db
    .transaction((tx) => reserveForDial(tx, { tenantId, callUuid, kind: 'manual', at: new Date() }))
    .then((credit) => ({ callUuid, credit }));
};

const topUp = (tenantId: number, amount: number) =>
  recharge(t.app.db, { company: tenantId, amount, bonus: 0, channel: '对公转账', ref: `r${++seq}`, operator: 'o', remark: '' });

beforeAll(async () => {
  t = await createTestApp();
}, 300_000);
afterAll(async () => {
  await t?.close();
}, 60_000);

describe('the dial credit check in one statement', () => {
  it('holds what rating.ts says: the reservation row and the answer agree for each plan shape at its edges', async () => {
    const shapes = [part(60, 60, 1000), part(6, 6, 700), part(30, 6, 1234, 500), part(1, 1, 7), part(60, 60, 0, 300)];
    for (const p of shapes) {
      const tenantId = await company();
      await plan(tenantId, p);
      // each balance is held whole (below one hour's reservation): the edges of the billing grid
      for (const credit of [1000, 1001, 1999, 2000, 2001, 3333, 12_345]) {
        const before = await repo.readBalance(t.app.db, tenantId);
        await topUp(tenantId, credit - (before.balance - before.reserved));
        const r = await dial(tenantId).catch((e) => ({ callUuid: '', credit: null, e }));
        if (r.credit === null) continue; // below the first block: refused (covered elsewhere)
        const [row] = await t.app.db.select().from(billingReservations).where(eq(billingReservations.callUuid, r.callUuid));
        expect(r.credit.maxSeconds).toBe(maxTalkSeconds(p, Number(row.amount)));
        expect(row.maxSeconds).toBe(r.credit.maxSeconds ?? 0);
      }
    }
  });

  it('a plan assigned by another instance (this one’s cache not told) is the one the next dial uses', async () => {
    const tenantId = await company();
    await topUp(tenantId, 100_000);
    // no plan: free, and the cache now says so
    expect((await dial(tenantId)).credit).toEqual({ maxSeconds: null });
    // another instance assigns a paid plan: only the database knows
    seq += 1;
    const id = await createPlan(t.app.db, { name: `他处资费${process.pid}_${seq}`, rates: allKinds(part(60, 60, 1000)) });
    await repo.assignPlan(t.app.db, tenantId, id, new Date(Date.now() - 1000), 'elsewhere');
    const r = await dial(tenantId);
    expect(r.credit.maxSeconds).toBeGreaterThan(0);
    const [row] = await t.app.db.select().from(billingReservations).where(eq(billingReservations.callUuid, r.callUuid));
    expect(row).toMatchObject({ planId: id });
    expect((await repo.readBalance(t.app.db, tenantId)).reserved).toBe(Number(row.amount));
  });
});
