import type { CustomerRow } from '@crm/contracts';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, labels, staff, stages } from '../../db/schema';
import {
  fetchTemplate,
  grantRole,
  info,
  listCustomers,
  mustCreate,
  setStrategy,
  startOfTodayShanghai,
  type Template,
  valuesOf,
} from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const staffIds: Record<string, number> = {};
const as = (user: string) => tokens[user];
const ids = (rows: CustomerRow[]) => rows.map((r) => r.cmCtid).sort((a, b) => a - b);
const owners = (rows: CustomerRow[]) => [...new Set(rows.map((r) => r.ownerName))].sort();
const setRow = (id: number, values: Partial<typeof customers.$inferInsert>) =>
  t.database.db.update(customers).set(values).where(eq(customers.id, id));

/** The three customers of 李四 the filter tests are about. */
const made: Record<'A' | 'B' | 'C', number> = { A: 0, B: 0, C: 0 };
/** lisi's minelist filtered, as sorted ids. */
const mineIds = async (filters: Record<string, unknown>, user = 'lisi') => {
  const res = await listCustomers(t, as(user), 'minelist', filters);
  expect(res.list).toHaveLength(res.count);
  return ids(res.list);
};
const A = () => made.A;
const B = () => made.B;
const C = () => made.C;
const ctl = (name: string, extra: Record<string, unknown>) => ({ cbTacid: tpl.byName[name].cbTacid, ...extra });
const sorted = (...list: number[]) => [...list].sort((a, b) => a - b);

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi', 'wangwu', 'zhaoliu', 'other_admin']) tokens[u] = await t.login(u);
  for (const row of await t.database.db.select({ id: staff.id, username: staff.username }).from(staff))
    staffIds[row.username] = row.id;
  tpl = await fetchTemplate(t, as('admin'));
});
afterAll(async () => {
  await t?.close();
});

