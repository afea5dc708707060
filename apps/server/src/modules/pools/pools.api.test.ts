import type { CustomerRow, DiscardReason, FollowRecord, Pool, PoolOption, PoolRules } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, followRecords } from '../../db/schema';
import { setClockOffsetMs } from '../../lib/clock';
import { fetchTemplate, mustCreate, setStrategy, type Template, waitJob } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';
import { setPendingOrders } from './pools.service';
import { purgeDeleted } from './pools-recycle';

let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];
const staffIds: Record<string, number> = {};
let dept1 = 0;
let dept2 = 0;
let reasonId = 0;
const DAY = 86_400_000;

const rules = (over: { recycle?: Partial<PoolRules['recycle']>; claim?: Partial<PoolRules['claim']> } = {}): PoolRules => ({
  recycle: { isOn: 0, noFollowDays: 0, noDealDays: 0, logic: 'or', cmNids: [], cmClids: [], ...over.recycle },
  claim: { dailyMax: 0, cooldownDays: 0, ...over.claim },
});

const createPool = async (name: string, body: Record<string, unknown> = {}) => {
  const res = await t.post('/api/frontend/customerset/highseasdcreate', { name, useRules: rules(), ...body }, as('admin'));
  expect(res.json(), name).toMatchObject({ code: 0, msg: '添加成功' });
  return res.json().data.cmHsid as number;
};
const editPool = async (cmHsid: number, body: Record<string, unknown>) => {
  const res = await t.post('/api/frontend/customerset/highseasedit', { cmHsid, ...body }, as('admin'));
  expect(res.json()).toMatchObject({ code: 0 });
};
const discard = (user: string, cmCtids: number[], cmHsid: number, cmCdid: number, reason = '') =>
  t.post('/api/frontend/customer/followdown', { cmCtids, cmHsid, cmCdid, reason }, as(user));
