import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema';
import { demoValues, fetchTemplate, mustCreate, type Template } from '../../test/customers';
import { createTestApp, type TestApp } from '../../test/harness';

/** The workbench (/home/Index): who I am, the company today, my customers. Each test makes its own data. */
let t: TestApp;
let tpl: Template;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];

type Summary = {
  name: string;
  companyName: string;
  cmDidName: string;
  cmAridName: string;
  staffCount: number;
  departmentCount: number;
  todayLogins: number;
  customers: {
    myCustomers: number;
    todayAppointments: number;
    newThisWeek: number;
    neverContacted: number;
    createdPerDay: { date: string; count: number }[];
  };
};
const summary = async (user: string): Promise<Summary> => {
  const res = await t.get('/api/frontend/workbench/summary', as(user));
  expect(res.json().code, res.body).toBe(0);
  return res.json().data;
};
let seq = 0;
const fresh = (prefix: string) => {
  seq += 1;
  return `${prefix}${seq}`;
};
/** Today in Beijing, YYYY-MM-DD. */
const todayBeijing = () => new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'lisi', 'wangwu', 'other_admin']) tokens[u] = await t.login(u);
  tpl = await fetchTemplate(t, as('admin'));
});
afterAll(async () => {
  await t?.close();
});

describe('workbench summary', () => {
  it('names the caller, the company, the department and the role', async () => {
    expect(await summary('lisi')).toMatchObject({
      name: '李四',
      companyName: '演示科技有限公司',
      cmDidName: '销售一部',
      cmAridName: '销售',
      staffCount: 5,
      departmentCount: 2,
    });
    expect((await summary('lisi')).todayLogins).toBeGreaterThanOrEqual(1);
  });

  it('counts my customers: a new one is mine, new this week, never contacted and on today’s chart', async () => {
    const before = (await summary('lisi')).customers;
    expect(before.createdPerDay).toHaveLength(30);
    expect(before.createdPerDay.at(-1)?.date).toBe(todayBeijing());
    const id = await mustCreate(t, as('lisi'), tpl, fresh('工作台客户'), demoValues());
    const after = (await summary('lisi')).customers;
    expect(after.myCustomers).toBe(before.myCustomers + 1);
    expect(after.newThisWeek).toBe(before.newThisWeek + 1);
    expect(after.neverContacted).toBe(before.neverContacted + 1);
    expect(after.createdPerDay.at(-1)?.count).toBe((before.createdPerDay.at(-1)?.count ?? 0) + 1);
    // another staff member's figures do not move
    const wangwu = (await summary('wangwu')).customers;
    await mustCreate(t, as('lisi'), tpl, fresh('工作台客户'), demoValues());
    expect((await summary('wangwu')).customers.myCustomers).toBe(wangwu.myCustomers);
    // a deleted customer is not mine any more
    expect((await t.post('/api/frontend/customer/del', { cmCtids: [id] }, as('admin'))).json().code).toBe(0);
    expect((await summary('lisi')).customers.myCustomers).toBe(before.myCustomers + 1);
  });

  it('an appointment for today counts, one for tomorrow does not', async () => {
    const before = (await summary('lisi')).customers.todayAppointments;
    const today = await mustCreate(t, as('lisi'), tpl, fresh('今日预约'), demoValues());
    const tomorrow = await mustCreate(t, as('lisi'), tpl, fresh('明日预约'), demoValues());
    const day = 86_400_000;
    const startOfToday = new Date(`${todayBeijing()}T00:00:00+08:00`).getTime();
    await t.database.db
      .update(customers)
      .set({ nextFollowAt: new Date(startOfToday + day - 1000) })
      .where(eq(customers.id, today));
    await t.database.db
      .update(customers)
      .set({ nextFollowAt: new Date(startOfToday + day) })
      .where(eq(customers.id, tomorrow));
    expect((await summary('lisi')).customers.todayAppointments).toBe(before + 1);
  });

  it('is a base menu: a role granted no menu at all still reads its own summary', async () => {
    const role = await t.post(
      '/api/frontend/role/create',
      { name: fresh('无菜单'), dataScope: 4, menuIds: [], actions: [] },
      as('admin'),
    );
    expect(role.json().code).toBe(0);
    const dept = (await t.get('/api/frontend/department/list', as('admin'))).json().data.list[0].cmDid;
    const created = await t.post(
      '/api/frontend/staff/create',
      {
        username: 'nobench',
        password: 'abc12345',
        name: '无工作台',
        phone: '13700009999',
        sex: 1,
        merchantType: 1,
        cmDid: dept,
        cmArid: role.json().data.cmArid,
      },
      as('admin'),
    );
    expect(created.json().code).toBe(0);
    tokens.nobench = await t.login('nobench', 'abc12345');
    expect(await summary('nobench')).toMatchObject({ name: '无工作台', cmAridName: expect.stringContaining('无菜单') });
    expect((await summary('nobench')).customers.myCustomers).toBe(0);
    // while a menu page it was not granted is refused
    expect((await t.get('/api/frontend/staff/list', as('nobench'))).json().code).toBe(100003);
  });

  it('counts only the own company', async () => {
    await mustCreate(t, as('lisi'), tpl, fresh('本公司客户'), demoValues());
    const other = await summary('other_admin');
    expect(other).toMatchObject({ companyName: '测试二公司', staffCount: 1, departmentCount: 0 });
    expect(other.customers).toMatchObject({ myCustomers: 0, newThisWeek: 0, neverContacted: 0, todayAppointments: 0 });
  });

  it('shows a renamed department, role and company at once, and counts a new department (names come from the settings cache)', async () => {
    const before = await summary('admin');
    const dept = await t.post('/api/frontend/department/create', { pid: 0, name: fresh('工作台部') }, as('admin'));
    expect(dept.json().code, dept.body).toBe(0);
    const cmDid = dept.json().data.cmDid as number;
    expect((await summary('admin')).departmentCount).toBe(before.departmentCount + 1);

    const roleName = fresh('工作台角色');
    const role = await t.post(
      '/api/frontend/role/create',
      { name: roleName, dataScope: 1, menuIds: [], actions: [] },
      as('admin'),
    );
    expect(role.json().code, role.body).toBe(0);
    const cmArid = role.json().data.cmArid as number;
    const staff = await t.post(
      '/api/frontend/staff/create',
      {
        username: 'benchnames',
        password: 'abc12345',
        name: '改名者',
        phone: '13700008888',
        sex: 1,
        merchantType: 1,
        cmDid,
        cmArid,
      },
      as('admin'),
    );
    expect(staff.json().code, staff.body).toBe(0);
    tokens.benchnames = await t.login('benchnames', 'abc12345');
    // for 2 s after a write the cache reads the table and keeps nothing (lib/settings-cache SETTLE_MS):
    // past that, this summary fills the cache, and the edits below must drop it
    await new Promise((r) => setTimeout(r, 2_100));
    const first = await summary('benchnames');
    expect(first).toMatchObject({ name: '改名者', cmAridName: roleName, companyName: '演示科技有限公司' });
    expect(first.cmDidName).toMatch(/^工作台部/);

    const deptEdit = await t.post(
      '/api/frontend/department/edit',
      { cmDid, pid: 0, name: fresh('改过的部'), sortNum: 0 },
      as('admin'),
    );
    expect(deptEdit.json().code, deptEdit.body).toBe(0);
    const newRole = fresh('改过的角色');
    const roleEdit = await t.post(
      '/api/frontend/role/edit',
      { cmArid, name: newRole, remark: '', dataScope: 1, menuIds: [], actions: [] },
      as('admin'),
    );
    expect(roleEdit.json().code, roleEdit.body).toBe(0);
    const companyEdit = await t.post('/api/frontend/company/edit', { name: '演示科技（改名）' }, as('admin'));
    expect(companyEdit.json().code, companyEdit.body).toBe(0);
    try {
      const after = await summary('benchnames');
      expect(after.cmDidName).toMatch(/^改过的部/);
      expect(after).toMatchObject({ cmAridName: newRole, companyName: '演示科技（改名）' });
    } finally {
      await t.post('/api/frontend/company/edit', { name: '演示科技有限公司' }, as('admin'));
    }
    expect((await summary('admin')).companyName).toBe('演示科技有限公司');
  });
});
