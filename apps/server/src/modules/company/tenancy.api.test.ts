import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departments, roles, staff, tenants } from '../../db/schema';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';

/** Two companies side by side: the demo company (admin) and 测试二公司 (other_admin). */
let t: TestApp;
let admin: string;
let other: string;
let demo: { dept: number; role: number; staffId: number; tenantId: number };
let mine: { dept: number; role: number; staffId: number };

const names = (rows: { name: string }[]) => rows.map((r) => r.name).sort();
const notFound = (res: { statusCode: number; json: () => { code: number } }) => {
  expect(res.statusCode).toBe(404);
  expect(res.json().code).toBe(100005);
};
const staffBody = (extra: Record<string, unknown>) => ({
  password: DEMO_PASSWORD,
  name: '某人',
  sex: 1,
  merchantType: 1,
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  other = await t.login('other_admin');
  const [lisi] = await t.database.db.select().from(staff).where(eq(staff.username, 'lisi'));
  demo = { dept: lisi.departmentId ?? 0, role: lisi.roleId ?? 0, staffId: lisi.id, tenantId: lisi.tenantId };
  // 测试二公司 builds its own department, role and staff member.
  const dept = (await t.post('/api/frontend/department/create', { pid: 0, name: '销售一部' }, other)).json();
  const role = (
    await t.post('/api/frontend/role/create', { name: '销售', dataScope: 1, menuIds: [122], actions: [] }, other)
  ).json();
  expect(dept.code).toBe(0);
  expect(role.code).toBe(0);
  const created = await t.post(
    '/api/frontend/staff/create',
    staffBody({ username: 'other_sales', phone: '13911111111', cmDid: dept.data.cmDid, cmArid: role.data.cmArid }),
    other,
  );
  expect(created.json().code).toBe(0);
  mine = { dept: dept.data.cmDid, role: role.data.cmArid, staffId: created.json().data.cmSid };
});
afterAll(async () => {
  await t.close();
});

describe('tenant isolation: reading', () => {
  it('each company sees only its own departments', async () => {
    expect(names((await t.get('/api/frontend/department/list', other)).json().data.list)).toEqual(['销售一部']);
    const demoTree = (await t.get('/api/frontend/department/list', admin)).json().data.list;
    expect(names(demoTree)).toEqual(['销售一部', '销售二部']);
    expect(demoTree.map((d: { cmDid: number }) => d.cmDid)).not.toContain(mine.dept);
  });

  it('each company sees only its own roles', async () => {
    const otherRoles = (await t.get('/api/frontend/role/list', other)).json().data.list;
    expect(names(otherRoles)).toEqual(['超级管理员', '销售']);
    expect(otherRoles.map((r: { cmArid: number }) => r.cmArid)).not.toContain(demo.role);
    const demoRoles = (await t.get('/api/frontend/role/list', admin)).json().data.list;
    expect(names(demoRoles)).toEqual(['超级管理员', '销售', '销售主管']);
    expect(demoRoles.map((r: { cmArid: number }) => r.cmArid)).not.toContain(mine.role);
  });

  it('each company sees only its own staff, in lists, searches and options', async () => {
    const otherStaff = (await t.get('/api/frontend/staff/list', other)).json().data;
    expect(otherStaff.count).toBe(2);
    expect(otherStaff.list.map((s: { username: string }) => s.username).sort()).toEqual(['other_admin', 'other_sales']);
    expect((await t.get(`/api/frontend/staff/list?name=${encodeURIComponent('李四')}`, other)).json().data.count).toBe(0);
    expect((await t.get(`/api/frontend/staff/list?cmDid=${demo.dept}`, other)).json().data.count).toBe(0);

    const demoStaff = (await t.get('/api/frontend/staff/list', admin)).json().data;
    expect(demoStaff.count).toBe(5);
    expect((await t.get('/api/frontend/staff/list?name=other', admin)).json().data.count).toBe(0);

    const options = (await t.get('/api/frontend/staff/options', other)).json().data.list;
    expect(options.map((o: { staff_id: number }) => o.staff_id)).not.toContain(demo.staffId);
  });

  it('each company sees its own company data', async () => {
    expect((await t.get('/api/frontend/company/info', other)).json().data).toMatchObject({ name: '测试二公司', staffNum: 2 });
    expect((await t.get('/api/frontend/company/info', admin)).json().data).toMatchObject({
      name: '演示科技有限公司',
      staffNum: 5,
    });
  });

  it('the workbench counts only the own company', async () => {
    expect((await t.get('/api/frontend/workbench/summary', other)).json().data).toMatchObject({
      companyName: '测试二公司',
      staffCount: 2,
      departmentCount: 1,
    });
    expect((await t.get('/api/frontend/workbench/summary', admin)).json().data).toMatchObject({
      companyName: '演示科技有限公司',
      staffCount: 5,
      departmentCount: 2,
    });
  });
});