const claim = (user: string, cmCtids: number[]) => t.post('/api/frontend/customer/followup', { cmCtids }, as(user));
const seas = async (user: string, body: Record<string, unknown> = {}) => {
  const res = await t.post('/api/frontend/customer/seaslist', { limit: 200, ...body }, as(user));
  expect(res.json().code, JSON.stringify(res.json())).toBe(0);
  return res.json().data as { list: (CustomerRow & { discardReason: string; cmHsidName: string })[]; count: number };
};
const ownerOf = async (id: number) => (await t.database.db.select().from(customers).where(eq(customers.id, id)))[0];
const historyOf = (id: number) => t.database.db.select().from(followRecords).where(eq(followRecords.customerId, id));
const newCustomer = (user: string, name: string) => mustCreate(t, as(user), tpl, name);

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'zhaoliu', 'other_admin']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
  const staff = (await t.get('/api/frontend/staff/list?page=1&limit=100', as('admin'))).json().data.list as {
    cmSid: number;
    username: string;
    cmDid: number;
  }[];
  for (const s of staff) staffIds[s.username] = s.cmSid;
  dept1 = staff.find((s) => s.username === 'lisi')?.cmDid ?? 0;
  dept2 = staff.find((s) => s.username === 'zhaoliu')?.cmDid ?? 0;
  const res = await t.post('/api/frontend/customerset/discardcreate', { name: '测试理由', sortNum: 9 }, as('admin'));
  reasonId = res.json().data.cmCdid;
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('discard reasons and pools settings', () => {
  it('creates, edits, disables and deletes discard reasons; discardbaselist holds only the enabled ones', async () => {
    const create = await t.post('/api/frontend/customerset/discardcreate', { name: '临时理由', sortNum: 50 }, as('admin'));
    expect(create.json()).toMatchObject({ code: 0, msg: '添加成功' });
    const id = create.json().data.cmCdid as number;
    expect((await t.post('/api/frontend/customerset/discardcreate', { name: '临时理由' }, as('admin'))).json()).toMatchObject({
      code: 109001,
    });
    await t.post(
      '/api/frontend/customerset/discardedit',
      { cmCdid: id, name: '临时理由', sortNum: 50, actionState: 1 },
      as('admin'),
    );
    const base = (await t.get('/api/frontend/customerset/discardbaselist', as('lisi'))).json().data.list as DiscardReason[];
    expect(base.map((r) => r.name)).not.toContain('临时理由');
    expect(base.map((r) => r.name)).toContain('测试理由');
    const all = (await t.get('/api/frontend/customerset/discardlist?page=1&limit=100', as('admin'))).json().data
      .list as DiscardReason[];
    expect(all.find((r) => r.cmCdid === id)?.actionState).toBe(1);
    // sales have no /set/discard menu
    expect((await t.get('/api/frontend/customerset/discardlist', as('lisi'))).json().code).toBe(100003);
    expect((await t.post('/api/frontend/customerset/discarddel', { id }, as('admin'))).json()).toMatchObject({ code: 0 });
    // other companies never see them
    const other = (await t.get('/api/frontend/customerset/discardbaselist', as('other_admin'))).json().data
      .list as DiscardReason[];
    expect(other.map((r) => r.name)).not.toContain('测试理由');
  });

  it('validates pool rules and shows each staff member only the pools of his department', async () => {
    const bad = await t.post(
      '/api/frontend/customerset/highseasdcreate',
      { name: '坏规则', useRules: rules({ recycle: { isOn: 1 } }) },
      as('admin'),
    );
    expect(bad.json()).toMatchObject({ code: 100001, msg: '开启自动回收时请填写未跟进天数或未成交天数' });
    const byTag = await t.post(
      '/api/frontend/customerset/highseasdcreate',
      { name: '标签公海', dmType: 2, useRules: rules({ recycle: { isOn: 1, noFollowDays: 3 } }) },
      as('admin'),
    );
    expect(byTag.json()).toMatchObject({ code: 100001, msg: '标签设置的公海请选择回收的标签' });
    // the stages and tags a recycle rule names must be the company's own
    const strangeStage = await t.post(
      '/api/frontend/customerset/highseasdcreate',
      { name: '陌生阶段', useRules: rules({ recycle: { isOn: 1, noFollowDays: 3, cmNids: [2_000_000_000] } }) },
      as('admin'),
    );
    expect(strangeStage.json()).toMatchObject({ code: 100005, msg: '所选阶段不存在' });
    const strangeTag = await t.post(
      '/api/frontend/customerset/highseasdcreate',
      { name: '陌生标签', useRules: rules({ recycle: { isOn: 1, noFollowDays: 3, cmClids: [2_000_000_000] } }) },
      as('admin'),
    );
    expect(strangeTag.json()).toMatchObject({ code: 100005, msg: '所选标签不存在' });
    const onlyDept1 = await createPool('一部专用公海', { useCmDids: [dept1] });
    const list = (await t.get('/api/frontend/customerset/highseaslist?page=1&limit=100', as('admin'))).json().data.list as Pool[];
    expect(list.find((p) => p.cmHsid === onlyDept1)).toMatchObject({ useCmDids: [dept1], useCmDidNames: ['销售一部'] });
    const visible = async (u: string) =>
      ((await t.get('/api/frontend/customerset/highseasvisiblelist', as(u))).json().data.list as PoolOption[]).map((p) => p.name);
    expect(await visible('lisi')).toContain('一部专用公海');
    expect(await visible('lisi')).not.toContain('二部公海');
    expect(await visible('zhaoliu')).toContain('二部公海');
    expect(await visible('zhaoliu')).not.toContain('一部专用公海');
    expect(await visible('other_admin')).not.toContain('一部专用公海');
    // a disabled pool is not offered
    await editPool(onlyDept1, { name: '一部专用公海', useCmDids: [dept1], useRules: rules(), actionState: 1 });
    expect(await visible('lisi')).not.toContain('一部专用公海');
  });
});