describe('lists and data scope', () => {
  it('minelist: each staff member sees only his own customers', async () => {
    for (const [user, name] of [
      ['lisi', '李四'],
      ['wangwu', '王五'],
      ['zhangsan', '张三'],
      ['zhaoliu', '赵六'],
    ]) {
      const res = await listCustomers(t, as(user), 'minelist', { limit: 100 });
      expect(res.count, user).toBe(12);
      expect(res.isCountCapped).toBe(false);
      expect(res.list).toHaveLength(12);
      expect(owners(res.list)).toEqual([name]);
      expect(res.list.every((r) => r.ownerId === staffIds[user])).toBe(true);
    }
    expect((await listCustomers(t, as('admin'), 'minelist')).count).toBe(0);
    // The default page is 20 rows.
    const res = await t.post('/api/frontend/customer/minelist', {}, as('lisi'));
    expect(res.json().data.list).toHaveLength(12);
    const row = res.json().data.list[0] as CustomerRow;
    expect(row).toMatchObject({ ownerName: '李四', creatorName: '李四', cmDidName: '销售一部', encryptPhone: 0, contactNum: 0 });
    expect(row.contactPhone).toMatch(/^1\d{10}$/);
    expect(row.contactPhone).toBe(valuesOf(row, '手机')[0]);
    expect(row.contactName).toBe(valuesOf(row, '联系人')[0]);
  });

  it('allotlist: the admin sees all 48, a 销售主管 his department tree (36)', async () => {
    const all = await listCustomers(t, as('admin'), 'allotlist');
    expect(all.count).toBe(48);
    expect(owners(all.list)).toEqual(['张三', '李四', '王五', '赵六'].sort());
    const dept = await listCustomers(t, as('zhangsan'), 'allotlist');
    expect(dept.count).toBe(36);
    expect(owners(dept.list)).toEqual(['张三', '李四', '王五'].sort());
    expect(dept.list.every((r) => r.cmDidName === '销售一部')).toBe(true);
    // Filtering by owner inside the scope.
    const wangwu = await listCustomers(t, as('zhangsan'), 'allotlist', { followCmSid: staffIds.wangwu });
    expect(wangwu.count).toBe(12);
    expect(owners(wangwu.list)).toEqual(['王五']);
    expect((await listCustomers(t, as('zhangsan'), 'allotlist', { followCmSid: staffIds.zhaoliu })).count).toBe(0);
    expect((await listCustomers(t, as('admin'), 'allotlist', { createCmSid: staffIds.zhaoliu })).count).toBe(12);
    // Another company sees none of them.
    expect((await listCustomers(t, as('other_admin'), 'allotlist')).count).toBe(0);
  });

  it('allotlist for a 销售: refused without the 分配管理 menu, own customers only with it', async () => {
    const res = await t.post('/api/frontend/customer/allotlist', {}, as('lisi'));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 100003, msg: '您没有访问该功能的权限，请联系管理员' });
    await grantRole(t, as('admin'), '销售', { menuIds: [121] });
    const own = await listCustomers(t, as('lisi'), 'allotlist');
    expect(own.count).toBe(12);
    expect(owners(own.list)).toEqual(['李四']);
    const zhaoliu = await listCustomers(t, as('zhaoliu'), 'allotlist');
    expect(zhaoliu.count).toBe(12);
    expect(owners(zhaoliu.list)).toEqual(['赵六']);
    // A filter on another owner cannot widen the scope.
    expect((await listCustomers(t, as('lisi'), 'allotlist', { followCmSid: staffIds.wangwu })).count).toBe(0);
  });

  it('pages with the full count on every page', async () => {
    const full = await listCustomers(t, as('lisi'), 'minelist', { limit: 100 });
    const pages = [];
    for (let page = 1; page <= 3; page++) pages.push(await listCustomers(t, as('lisi'), 'minelist', { page, limit: 5 }));
    expect(pages.map((p) => p.count)).toEqual([12, 12, 12]);
    expect(pages.map((p) => p.list.length)).toEqual([5, 5, 2]);
    expect(pages.flatMap((p) => p.list.map((r) => r.cmCtid))).toEqual(full.list.map((r) => r.cmCtid));
    expect((await listCustomers(t, as('lisi'), 'minelist', { page: 4, limit: 5 })).list).toEqual([]);
    for (const bad of [{ limit: 0 }, { limit: 201 }, { page: 0 }, { orderParams: 'vals' }, { orderSort: 'up' }]) {
      expect((await t.post('/api/frontend/customer/minelist', bad, as('lisi'))).json().code, JSON.stringify(bad)).toBe(100001);
    }
  });
});

