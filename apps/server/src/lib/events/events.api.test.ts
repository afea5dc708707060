import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, domainEvents, followRecords, staff } from '../../db/schema';
import { waitJob } from '../../test/customers';
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

  describe('customers claimed, allotted and batch-transferred: customers.moved', () => {
    const movedEvents = async (customerId: number) =>
      (await t.database.db.select().from(domainEvents).where(eq(domainEvents.type, 'customers.moved'))).filter((e) =>
        (e.payload as DomainEventMap['customers.moved']).groups.some((g) => g.moved.some(([id]) => id === customerId)),
      );
    const historyOf = (id: number) =>
      t.database.db.select().from(followRecords).where(eq(followRecords.customerId, id)).orderBy(asc(followRecords.id));
    const staffIdOf = async (username: string) =>
      (await t.database.db.select().from(staff).where(eq(staff.username, username)))[0].id;
    /** Makes every customers.moved insert fail: the move publishing it must roll back with it. */
    const breakOutbox = async () => {
      await t.database.db.execute(sql`create or replace function test_refuse_moved() returns trigger language plpgsql as $$
        begin if new.type = 'customers.moved' then raise exception 'outbox down'; end if; return new; end $$`);
      await t.database.db.execute(
        sql`create trigger test_refuse_moved before insert on domain_events for each row execute function test_refuse_moved()`,
      );
    };
    const repairOutbox = () => t.database.db.execute(sql`drop trigger test_refuse_moved on domain_events`);
    let pool = 0;
    let poolName = '';
    let lisi = 0;
    let wangwu = 0;
    const tokens: Record<string, string> = {};

    beforeAll(async () => {
      for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu']) tokens[u] = await t.login(u);
      lisi = await staffIdOf('lisi');
      wangwu = await staffIdOf('wangwu');
      poolName = `移动公海-${randomUUID().slice(0, 6)}`;
      const created = await t.post(
        '/api/frontend/customerset/highseasdcreate',
        {
          name: poolName,
          useRules: {
            recycle: { isOn: 0, noFollowDays: 0, noDealDays: 0, logic: 'or', cmNids: [], cmClids: [] },
            claim: { dailyMax: 0, cooldownDays: 0 },
          },
        },
        tokens.admin,
      );
      expect(created.json().code, created.body).toBe(0);
      pool = created.json().data.cmHsid;
    });
    const pooledCustomer = async () => {
      const c = await newCustomer();
      const res = await t.post(
        '/api/frontend/customer/followdown',
        { cmCtids: [c.id], cmHsid: pool, cmCdid: 0, reason: '移动测试' },
        tokens.zhangsan,
      );
      expect(res.json().code, res.body).toBe(0);
      return c;
    };

    it('a claim whose event cannot be recorded does not happen; a claim publishes one event and the history reacts', async () => {
      const c = await pooledCustomer();
      await breakOutbox();
      try {
        const refused = await t.post('/api/frontend/customer/followup', { cmCtids: [c.id] }, tokens.lisi);
        expect(refused.json().code).not.toBe(0);
      } finally {
        await repairOutbox();
      }
      expect(await customerRow(c.id)).toMatchObject({ ownerId: null, poolId: pool });
      expect(await movedEvents(c.id)).toHaveLength(0);
      expect((await historyOf(c.id)).map((r) => r.followType)).toEqual([1]);

      const res = await t.post('/api/frontend/customer/followup', { cmCtids: [c.id] }, tokens.lisi);
      expect(res.json().code, res.body).toBe(0);
      const [e] = await movedEvents(c.id);
      expect(e.deliveredAt).not.toBeNull();
      expect(e.payload).toMatchObject({
        kind: 'claim',
        staffId: lisi,
        groups: [{ toStaffId: lisi, reason: poolName, moved: [[c.id, null]] }],
      });
      expect((await historyOf(c.id)).at(-1)).toMatchObject({ followType: 2, sourceType: 1, remark: poolName, staffId: lisi });
    });

    it('an allot whose event cannot be recorded does not happen; an allot publishes one event for all its customers', async () => {
      const a = await newCustomer();
      const b = await pooledCustomer();
      const allot = () => t.post('/api/frontend/customer/allot', { cmCtids: [a.id, b.id], cmSid: wangwu }, tokens.zhangsan);
      await breakOutbox();
      try {
        expect((await allot()).json().code).not.toBe(0);
      } finally {
        await repairOutbox();
      }
      expect(await customerRow(a.id)).toMatchObject({ ownerId: staffId });
      expect(await customerRow(b.id)).toMatchObject({ ownerId: null, poolId: pool });
      expect(await movedEvents(a.id)).toHaveLength(0);

      const res = await allot();
      expect(res.json(), res.body).toMatchObject({ code: 0, data: { count: 2 } });
      const events = await movedEvents(a.id);
      expect(events).toHaveLength(1);
      expect(events[0].deliveredAt).not.toBeNull();
      const payload = events[0].payload as DomainEventMap['customers.moved'];
      expect(payload).toMatchObject({ kind: 'allot', staffId });
      expect(payload.groups.map((g) => g.reason).sort()).toEqual(
        ['分配给王五（原负责人：张三）', `分配给王五（来自公海「${poolName}」）`].sort(),
      );
      expect((await historyOf(a.id)).at(-1)).toMatchObject({ followType: 0, remark: '分配给王五（原负责人：张三）', staffId });
      expect((await historyOf(b.id)).at(-1)).toMatchObject({
        followType: 0,
        remark: `分配给王五（来自公海「${poolName}」）`,
        staffId,
      });
    });

    it('a batch transfer publishes one event per chunk, rolled back with its chunk', async () => {
      // wangwu leaves: his book goes to lisi
      const c = await newCustomer();
      await t.database.db.update(customers).set({ ownerId: wangwu }).where(eq(customers.id, c.id));
      const admin = (await t.database.db.select().from(staff).where(eq(staff.username, 'admin')))[0].id;
      const transfer = async () => {
        const start = await t.post('/api/frontend/customer/batchallot', { fromCmSid: wangwu, toCmSids: [lisi] }, tokens.admin);
        expect(start.json().code, start.body).toBe(0);
        return waitJob(t, tokens.admin, start.json().data.jobId);
      };
      await breakOutbox();
      try {
        expect((await transfer()).status).not.toBe('done');
      } finally {
        await repairOutbox();
      }
      expect(await customerRow(c.id)).toMatchObject({ ownerId: wangwu });
      expect(await movedEvents(c.id)).toHaveLength(0);

      expect((await transfer()).status).toBe('done');
      const events = await movedEvents(c.id);
      expect(events).toHaveLength(1);
      expect(events[0].deliveredAt).not.toBeNull();
      expect(events[0].payload).toMatchObject({
        kind: 'transfer',
        staffId: admin,
        groups: [{ toStaffId: lisi, reason: '批量转移：王五 → 李四' }],
      });
      expect(await customerRow(c.id)).toMatchObject({ ownerId: lisi });
      expect((await historyOf(c.id)).at(-1)).toMatchObject({ followType: 0, remark: '批量转移：王五 → 李四', staffId: admin });
    });

    it('a moved event left undelivered by a crash is written to the history by the relay, once', async () => {
      const a = await newCustomer();
      const b = await newCustomer();
      const at = new Date();
      await t.database.db.transaction((tx) =>
        publish(tx, tenantId, 'customers.moved', {
          kind: 'allot',
          staffId,
          groups: [
            { toStaffId: lisi, reason: '分配给李四（原负责人：张三）', moved: [[a.id, null]] },
            { toStaffId: wangwu, reason: '分配给王五（原负责人：张三）', moved: [[b.id, null]] },
          ],
          at: at.toISOString(),
        }),
      );
      expect(await historyOf(a.id)).toHaveLength(0);
      await deliver(t.database.db);
      await deliver(t.database.db);
      expect(await historyOf(a.id)).toEqual([
        expect.objectContaining({ followType: 0, remark: '分配给李四（原负责人：张三）', staffId, createdAt: at }),
      ]);
      expect(await historyOf(b.id)).toEqual([expect.objectContaining({ followType: 0, remark: '分配给王五（原负责人：张三）' })]);
    });
  });
});