describe('discard (followdown)', () => {
  it('requires a usable pool, a reason, and a text for 其他; moves the customer with a type 1 record', async () => {
    const pool = await createPool('丢弃测试公海');
    const id = await newCustomer('lisi', '丢弃测试客户');
    expect(
      (await t.post('/api/frontend/customer/followdown', { cmCtids: [id], cmCdid: reasonId }, as('lisi'))).json(),
    ).toMatchObject({
      msg: '请选择目标公海！',
    });
    expect((await t.post('/api/frontend/customer/followdown', { cmCtids: [id], cmHsid: pool }, as('lisi'))).json()).toMatchObject(
      {
        msg: '请选择丢弃理由！',
      },
    );
    expect((await discard('lisi', [id], pool, 0, '  ')).json()).toMatchObject({ code: 109006, msg: '请填写丢弃理由！' });
    expect((await discard('lisi', [id], pool, 0, '字'.repeat(31))).json()).toMatchObject({ msg: '丢弃理由最多30个字符' });
    const dept2Pool = (
      (await t.get('/api/frontend/customerset/highseasvisiblelist', as('zhaoliu'))).json().data.list as PoolOption[]
    ).find((p) => p.name === '二部公海');
    expect((await discard('lisi', [id], dept2Pool?.cmHsid ?? 0, reasonId)).json()).toMatchObject({ code: 109004 });
    // someone else's customer cannot be discarded by a sales person
    expect((await discard('wangwu', [id], pool, reasonId)).json()).toMatchObject({ code: 109011 });

    const ok = await discard('lisi', [id], pool, 0, '客户说明年再联系');
    expect(ok.json()).toMatchObject({ code: 0, msg: '丢弃成功！' });
    const c = await ownerOf(id);
    expect(c).toMatchObject({ ownerId: null, poolId: pool });
    const records = await historyOf(id);
    expect(records.find((r) => r.followType === 1)).toMatchObject({ remark: '客户说明年再联系', staffId: staffIds.lisi });
    // the former owner no longer sees it as his
    const mine = await t.post('/api/frontend/customer/minelist', { limit: 200 }, as('lisi'));
    expect((mine.json().data.list as CustomerRow[]).map((r) => r.cmCtid)).not.toContain(id);
  });
});