describe('search bar filters', () => {
  beforeAll(async () => {
    made.A = await mustCreate(t, as('lisi'), tpl, '筛选-甲公司', {
      联系人: '周甲',
      手机: '13912300001',
      座机: '0755-86001111',
      地区: ['440000', '440300', '440305'],
      行业: '教育培训',
      意向产品: ['云外呼', 'AI外呼'],
      预计成交金额: '100',
    });
    made.B = await mustCreate(t, as('lisi'), tpl, '筛选-乙公司', {
      联系人: '吴乙',
      手机: '13912300002',
      地区: ['440000', '440100', '440106'],
      行业: '互联网',
      意向产品: ['电销CRM'],
      预计成交金额: '500',
    });
    made.C = await mustCreate(t, as('lisi'), tpl, '筛选-丙公司', {
      联系人: '郑丙',
      手机: '13912300003',
      地区: ['110000', '110100', '110105'],
      行业: '互联网',
      意向产品: ['号码认证', 'AI外呼'],
      预计成交金额: '900',
    });
    // Someone else's customer with the same words must never show up in 李四's list.
    await mustCreate(t, as('wangwu'), tpl, '筛选-王五的', {
      联系人: '周甲',
      手机: '13912300004',
      地区: ['440000', '440300', '440305'],
      行业: '互联网',
      预计成交金额: '500',
    });
  });
  it('name contains (LIKE wildcards taken literally)', async () => {
    expect(await mineIds({ name: '筛选' })).toEqual(sorted(A(), B(), C()));
    expect(await mineIds({ name: '乙公' })).toEqual([B()]);
    expect(await mineIds({ name: '%' })).toEqual([]);
    expect(await mineIds({ name: '筛选_' })).toEqual([]);
    expect(await mineIds({ contactName: '乙' })).toEqual([B()]);
    expect((await listCustomers(t, as('lisi'), 'minelist', { name: '' })).count).toBe(15);
  });

  it('contact phone: exact after normalising, or partial digits', async () => {
    expect(await mineIds({ contactPhone: '139 1230 0002' })).toEqual([B()]);
    expect(await mineIds({ contactPhone: '+86 139-1230-0002' })).toEqual([B()]);
    expect(await mineIds({ contactPhone: '13912300009' })).toEqual([]);
    // Any phone control of the customer counts for the exact lookup (the 座机 here).
    expect(await mineIds({ contactPhone: '0755-86001111' })).toEqual([A()]);
    // Partial digits match the contact phone.
    expect(await mineIds({ contactPhone: '1230000' })).toEqual(sorted(A(), B(), C()));
    expect(await mineIds({ contactPhone: '300003' })).toEqual([C()]);
    // 王五's 13912300004 is not 李四's.
    expect(await mineIds({ contactPhone: '13912300004' })).toEqual([]);
    expect((await listCustomers(t, as('admin'), 'allotlist', { contactPhone: '13912300004' })).count).toBe(1);
  });

  it('template controls: select, multi-select (any), text, phone', async () => {
    expect(await mineIds({ name: '筛选', templateControls: [ctl('行业', { dmValue: ['互联网'] })] })).toEqual(sorted(B(), C()));
    expect(await mineIds({ name: '筛选', templateControls: [ctl('行业', { dmValue: ['教育培训', '互联网'] })] })).toEqual(
      sorted(A(), B(), C()),
    );
    expect(await mineIds({ templateControls: [ctl('意向产品', { dmValue: ['AI外呼'] })], name: '筛选' })).toEqual(
      sorted(A(), C()),
    );
    expect(await mineIds({ templateControls: [ctl('意向产品', { dmValue: ['电销CRM', '号码认证'] })], name: '筛选' })).toEqual(
      sorted(B(), C()),
    );
    expect(await mineIds({ templateControls: [ctl('联系人', { dmValue: ['周'] })] })).toEqual([A()]);
    expect(await mineIds({ templateControls: [ctl('手机', { dmValue: ['139 1230 0001'] })] })).toEqual([A()]);
    expect(await mineIds({ templateControls: [ctl('手机', { dmValue: ['1230000'] })] })).toEqual(sorted(A(), B(), C()));
    // Several filters AND together; an empty value or an unknown control filters nothing.
    expect(
      await mineIds({
        templateControls: [ctl('行业', { dmValue: ['互联网'] }), ctl('预计成交金额', { max: 600 })],
        name: '筛选',
      }),
    ).toEqual([B()]);
    expect((await listCustomers(t, as('lisi'), 'minelist', { templateControls: [ctl('行业', { dmValue: [] })] })).count).toBe(15);
    expect(
      (await listCustomers(t, as('lisi'), 'minelist', { templateControls: [{ cbTacid: 999999, dmValue: ['x'] }] })).count,
    ).toBe(15);
  });

  it('partial digits that happen to look like a short service number still match as digits', async () => {
    // 12300 is also the shape of a 5-digit service number (like 12345): as a search it is a part of 1391230000x.
    expect(await mineIds({ templateControls: [ctl('手机', { dmValue: ['12300'] })] })).toEqual(sorted(A(), B(), C()));
    expect(await mineIds({ contactPhone: '12300' })).toEqual(sorted(A(), B(), C()));
  });

  it('region: a province code finds its cities and districts', async () => {
    const all = (await listCustomers(t, as('lisi'), 'minelist')).list;
    const inRegion = (code: string) => ids(all.filter((r) => valuesOf(r, '地区').includes(code)));
    const byRegion = (path: string[]) => mineIds({ templateControls: [ctl('地区', { dmValue: path })] });
    const guangdong = await byRegion(['440000']);
    expect(guangdong).toEqual(inRegion('440000'));
    expect(guangdong).toEqual(expect.arrayContaining([A(), B()]));
    expect(guangdong).not.toContain(C());
    // Two demo customers of 李四 are in 广东 too (深圳南山, 广州天河).
    expect(guangdong).toHaveLength(4);
    const shenzhen = await byRegion(['440000', '440300']);
    expect(shenzhen).toEqual(inRegion('440300'));
    expect(shenzhen).toContain(A());
    expect(shenzhen).not.toContain(B());
    expect(await byRegion(['440000', '440300', '440305'])).toEqual(shenzhen);
    expect(await byRegion(['440000', '440100', '440106'])).toEqual(inRegion('440106'));
    expect(await byRegion(['110000'])).toEqual(inRegion('110000'));
    expect(await byRegion(['110000'])).toContain(C());
    expect(await byRegion(['650000'])).toEqual([]);
  });

  it('number range: min, max, both, or one exact value', async () => {
    const amount = (extra: Record<string, unknown>) => mineIds({ name: '筛选', templateControls: [ctl('预计成交金额', extra)] });
    expect(await amount({ min: 200 })).toEqual(sorted(B(), C()));
    expect(await amount({ max: 600 })).toEqual(sorted(A(), B()));
    expect(await amount({ min: 200, max: 600 })).toEqual([B()]);
    expect(await amount({ min: 100, max: 900 })).toEqual(sorted(A(), B(), C()));
    expect(await amount({ min: 901 })).toEqual([]);
    expect(await amount({ dmValue: ['500'] })).toEqual([B()]);
    // The search bar sends numbers as strings too.
    expect(await amount({ min: '200', max: '600' })).toEqual([B()]);
    // Against the demo data: the oracle is 李四's full list.
    const all = (await listCustomers(t, as('lisi'), 'minelist')).list;
    const expected = ids(all.filter((r) => Number(valuesOf(r, '预计成交金额')[0]) >= 20000));
    expect(await mineIds({ templateControls: [ctl('预计成交金额', { min: 20000 })] })).toEqual(expected);
  });

  it('created-time range covers whole days (Asia/Shanghai)', async () => {
    await setRow(A(), { createdAt: new Date('2025-03-15T00:00:00+08:00') });
    await setRow(B(), { createdAt: new Date('2025-03-16T23:59:59+08:00') });
    expect(await mineIds({ createTime: ['2025-03-15', '2025-03-15'] })).toEqual([A()]);
    expect(await mineIds({ createTime: ['2025-03-16', '2025-03-16'] })).toEqual([B()]);
    expect(await mineIds({ createTime: ['2025-03-15', '2025-03-16'] })).toEqual(sorted(A(), B()));
    expect(await mineIds({ createTime: ['2025-03-15 00:00:01', '2025-03-16 23:59:58'] })).toEqual([]);
    expect(await mineIds({ createTime: ['2025-03-14', '2025-03-14'] })).toEqual([]);
    expect(await mineIds({ createTime: ['2025-03-16', ''], name: '筛选' })).toEqual(sorted(B(), C()));
    expect(await mineIds({ createTime: ['', '2025-03-16'] })).toEqual(sorted(A(), B()));
    const row = (await info(t, as('lisi'), A())).json().data as CustomerRow;
    expect(row.createTime).toBe('2025-03-15 00:00:00');
  });

  it('sorts by the chosen field and direction', async () => {
    const order = async (body: Record<string, unknown>) =>
      (await listCustomers(t, as('lisi'), 'minelist', { name: '筛选', ...body })).list.map((r) => r.cmCtid);
    // created: A (2025-03-15) < B (2025-03-16) < C (now); newest first by default.
    expect(await order({})).toEqual([C(), B(), A()]);
    expect(await order({ orderParams: 'createTime', orderSort: 'asc' })).toEqual([A(), B(), C()]);
    expect(await order({ orderParams: 'createTime', orderSort: 'desc' })).toEqual([C(), B(), A()]);
    await setRow(A(), { contactNum: 5 });
    await setRow(B(), { contactNum: 1 });
    await setRow(C(), { contactNum: 3 });
    expect(await order({ orderParams: 'contactNum', orderSort: 'asc' })).toEqual([B(), C(), A()]);
    expect(await order({ orderParams: 'contactNum' })).toEqual([A(), C(), B()]);
    // Contact count range.
    expect(await mineIds({ minContactNum: 2 })).toEqual(sorted(A(), C()));
    expect(await mineIds({ minContactNum: 1, maxContactNum: 3 })).toEqual(sorted(B(), C()));
    // Times nobody has set sort last either way.
    await setRow(B(), { nextFollowAt: new Date('2030-01-01T10:00:00+08:00') });
    expect((await order({ orderParams: 'nextFollowTime', orderSort: 'asc' }))[0]).toBe(B());
    expect((await order({ orderParams: 'nextFollowTime', orderSort: 'desc' }))[0]).toBe(B());
    await setRow(B(), { nextFollowAt: null });
  });

  it('stage, tags and last contact status', async () => {
    const [stage] = await t.database.db.select().from(stages).where(eq(stages.name, '需求确认'));
    const tagRows = await t.database.db
      .select()
      .from(labels)
      .where(and(inArray(labels.name, ['高意向', '决策人']), ne(labels.pid, 0)));
    const tag = Object.fromEntries(tagRows.map((r) => [r.name, r.id]));
    await setRow(A(), { stageId: stage.id, labelIds: [tag.高意向], lastContactStatus: 1 });
    await setRow(C(), { labelIds: [tag.决策人, tag.高意向], lastContactStatus: 2 });
    expect(await mineIds({ cmNid: stage.id })).toEqual([A()]);
    expect(await mineIds({ cmClids: [tag.高意向] })).toEqual(sorted(A(), C()));
    expect(await mineIds({ cmClids: [tag.决策人] })).toEqual([C()]);
    expect(await mineIds({ lastContactStatus: 1 })).toEqual([A()]);
    expect(await mineIds({ lastContactStatus: 2 })).toEqual([C()]);
    const row = (await listCustomers(t, as('lisi'), 'minelist', { cmNid: stage.id })).list[0];
    expect(row).toMatchObject({ cmNid: stage.id, cmNidName: '需求确认', cmClids: [tag.高意向] });
    expect(row.cmClidsInfo).toEqual([{ cmClid: tag.高意向, name: '高意向' }]);
  });
});

