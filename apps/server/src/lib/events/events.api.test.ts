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
});