describe('pool list and claim (followup)', () => {
  it('lists pool customers with masked numbers and filters by pool and reason; only for departments that may use the pool', async () => {
    const open = await createPool('列表公海');
    const dept2Only = await createPool('列表二部公海', { useCmDids: [dept2] });
    const a = await newCustomer('lisi', '列表客户甲');
    const b = await newCustomer('lisi', '列表客户乙');
    await discard('lisi', [a], open, reasonId);
    // an admin discards into a pool lisi's department may not use
    await discard('admin', [b], dept2Only, 0, '留给二部');
    const forZhaoliu = await seas('zhaoliu', { cmHsid: open });
    const row = forZhaoliu.list.find((r) => r.cmCtid === a);
    expect(row).toMatchObject({ encryptPhone: 1, discardReason: '测试理由', cmHsidName: '列表公海' });
    expect(row?.contactPhone).toContain('*');
    expect((await seas('zhaoliu', { cmCdid: 0 })).list.map((r) => r.cmCtid)).toContain(b);
    expect((await seas('zhaoliu', { cmCdid: reasonId })).list.map((r) => r.cmCtid)).not.toContain(b);
    expect((await seas('wangwu')).list.map((r) => r.cmCtid)).not.toContain(b);
    // nor can he open or claim it
    expect((await t.get(`/api/frontend/customer/info?cmCtid=${b}`, as('wangwu'))).json().code).toBe(106007);
    expect((await claim('wangwu', [b])).json()).toMatchObject({ code: 109007 });
    // seaPhoneEncryp 0 shows the number
    await setStrategy(t, as('admin'), { seaPhoneEncryp: 0 });
    expect((await seas('zhaoliu', { cmHsid: open })).list.find((r) => r.cmCtid === a)?.encryptPhone).toBe(0);
    await setStrategy(t, as('admin'));
  });

  it('claim writes a type 2 record and keeps the history; the previous owner waits out the cooldown', async () => {
    const pool = await createPool('冷却公海', { useRules: rules({ claim: { cooldownDays: 2 } }) });
    const id = await newCustomer('lisi', '冷却客户');
    await t.post('/api/frontend/customer/followcreate', { cmCtid: id, remark: '第一次沟通' }, as('lisi'));
    await discard('lisi', [id], pool, reasonId);
    const refused = await claim('lisi', [id]);
    expect(refused.json().code).toBe(109009);
    expect(refused.json().msg).toContain('之前不能重新领取');
    // issue 23: the detail says so, so the drawer does not offer 领取 to him; others may claim it
    const blocked = (await t.get(`/api/frontend/customer/info?cmCtid=${id}`, as('lisi'))).json().data.claimBlockedUntil;
    expect(blocked).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(refused.json().msg).toContain(blocked);
    expect((await t.get(`/api/frontend/customer/info?cmCtid=${id}`, as('wangwu'))).json().data.claimBlockedUntil).toBe('');
    setClockOffsetMs(2 * DAY + 60_000);
    try {
      expect((await t.get(`/api/frontend/customer/info?cmCtid=${id}`, as('lisi'))).json().data.claimBlockedUntil).toBe('');
      expect((await claim('lisi', [id])).json()).toMatchObject({ code: 0, msg: '领取成功' });
    } finally {
      setClockOffsetMs(0);
    }
    expect(await ownerOf(id)).toMatchObject({ ownerId: staffIds.lisi, poolId: null });
    const res = await t.get(`/api/frontend/customer/followlist?cmCtid=${id}`, as('lisi'));
    const list = res.json().data.list as FollowRecord[];
    expect(list.map((r) => r.followType).sort()).toEqual([0, 1, 2]);
    expect(list.find((r) => r.followType === 2)?.remark).toBe('冷却公海');
  });

  it('another staff member claims at once; the daily cap and maxCustomer give clear messages', async () => {
    const pool = await createPool('上限公海', { useRules: rules({ claim: { dailyMax: 2 } }) });
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push(await newCustomer('lisi', `上限客户${i}`));
    await discard('lisi', ids, pool, reasonId);
    const first = await claim('wangwu', [ids[0]]);
    expect(first.json()).toMatchObject({ code: 0 });
    const batch = await claim('wangwu', ids.slice(1));
    expect(batch.json()).toMatchObject({ code: 0, data: { count: 1, failed: 2 } });
    expect(batch.json().msg).toContain('今日从「上限公海」领取已达上限（每天2个）');
    expect((await claim('wangwu', [ids[3]])).json()).toMatchObject({ code: 109008 });
    // the next day the cap is fresh, but maxCustomer stops him
    setClockOffsetMs(DAY);
    try {
      const owned = (await t.post('/api/frontend/customer/minelist', { limit: 1 }, as('wangwu'))).json().data.count as number;
      await setStrategy(t, as('admin'), { maxCustomer: owned });
      const limited = await claim('wangwu', [ids[3]]);
      expect(limited.json().code).toBe(106005);
      expect(limited.json().msg).toContain(`客户数量已达上限（${owned}个）`);
    } finally {
      await setStrategy(t, as('admin'));
      setClockOffsetMs(0);
    }
  });

  it('when two staff claim the same customer at the same moment exactly one gets it', async () => {
    const pool = await createPool('并发公海');
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await newCustomer('lisi', `并发客户${i}`));
    await discard('lisi', ids, pool, reasonId);
    for (const id of ids) {
      const [x, y] = await Promise.all([claim('wangwu', [id]), claim('zhaoliu', [id])]);
      const codes = [x.json().code, y.json().code].sort();
      expect(codes).toEqual([0, 109007]);
      const claims = (await historyOf(id)).filter((r) => r.followType === 2);
      expect(claims).toHaveLength(1);
      expect([staffIds.wangwu, staffIds.zhaoliu]).toContain((await ownerOf(id)).ownerId);
    }
  });
});