describe('today’s appointments and never contacted', () => {
  it('subscribelist: the caller’s customers whose next follow-up is today (Asia/Shanghai)', async () => {
    const today = startOfTodayShanghai();
    const mine = (await listCustomers(t, as('lisi'), 'minelist', { name: '筛选' })).list;
    const [a, b, c] = [made.A, made.B, made.C];
    expect(mine).toHaveLength(3);
    await setRow(a, { nextFollowAt: new Date(today.getTime() + 60_000) });
    await setRow(b, { nextFollowAt: new Date(today.getTime() + 86_400_000 + 60_000) });
    await setRow(c, { nextFollowAt: new Date(today.getTime() - 60_000) });
    const wangwus = (await listCustomers(t, as('wangwu'), 'minelist', { limit: 1 })).list[0];
    await setRow(wangwus.cmCtid, { nextFollowAt: new Date(today.getTime() + 3_600_000) });

    const res = await listCustomers(t, as('lisi'), 'subscribelist');
    expect(ids(res.list)).toEqual([a]);
    expect(res.count).toBe(1);
    const expectedTime = new Date(today.getTime() + 60_000 + 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    expect(res.list[0].nextFollowTime).toBe(expectedTime);
    expect(ids((await listCustomers(t, as('wangwu'), 'subscribelist')).list)).toEqual([wangwus.cmCtid]);
    // The search bar works on it too.
    expect((await listCustomers(t, as('lisi'), 'subscribelist', { name: '乙' })).count).toBe(0);
    // And the next-follow range filter on minelist.
    const day = expectedTime.slice(0, 10);
    expect(ids((await listCustomers(t, as('lisi'), 'minelist', { nextFollowTime: [day, day] })).list)).toEqual([a]);
  });

  it('nevermentionedlist: never called and never followed up', async () => {
    const total = (await listCustomers(t, as('lisi'), 'minelist')).count;
    // A, B and C have contact counts from the sort test; one more was followed up without a call.
    const followed = (await listCustomers(t, as('lisi'), 'minelist')).list.find((r) => r.contactNum === 0);
    if (!followed) throw new Error('no uncontacted customer');
    await setRow(followed.cmCtid, { followAt: new Date() });
    const res = await listCustomers(t, as('lisi'), 'nevermentionedlist', { limit: 100 });
    expect(res.count).toBe(total - 4);
    const never = ids(res.list);
    for (const id of [made.A, made.B, made.C, followed.cmCtid]) expect(never).not.toContain(id);
    expect(res.list.every((r) => r.contactNum === 0 && r.followTime === '' && r.ownerName === '李四')).toBe(true);
    expect((await listCustomers(t, as('zhaoliu'), 'nevermentionedlist')).count).toBe(12);
  });
});

describe('phone masking (strategy phoneEncryp)', () => {
  it('masks numbers for staff, not for the super admin', async () => {
    const adminView = (await listCustomers(t, as('admin'), 'allotlist', { limit: 200 })).list;
    const realNumbers = adminView.flatMap((r) => [...valuesOf(r, '手机'), ...valuesOf(r, '座机')]);
    expect(realNumbers.length).toBeGreaterThan(48);
    await setStrategy(t, as('admin'), { phoneEncryp: 1 });
    try {
      const res = await t.post('/api/frontend/customer/minelist', { limit: 200 }, as('lisi'));
      const rows = res.json().data.list as CustomerRow[];
      expect(rows).toHaveLength(15);
      for (const r of rows) {
        expect(r.encryptPhone).toBe(1);
        expect(r.contactPhone).toMatch(/^1\d\d\*{4}\d{4}$/);
        expect(valuesOf(r, '手机')[0]).toMatch(/^1\d\d\*{4}\d{4}$/);
      }
      const a = rows.find((r) => r.cmCtid === made.A);
      expect(a?.contactPhone).toBe('139****0001');
      expect(valuesOf(a as CustomerRow, '座机')).toEqual(['075****1111']);
      for (const n of realNumbers) expect(res.body).not.toContain(n);

      const detail = await info(t, as('lisi'), made.A);
      expect(detail.json().data).toMatchObject({ encryptPhone: 1, contactPhone: '139****0001' });
      expect(detail.body).not.toContain('13912300001');
      expect(detail.body).not.toContain('075586001111');
      // Searching by the full number still finds the customer, masked.
      const found = await listCustomers(t, as('lisi'), 'minelist', { contactPhone: '13912300001' });
      expect(found.list.map((r) => r.contactPhone)).toEqual(['139****0001']);
      // A 销售主管 without 查看完整号码 is masked too; the super admin is not.
      const boss = await t.post('/api/frontend/customer/allotlist', { limit: 200 }, as('zhangsan'));
      expect(boss.json().data.list.every((r: CustomerRow) => r.encryptPhone === 1)).toBe(true);
      for (const n of realNumbers) expect(boss.body).not.toContain(n);
      const admin = (await listCustomers(t, as('admin'), 'allotlist', { contactPhone: '13912300001' })).list[0];
      expect(admin).toMatchObject({ encryptPhone: 0, contactPhone: '13912300001' });
      expect(valuesOf(admin, '座机')).toEqual(['075586001111']);
    } finally {
      await setStrategy(t, as('admin'));
    }
    const back = (await listCustomers(t, as('lisi'), 'minelist', { contactPhone: '13912300001' })).list[0];
    expect(back).toMatchObject({ encryptPhone: 0, contactPhone: '13912300001' });
  });
});