describe('tenant isolation: writing', () => {
  it('another company cannot edit, disable, reset or delete a demo staff member (404)', async () => {
    notFound(
      await t.post(
        '/api/frontend/staff/edit',
        { cmSid: demo.staffId, ...staffBody({ name: '被改了', phone: '13922222222', cmDid: mine.dept, cmArid: mine.role }) },
        other,
      ),
    );
    notFound(await t.post('/api/frontend/staff/state', { cmSid: demo.staffId, actionState: 1 }, other));
    notFound(await t.post('/api/frontend/staff/resetpwd', { cmSid: demo.staffId, password: 'hacked123' }, other));
    notFound(await t.post('/api/frontend/staff/del', { id: demo.staffId }, other));
    const [row] = await t.database.db.select().from(staff).where(eq(staff.id, demo.staffId));
    expect(row).toMatchObject({ name: '李四', phone: '13800000002', actionState: 0, isDeleted: false, tenantId: demo.tenantId });
    expect((await t.post('/api/frontend/login', { username: 'lisi', password: DEMO_PASSWORD })).json().code).toBe(0);
  });

  it('another company cannot edit or delete demo departments and roles, nor use them (404)', async () => {
    notFound(await t.post('/api/frontend/department/edit', { cmDid: demo.dept, pid: 0, name: '被改了', sortNum: 0 }, other));
    notFound(await t.post('/api/frontend/department/del', { id: demo.dept }, other));
    notFound(await t.post('/api/frontend/department/create', { pid: demo.dept, name: '挂到别人下面' }, other));
    notFound(
      await t.post('/api/frontend/department/edit', { cmDid: mine.dept, pid: demo.dept, name: '销售一部', sortNum: 0 }, other),
    );
    notFound(
      await t.post(
        '/api/frontend/role/edit',
        { cmArid: demo.role, name: '被改了', remark: '', dataScope: 4, menuIds: [], actions: [] },
        other,
      ),
    );
    notFound(await t.post('/api/frontend/role/del', { id: demo.role }, other));
    notFound(
      await t.post(
        '/api/frontend/staff/create',
        staffBody({ username: 'sneaky1', phone: '13933333333', cmDid: demo.dept, cmArid: mine.role }),
        other,
      ),
    );
    notFound(
      await t.post(
        '/api/frontend/staff/create',
        staffBody({ username: 'sneaky2', phone: '13933333334', cmDid: mine.dept, cmArid: demo.role }),
        other,
      ),
    );
    notFound(
      await t.post(
        '/api/frontend/staff/edit',
        { cmSid: mine.staffId, ...staffBody({ phone: '13911111111', cmDid: mine.dept, cmArid: demo.role }) },
        other,
      ),
    );

    const [dept] = await t.database.db.select().from(departments).where(eq(departments.id, demo.dept));
    expect(dept).toMatchObject({ name: '销售一部', pid: 0, tenantId: demo.tenantId });
    const [role] = await t.database.db.select().from(roles).where(eq(roles.id, demo.role));
    expect(role).toMatchObject({ name: '销售', dataScope: 1, tenantId: demo.tenantId });
    expect(await t.database.db.select().from(staff).where(eq(staff.username, 'sneaky1'))).toEqual([]);
    const [own] = await t.database.db.select().from(staff).where(eq(staff.id, mine.staffId));
    expect(own.roleId).toBe(mine.role);
  });

  it('and the demo company cannot touch the other company either (404)', async () => {
    notFound(
      await t.post(
        '/api/frontend/staff/edit',
        { cmSid: mine.staffId, ...staffBody({ phone: '13911111111', cmDid: demo.dept, cmArid: demo.role }) },
        admin,
      ),
    );
    notFound(await t.post('/api/frontend/staff/state', { cmSid: mine.staffId, actionState: 1 }, admin));
    notFound(await t.post('/api/frontend/staff/del', { id: mine.staffId }, admin));
    notFound(await t.post('/api/frontend/department/edit', { cmDid: mine.dept, pid: 0, name: 'x', sortNum: 0 }, admin));
    notFound(await t.post('/api/frontend/department/del', { id: mine.dept }, admin));
    notFound(await t.post('/api/frontend/role/del', { id: mine.role }, admin));
    const [row] = await t.database.db.select().from(staff).where(eq(staff.id, mine.staffId));
    expect(row).toMatchObject({ actionState: 0, isDeleted: false, departmentId: mine.dept });
    expect((await t.post('/api/frontend/login', { username: 'other_sales', password: DEMO_PASSWORD })).json().code).toBe(0);
  });

  it('company data edits change only the own company', async () => {
    const res = await t.post(
      '/api/frontend/company/edit',
      { name: '测试二公司（改）', contactName: '王经理', industry: '教育' },
      other,
    );
    expect(res.json().code).toBe(0);
    const rows = await t.database.db.select({ id: tenants.id, name: tenants.name }).from(tenants).orderBy(tenants.id);
    expect(rows.map((r) => r.name)).toEqual(['演示科技有限公司', '测试二公司（改）']);
  });
});