describe('allocation', () => {
  it('allot gives selected and pool customers to a staff member, resets the stage on request, respects maxCustomer', async () => {
    const pool = await createPool('分配公海');
    const a = await newCustomer('lisi', '分配客户甲');
    const b = await newCustomer('lisi', '分配客户乙');
    await discard('lisi', [b], pool, reasonId);
    const stages = (await t.get('/api/frontend/customerset/nodelist', as('admin'))).json().data.list as { cmNid: number }[];
    await t.post('/api/frontend/customer/stage', { cmCtid: a, cmNid: stages[0].cmNid }, as('lisi'));
    // sales may not allocate
    expect((await t.post('/api/frontend/customer/allot', { cmCtids: [a], cmSid: staffIds.wangwu }, as('lisi'))).json().code).toBe(
      100004,
    );
    const res = await t.post(
      '/api/frontend/customer/allot',
      { cmCtids: [a, b], cmSid: staffIds.wangwu, isNodeId: 1 },
      as('zhangsan'),
    );
    expect(res.json()).toMatchObject({ code: 0, msg: '分配成功', data: { count: 2 } });
    expect(await ownerOf(a)).toMatchObject({ ownerId: staffIds.wangwu, stageId: null });
    expect(await ownerOf(b)).toMatchObject({ ownerId: staffIds.wangwu, poolId: null });
    expect((await historyOf(a)).at(-1)?.remark).toBe('分配给王五（原负责人：李四）');
    expect((await historyOf(b)).at(-1)?.remark).toBe('分配给王五（来自公海「分配公海」）');
    // a supervisor of 销售一部 cannot give to 销售二部
    expect(
      (await t.post('/api/frontend/customer/allot', { cmCtids: [a], cmSid: staffIds.zhaoliu }, as('zhangsan'))).json().code,
    ).toBe(109010);
    const c = await newCustomer('lisi', '分配客户丙');
    const d = await newCustomer('lisi', '分配客户丁');
    const owned = (await t.post('/api/frontend/customer/minelist', { limit: 1 }, as('wangwu'))).json().data.count as number;
    await setStrategy(t, as('admin'), { maxCustomer: owned + 1 });
    try {
      const partial = await t.post('/api/frontend/customer/allot', { cmCtids: [c, d], cmSid: staffIds.wangwu }, as('zhangsan'));
      expect(partial.json()).toMatchObject({ code: 0, data: { count: 1, failed: 1 } });
      expect(partial.json().msg).toContain('1个客户未分配');
    } finally {
      await setStrategy(t, as('admin'));
    }
  });

  it('batchallot moves every customer of one staff member evenly to several, with history', async () => {
    // zhangsan leaves: his whole book (demo customers included) goes to three colleagues
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) ids.push(await newCustomer('zhangsan', `转移客户${i}`));
    const before = async (u: string) =>
      (await t.post('/api/frontend/customer/minelist', { limit: 1 }, as(u))).json().data.count as number;
    const counts = { lisi: await before('lisi'), wangwu: await before('wangwu'), zhaoliu: await before('zhaoliu') };
    const start = await t.post(
      '/api/frontend/customer/batchallot',
      { fromCmSid: staffIds.zhangsan, toCmSids: [staffIds.lisi, staffIds.wangwu, staffIds.zhaoliu] },
      as('admin'),
    );
    expect(start.json().code).toBe(0);
    const job = await waitJob(t, as('admin'), start.json().data.jobId);
    expect(job.status).toBe('done');
    const result = job.result as unknown as { moved: number; notAssigned: number; perStaff: { count: number }[] };
    expect(await before('zhangsan')).toBe(0);
    const got = [
      (await before('lisi')) - counts.lisi,
      (await before('wangwu')) - counts.wangwu,
      (await before('zhaoliu')) - counts.zhaoliu,
    ];
    expect(got.reduce((x, y) => x + y, 0)).toBe(result.moved);
    expect(Math.max(...got) - Math.min(...got)).toBeLessThanOrEqual(1);
    expect(result.notAssigned).toBe(0);
    expect((await historyOf(ids[0])).at(-1)?.remark).toMatch(/^批量转移：张三 → /);
  });

  it('batchallot leaves what maxCustomer cannot take and reports it', async () => {
    for (let i = 0; i < 4; i++) await newCustomer('zhangsan', `容量客户${i}`);
    const owned = (await t.post('/api/frontend/customer/minelist', { limit: 1 }, as('wangwu'))).json().data.count as number;
    await setStrategy(t, as('admin'), { maxCustomer: owned + 1 });
    try {
      const start = await t.post(
        '/api/frontend/customer/batchallot',
        { fromCmSid: staffIds.zhangsan, toCmSids: [staffIds.wangwu] },
        as('admin'),
      );
      const job = await waitJob(t, as('admin'), start.json().data.jobId);
      expect(job.result).toMatchObject({ moved: 1, notAssigned: 3 });
    } finally {
      await setStrategy(t, as('admin'));
    }
  });
});

