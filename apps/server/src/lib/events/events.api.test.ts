import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, domainEvents, followRecords, staff } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { type DomainEventMap, deliver, onEvent, publish } from './events';

let t: TestApp;
let tenantId: number;
let staffId: number;

/** A fresh customer of the demo company with no contacts yet. */
const newCustomer = async () => {
  const [any] = await t.database.db.select().from(customers).where(eq(customers.tenantId, tenantId)).limit(1);
  const [c] = await t.database.db
    .insert(customers)
    .values({
      tenantId,
      templateId: any.templateId,
      name: `事件客户-${randomUUID().slice(0, 8)}`,
      ownerId: staffId,
      creatorId: staffId,
    })
    .returning();
  return c;
};
const callEnded = (customerId: number, uuid = randomUUID()): DomainEventMap['call.ended'] => ({
  uuid,
  customerId,
  staffId,
  callType: 1,
  billsec: 12,
  recordFile: '',
  remark: '呼出通话 12 秒',
  at: new Date().toISOString(),
});
const followsOf = (uuid: string) => t.database.db.select().from(followRecords).where(eq(followRecords.recordId, uuid));
const customerRow = async (id: number) => (await t.database.db.select().from(customers).where(eq(customers.id, id)))[0];

beforeAll(async () => {
  t = await createTestApp();
  const [me] = await t.database.db.select().from(staff).where(eq(staff.username, 'zhangsan'));
  tenantId = me.tenantId;
  staffId = me.id;
  // a reaction that fails for one marked call only (the outbox must keep that event)
  onEvent('call.ended', 'test.failing', async (_tx, e) => {
    if (e.payload.remark === '失败') throw new Error('handler down');
  });
});
afterAll(async () => {
  await t?.close();
});

describe('domain events through the outbox', () => {
  it('an event of a rolled-back transaction never exists, so nothing reacts', async () => {
    const c = await newCustomer();
    const e = callEnded(c.id);
    await expect(
      t.database.db.transaction(async (tx) => {
        await publish(tx, tenantId, 'call.ended', e);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await deliver(t.database.db);
    expect(await followsOf(e.uuid)).toHaveLength(0);
    expect((await customerRow(c.id)).contactNum).toBe(0);
  });

  it('call ended, committed, process died before delivering: the relay makes follow-ups and customers react once', async () => {
    const c = await newCustomer();
    const e = callEnded(c.id);
    const id = await t.database.db.transaction((tx) => publish(tx, tenantId, 'call.ended', e));
    // nobody delivered it: no follow record, no counter yet
    expect(await followsOf(e.uuid)).toHaveLength(0);
    await deliver(t.database.db);
    const follows = await followsOf(e.uuid);
    expect(follows).toHaveLength(1);
    expect(follows[0]).toMatchObject({ customerId: c.id, staffId, billsec: 12, remark: '呼出通话 12 秒', followType: 3 });
    expect(await customerRow(c.id)).toMatchObject({ contactNum: 1, lastContactStatus: 1 });
    // delivered once: another relay pass or a late direct delivery changes nothing
    await deliver(t.database.db);
    await deliver(t.database.db, [id]);
    expect(await followsOf(e.uuid)).toHaveLength(1);
    expect((await customerRow(c.id)).contactNum).toBe(1);
  });

  it('two instances delivering the same event at once: it reacts once', async () => {
    const c = await newCustomer();
    const e = callEnded(c.id);
    const id = await publish(t.database.db, tenantId, 'call.ended', e);
    await Promise.all([deliver(t.database.db, [id]), deliver(t.database.db, [id]), deliver(t.database.db)]);
    expect(await followsOf(e.uuid)).toHaveLength(1);
    expect((await customerRow(c.id)).contactNum).toBe(1);
  });

  it('a failing reaction rolls the whole delivery back and keeps the event, with its error, for a retry', async () => {
    const c = await newCustomer();
    const e = { ...callEnded(c.id), remark: '失败' };
    const id = await publish(t.database.db, tenantId, 'call.ended', e);
    expect(await deliver(t.database.db, [id])).toEqual({ delivered: 0, failed: 1 });
    const [row] = await t.database.db.select().from(domainEvents).where(eq(domainEvents.id, id));
    expect(row).toMatchObject({ attempts: 1, error: 'handler down', deliveredAt: null });
    // the other reactions did not half-happen
    expect(await followsOf(e.uuid)).toHaveLength(0);
    expect((await customerRow(c.id)).contactNum).toBe(0);
    const pending = await t.database.db
      .select({ id: domainEvents.id })
      .from(domainEvents)
      .where(and(isNull(domainEvents.deliveredAt)))
      .orderBy(asc(domainEvents.id));
    expect(pending.map((p) => p.id)).toContain(id);
  });

  it('customers moved to a pool: the move publishes customers.pooled and the follow-up history reacts', async () => {
    const c = await newCustomer();
    const token = await t.login('zhangsan');
    const admin = await t.login('admin');
    const created = await t.post(
      '/api/frontend/customerset/highseasdcreate',
      {
        name: `事件公海-${c.id}`,
        useRules: {
          recycle: { isOn: 0, noFollowDays: 0, noDealDays: 0, logic: 'or', cmNids: [], cmClids: [] },
          claim: { dailyMax: 0, cooldownDays: 0 },
        },
      },
      admin,
    );
    expect(created.json().code, created.body).toBe(0);
    const res = await t.post(
      '/api/frontend/customer/followdown',
      { cmCtids: [c.id], cmHsid: created.json().data.cmHsid, cmCdid: 0, reason: '事件测试' },
      token,
    );
    expect(res.json().code, res.body).toBe(0);
    const events = await t.database.db.select().from(domainEvents).where(eq(domainEvents.type, 'customers.pooled'));
    const mine = events.find((e) => (e.payload as DomainEventMap['customers.pooled']).moved.some(([id]) => id === c.id));
    expect(mine?.deliveredAt).not.toBeNull();
    const follows = await t.database.db.select().from(followRecords).where(eq(followRecords.customerId, c.id));
    expect(follows).toEqual([expect.objectContaining({ followType: 1, remark: '事件测试', staffId })]);
  });

  it('a pooled event left undelivered by a crash is written to the history by the relay, once', async () => {
    const a = await newCustomer();
    const b = await newCustomer();
    await t.database.db.transaction((tx) =>
      publish(tx, tenantId, 'customers.pooled', {
        moved: [
          [a.id, null],
          [b.id, null],
        ],
        staffId: null,
        sourceType: 3,
        reason: '系统回收',
        at: new Date().toISOString(),
      }),
    );
    const historyOf = (id: number) => t.database.db.select().from(followRecords).where(eq(followRecords.customerId, id));
    expect(await historyOf(a.id)).toHaveLength(0);
    await deliver(t.database.db);
    await deliver(t.database.db);
    for (const id of [a.id, b.id]) {
      expect(await historyOf(id)).toEqual([
        expect.objectContaining({ followType: 1, sourceType: 3, remark: '系统回收', staffId: null }),
      ]);
    }
  });
});