describe('recycling', () => {
  const run = async () => {
    const res = await t.post('/api/frontend/customer/recyclerun', {}, as('admin'));
    expect(res.json().code, JSON.stringify(res.json())).toBe(0);
    return res.json().data.recycled as number;
  };

  it('a 1-day no-follow-up rule takes the customer back with 系统回收; reminders show it first; idempotent', async () => {
    const pool = await createPool('回收公海', { useCmDids: [dept2], useRules: rules({ recycle: { isOn: 1, noFollowDays: 1 } }) });
    const id = await newCustomer('zhaoliu', '回收客户');
    const fresh = await newCustomer('zhaoliu', '新跟进客户');
    // recycleRemind 3 days: due tomorrow, so it is 即将回收 now
    const soon = (await t.get('/api/frontend/customer/recyclesoon', as('zhaoliu'))).json().data;
    expect(soon.list.map((r: { cmCtid: number }) => r.cmCtid)).toContain(id);
    expect(soon.list.find((r: { cmCtid: number }) => r.cmCtid === id).cmHsidName).toBe('回收公海');
    expect(await run()).toBe(0);
    setClockOffsetMs(DAY + 3_600_000);
    try {
      await t.post('/api/frontend/customer/followcreate', { cmCtid: fresh, remark: '刚跟进' }, as('zhaoliu'));
      expect(await run()).toBeGreaterThanOrEqual(1);
      expect(await ownerOf(id)).toMatchObject({ ownerId: null, poolId: pool });
      expect(await ownerOf(fresh)).toMatchObject({ ownerId: staffIds.zhaoliu });
      const rec = (await historyOf(id)).find((r) => r.followType === 1);
      expect(rec).toMatchObject({ remark: '系统回收', staffId: null, sourceType: 3 });
      // idempotent
      expect(await run()).toBe(0);
      // customers of departments the pool does not serve are untouched
      const lisiCustomer = await newCustomer('lisi', '一部客户');
      setClockOffsetMs(3 * DAY);
      await run();
      expect((await ownerOf(lisiCustomer)).ownerId).toBe(staffIds.lisi);
    } finally {
      setClockOffsetMs(0);
      await editPool(pool, { name: '回收公海', useCmDids: [dept2], useRules: rules(), actionState: 1 });
    }
  });

  it('AND needs both conditions, OR either; a pending order exempts the customer', async () => {
    const pool = await createPool('组合公海', {
      useCmDids: [dept2],
      useRules: rules({ recycle: { isOn: 1, noFollowDays: 2, noDealDays: 5, logic: 'and' } }),
    });
    const a = await newCustomer('zhaoliu', '组合客户甲');
    const b = await newCustomer('zhaoliu', '组合客户乙');
    await setPendingOrders(t.database.db, (await ownerOf(b)).tenantId, b, 1);
    try {
      setClockOffsetMs(3 * DAY);
      await run();
      expect((await ownerOf(a)).ownerId).toBe(staffIds.zhaoliu); // 3 days: no follow-up yes, no deal not yet (AND)
      await editPool(pool, {
        name: '组合公海',
        useCmDids: [dept2],
        useRules: rules({ recycle: { isOn: 1, noFollowDays: 2, noDealDays: 5, logic: 'or' } }),
      });
      await run();
      expect(await ownerOf(a)).toMatchObject({ ownerId: null, poolId: pool }); // OR
      expect((await ownerOf(b)).ownerId).toBe(staffIds.zhaoliu); // pending order
      await setPendingOrders(t.database.db, (await ownerOf(b)).tenantId, b, 0);
      await run();
      expect((await ownerOf(b)).ownerId).toBeNull();
    } finally {
      setClockOffsetMs(0);
      await editPool(pool, { name: '组合公海', useCmDids: [dept2], useRules: rules(), actionState: 1 });
    }
  });

  it('only admins with the pool settings may run it', async () => {
    expect((await t.post('/api/frontend/customer/recyclerun', {}, as('lisi'))).json().code).toBe(100003);
  });
});

describe('delall', () => {
  it('needs the typed confirmation and soft-deletes only the chosen scope', async () => {
    const pool = await createPool('清空公海');
    const pooled = await newCustomer('lisi', '清空公海客户');
    const kept = await newCustomer('lisi', '保留客户');
    await discard('lisi', [pooled], pool, reasonId);
    expect((await t.post('/api/frontend/customer/delall', { delType: 1, confirmText: '好' }, as('admin'))).json().code).toBe(
      109012,
    );
    expect((await t.post('/api/frontend/customer/delall', { delType: 1, confirmText: '确认清空' }, as('lisi'))).json().code).toBe(
      100004,
    );
    const res = await t.post('/api/frontend/customer/delall', { delType: 1, confirmText: '确认清空' }, as('admin'));
    expect(res.json().code).toBe(0);
    expect((await ownerOf(pooled)).deletedAt).not.toBeNull();
    expect((await ownerOf(kept)).deletedAt).toBeNull();
    // other companies untouched
    expect((await t.get('/api/frontend/customerset/highseasvisiblelist', as('other_admin'))).json().code).toBe(0);
  });
});

describe('预计回收时间 on the private lists', () => {
  const list = async (path: string, user: string, body: Record<string, unknown> = {}) => {
    const res = await t.post(`/api/frontend/customer/${path}`, { limit: 200, name: '预计回收', ...body }, as(user));
    expect(res.json().code, JSON.stringify(res.json())).toBe(0);
    return res.json().data.list as CustomerRow[];
  };
  /** Asia/Shanghai "YYYY-MM-DD HH:mm:ss" → instant */
  const instant = (s: string) => new Date(`${s.replace(' ', 'T')}+08:00`).getTime();

  it('shows the sweep due time for covered customers, empty for others, filters by range, and the sweep takes them then', async () => {
    const pool = await createPool('预计公海', { useCmDids: [dept2], useRules: rules({ recycle: { isOn: 1, noFollowDays: 2 } }) });
    const a = await newCustomer('zhaoliu', '预计回收甲');
    const uncovered = await newCustomer('lisi', '预计回收乙');
    setClockOffsetMs(DAY);
    const later = await newCustomer('zhaoliu', '预计回收丙');
    setClockOffsetMs(0);
    try {
      const mine = await list('minelist', 'zhaoliu');
      const rowA = mine.find((r) => r.cmCtid === a);
      // due = creation + 2 days (no follow-up yet); within recycleRemind (3 days): 即将回收
      expect(rowA?.exRecoveryTime).toBe(
        (await t.get('/api/frontend/customer/recyclesoon', as('zhaoliu')))
          .json()
          .data.list.find((r: { cmCtid: number }) => r.cmCtid === a).recycleTime,
      );
      expect(instant(rowA?.exRecoveryTime ?? '') - (await ownerOf(a)).createdAt.getTime()).toBeGreaterThan(2 * DAY - 1000);
      expect(instant(rowA?.exRecoveryTime ?? '') - (await ownerOf(a)).createdAt.getTime()).toBeLessThanOrEqual(2 * DAY);
      expect(rowA?.isRecycleSoon).toBe(true);
      const all = await list('allotlist', 'admin');
      expect(all.find((r) => r.cmCtid === uncovered)).toMatchObject({ exRecoveryTime: '', isRecycleSoon: false });
      expect(all.find((r) => r.cmCtid === a)?.exRecoveryTime).toBe(rowA?.exRecoveryTime);
      const dayA = rowA?.exRecoveryTime?.slice(0, 10) ?? '';
      const dayLater = all.find((r) => r.cmCtid === later)?.exRecoveryTime?.slice(0, 10) ?? '';
      expect(dayLater > dayA).toBe(true);
      // the filter finds exactly the customers due in the range
      expect((await list('allotlist', 'admin', { exRecoveryTime: [dayA, dayA] })).map((r) => r.cmCtid)).toEqual([a]);
      expect((await list('allotlist', 'admin', { exRecoveryTime: [dayLater, ''] })).map((r) => r.cmCtid)).toEqual([later]);
      expect(
        (await list('allotlist', 'admin', { exRecoveryTime: [dayA, dayLater] })).map((r) => r.cmCtid).sort((x, y) => x - y),
      ).toEqual([a, later].sort((x, y) => x - y));
      expect((await list('minelist', 'lisi', { exRecoveryTime: [dayA, dayLater] })).length).toBe(0);
      // the sweep takes the customer exactly when the column says
      const due = instant(rowA?.exRecoveryTime ?? '');
      setClockOffsetMs(due - Date.now() - 60_000);
      await t.post('/api/frontend/customer/recyclerun', {}, as('admin'));
      expect((await ownerOf(a)).ownerId).toBe(staffIds.zhaoliu);
      setClockOffsetMs(due - Date.now() + 60_000);
      await t.post('/api/frontend/customer/recyclerun', {}, as('admin'));
      expect(await ownerOf(a)).toMatchObject({ ownerId: null, poolId: pool });
      expect((await ownerOf(later)).ownerId).toBe(staffIds.zhaoliu);
    } finally {
      setClockOffsetMs(0);
      await editPool(pool, { name: '预计公海', useCmDids: [dept2], useRules: rules(), actionState: 1 });
    }
    // no rule on: empty column, the filter finds nobody
    const mine = await list('minelist', 'zhaoliu');
    expect(mine.find((r) => r.cmCtid === later)?.exRecoveryTime).toBe('');
    expect((await list('minelist', 'zhaoliu', { exRecoveryTime: ['2000-01-01', '2100-01-01'] })).length).toBe(0);
  });
});

describe('回收站 (deleted customers)', () => {
  const deleted = async (user: string) => {
    const res = await t.get('/api/frontend/customer/deletedlist?page=1&limit=100', as(user));
    expect(res.json().code, JSON.stringify(res.json())).toBe(0);
    return res.json().data.list as { cmCtid: number; name: string; ownerName: string; deleteTime: string; expireTime: string }[];
  };
  const del = (ids: number[]) => t.post('/api/frontend/customer/del', { cmCtids: ids }, as('admin'));

  it('lists customers deleted within 30 days, restores them, refuses after 30 days; the purge removes old rows', async () => {
    const d = await newCustomer('lisi', '回收站客户甲');
    const e = await newCustomer('lisi', '回收站客户乙');
    expect((await del([d])).json().code).toBe(0);
    const row = (await deleted('admin')).find((r) => r.cmCtid === d);
    expect(row).toMatchObject({ name: '回收站客户甲', ownerName: expect.any(String) });
    expect(row?.ownerName).not.toBe('');
    expect((await t.get('/api/frontend/customer/deletedlist', as('lisi'))).json().code).toBe(100003);
    expect((await t.post('/api/frontend/customer/restore', { cmCtids: [d] }, as('lisi'))).json().code).toBe(100003);
    // other companies see nothing of it and cannot restore it
    expect((await deleted('other_admin')).find((r) => r.cmCtid === d)).toBeUndefined();
    expect((await t.post('/api/frontend/customer/restore', { cmCtids: [d] }, as('other_admin'))).json().code).not.toBe(0);
    const res = await t.post('/api/frontend/customer/restore', { cmCtids: [d] }, as('admin'));
    expect(res.json()).toMatchObject({ code: 0, msg: '操作成功', data: { count: 1 } });
    expect((await ownerOf(d)).deletedAt).toBeNull();
    expect((await deleted('admin')).find((r) => r.cmCtid === d)).toBeUndefined();

    expect((await del([e])).json().code).toBe(0);
    try {
      setClockOffsetMs(29 * DAY);
      expect((await deleted('admin')).find((r) => r.cmCtid === e)).toBeDefined();
      expect(await purgeDeleted(t.database.db)).toBe(0);
      setClockOffsetMs(31 * DAY);
      expect((await deleted('admin')).find((r) => r.cmCtid === e)).toBeUndefined();
      const refused = await t.post('/api/frontend/customer/restore', { cmCtids: [e] }, as('admin'));
      expect(refused.json()).toMatchObject({ code: 109014, msg: '客户删除已超过30天，无法恢复' });
      expect((await ownerOf(e)).deletedAt).not.toBeNull();
      expect(await purgeDeleted(t.database.db)).toBeGreaterThanOrEqual(1);
      expect(await ownerOf(e)).toBeUndefined();
      expect((await ownerOf(d)).deletedAt).toBeNull();
    } finally {
      setClockOffsetMs(0);
    }
  });
});
