import { ERRORS, type MenuNode } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../../db/schema';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';

type RoleRow = {
  cmArid: number;
  name: string;
  remark: string;
  dataScope: number;
  menuIds: number[];
  actions: string[];
  isSystem: number;
  staffNum: number;
};
type MenuApp = { cbAid: number; menus: MenuNode[] };

let t: TestApp;
let admin: string;
let dept1: number;

const roleList = async (): Promise<RoleRow[]> => (await t.get('/api/frontend/role/list', admin)).json().data.list;
const roleNamed = async (name: string) => {
  const role = (await roleList()).find((r) => r.name === name);
  if (!role) throw new Error(`no role ${name}`);
  return role;
};
const createRole = async (body: Record<string, unknown>) =>
  t.post('/api/frontend/role/create', { remark: '', dataScope: 1, actions: [], ...body }, admin);

let phoneSeq = 0;
const createStaff = async (username: string, cmArid: number) => {
  phoneSeq += 1;
  const res = await t.post(
    '/api/frontend/staff/create',
    {
      username,
      password: DEMO_PASSWORD,
      name: `角色测试${phoneSeq}`,
      phone: `1360000${String(phoneSeq).padStart(4, '0')}`,
      sex: 2,
      cmDid: dept1,
      cmArid,
      merchantType: 1,
    },
    admin,
  );
  expect(res.json().code).toBe(0);
  return res.json().data.cmSid as number;
};

const menuIds = (nodes: MenuNode[]): number[] => nodes.flatMap((n) => [n.cmMid, ...menuIds(n.children)]);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  dept1 = (await t.get('/api/frontend/department/list', admin))
    .json()
    .data.list.find((d: { name: string }) => d.name === '销售一部').cmDid;
});
afterAll(async () => {
  await t.close();
});

describe('role refusal', () => {
  it('refuses a 销售 the staff, role, department and company management calls with 403 / 100003', async () => {
    const lisi = await t.login('lisi');
    const calls = [
      t.get('/api/frontend/staff/list', lisi),
      t.get('/api/frontend/role/list', lisi),
      t.get('/api/frontend/role/menus', lisi),
      t.post('/api/frontend/role/create', { name: '偷偷建的', dataScope: 4, menuIds: [], actions: [] }, lisi),
      t.post('/api/frontend/department/create', { pid: 0, name: '偷偷建的' }, lisi),
      t.post('/api/frontend/staff/state', { cmSid: 1, actionState: 1 }, lisi),
      t.get('/api/frontend/company/info', lisi),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 100003, msg: ERRORS.FORBIDDEN_MENU.msg, data: null });
    }
    // Nothing was created.
    expect((await roleList()).some((r) => r.name === '偷偷建的')).toBe(false);
  });

  it('refuses the 销售主管 the staff list too, but lets both read what every role may read', async () => {
    const zhangsan = await t.login('zhangsan');
    expect((await t.get('/api/frontend/staff/list', zhangsan)).json().code).toBe(100003);
    const lisi = await t.login('lisi');
    for (const url of ['/api/frontend/department/list', '/api/frontend/user/loginlog', '/api/frontend/workbench/summary']) {
      expect((await t.get(url, lisi)).json().code).toBe(0);
    }
  });
});

describe('role list', () => {
  it('lists the demo roles with staff counts; the super admin has every menu', async () => {
    const list = await roleList();
    expect(list.map((r) => r.name)).toEqual(['超级管理员', '销售主管', '销售']);
    const [sys, supervisor, sales] = list;
    expect(sys).toMatchObject({ isSystem: 1, dataScope: 4, staffNum: 1 });
    expect(sys.menuIds).toContain(600);
    expect(supervisor).toMatchObject({ isSystem: 0, dataScope: 3, staffNum: 1 });
    expect(sales).toMatchObject({ isSystem: 0, dataScope: 1, staffNum: 3 });
  });
});

describe('a role with some menus', () => {
  let roleId: number;
  let token: string;

  it('is created with only known menus and actions', async () => {
    const res = await createRole({
      name: '外呼专员',
      remark: '只打电话',
      dataScope: 2,
      menuIds: [122, 240, 240, 99999],
      actions: ['frontend/customer/export', 'frontend/not/a/thing'],
    });
    expect(res.json()).toMatchObject({ code: 0, msg: '添加成功' });
    roleId = res.json().data.cmArid;
    const [row] = await t.database.db.select().from(roles).where(eq(roles.id, roleId));
    expect(row).toMatchObject({
      name: '外呼专员',
      remark: '只打电话',
      dataScope: 2,
      menuIds: [122, 240],
      actions: ['frontend/customer/export'],
      isSystem: false,
    });
  });

  it('gives its staff only those menus plus the base menus', async () => {
    await createStaff('caller01', roleId);
    const res = await t.post('/api/frontend/login', { username: 'caller01', password: DEMO_PASSWORD });
    const { data } = res.json();
    token = data.token;
    expect(data.userInfo).toMatchObject({ cmArid: roleId, cmAridName: '外呼专员', dataScope: 2, isAdmin: 0 });

    const apps = data.menulist as MenuApp[];
    expect(apps.map((a) => a.cbAid)).toEqual([1, 2]);
    expect(menuIds(apps[0].menus)).toEqual([100, 120, 122, 150, 151, 152, 153]);
    expect(menuIds(apps[1].menus)).toEqual([240]);

    const granted = Object.entries(data.permissions as Record<string, { hasPremisson: number }>)
      .filter(([, p]) => p.hasPremisson === 1)
      .map(([k]) => k)
      .sort();
    expect(granted).toEqual(
      [
        '/home/Index',
        '/manage/mycustomer',
        '/system',
        '/system/personal',
        '/system/modifyPaw',
        '/system/loginlog',
        '/call/sip',
        'frontend/customer/export',
      ].sort(),
    );
    expect(data.permissions['/manage/allot']).toEqual({ hasPremisson: 0 });
    expect(data.permissions['/account/staff']).toEqual({ hasPremisson: 0 });
    expect(data.permissions['frontend/customer/del']).toEqual({ hasPremisson: 0 });

    // user/info answers the same menus.
    const info = (await t.get('/api/frontend/user/info', token)).json().data;
    expect(info.menulist).toEqual(data.menulist);
    expect(info.permissions).toEqual(data.permissions);
  });

  it('is enforced by the server, and an edit applies to the logged-in staff member at once', async () => {
    expect((await t.get('/api/frontend/staff/list', token)).statusCode).toBe(403);
    const edit = await t.post(
      '/api/frontend/role/edit',
      { cmArid: roleId, name: '外呼专员', remark: '', dataScope: 2, menuIds: [122, 240, 145], actions: [] },
      admin,
    );
    expect(edit.json()).toMatchObject({ code: 0, msg: '保存成功' });
    const list = await t.get('/api/frontend/staff/list', token);
    expect(list.statusCode).toBe(200);
    expect(list.json().code).toBe(0);
    const info = (await t.get('/api/frontend/user/info', token)).json().data;
    expect(info.permissions['/account/staff']).toEqual({ hasPremisson: 1 });
    expect(info.permissions['frontend/customer/export']).toEqual({ hasPremisson: 0 });
  });

  it('cannot be deleted while staff use it (103002)', async () => {
    const res = await t.post('/api/frontend/role/del', { id: roleId }, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 103002, msg: '该角色下还有员工，不能删除' });
    expect((await roleList()).some((r) => r.cmArid === roleId)).toBe(true);
  });
});

describe('role rules', () => {
  it('refuses a duplicate name on create and on edit (103001)', async () => {
    const dup = await createRole({ name: '销售', menuIds: [] });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({ code: 103001, msg: '角色名称已存在' });

    const own = await createRole({ name: '临时角色', menuIds: [100] });
    const id = own.json().data.cmArid;
    const rename = await t.post(
      '/api/frontend/role/edit',
      { cmArid: id, name: '销售主管', remark: '', dataScope: 1, menuIds: [], actions: [] },
      admin,
    );
    expect(rename.json().code).toBe(103001);
    // Keeping its own name is fine.
    const keep = await t.post(
      '/api/frontend/role/edit',
      { cmArid: id, name: '临时角色', remark: '改了备注', dataScope: 1, menuIds: [], actions: [] },
      admin,
    );
    expect(keep.json().code).toBe(0);
  });

  it('never edits or deletes the super admin role (103003)', async () => {
    const sys = await roleNamed('超级管理员');
    const edit = await t.post(
      '/api/frontend/role/edit',
      { cmArid: sys.cmArid, name: '超级管理员', remark: '', dataScope: 1, menuIds: [], actions: [] },
      admin,
    );
    expect(edit.statusCode).toBe(400);
    expect(edit.json()).toMatchObject({ code: 103003, msg: '超级管理员角色不能修改或删除' });
    const del = await t.post('/api/frontend/role/del', { id: sys.cmArid }, admin);
    expect(del.json()).toMatchObject({ code: 103003, msg: '超级管理员角色不能修改或删除' });
    const [row] = await t.database.db.select().from(roles).where(eq(roles.id, sys.cmArid));
    expect(row).toMatchObject({ name: '超级管理员', dataScope: 4, isSystem: true });
  });

  it('deletes an unused role', async () => {
    const id = (await createRole({ name: '用完即删', menuIds: [] })).json().data.cmArid;
    const res = await t.post('/api/frontend/role/del', { id }, admin);
    expect(res.json()).toMatchObject({ code: 0, msg: '删除成功' });
    expect(await t.database.db.select().from(roles).where(eq(roles.id, id))).toEqual([]);
  });

  it('deletes a role whose only staff member was deleted', async () => {
    const id = (await createRole({ name: '人已离职', menuIds: [] })).json().data.cmArid;
    const staffId = await createStaff('leaver01', id);
    expect((await t.post('/api/frontend/staff/del', { id: staffId }, admin)).json().code).toBe(0);
    const res = await t.post('/api/frontend/role/del', { id }, admin);
    expect(res.json()).toMatchObject({ code: 0, msg: '删除成功' });
  });

  it('answers 404 for an unknown role and 400 for bad input', async () => {
    const edit = await t.post(
      '/api/frontend/role/edit',
      { cmArid: 999999, name: 'x', remark: '', dataScope: 1, menuIds: [], actions: [] },
      admin,
    );
    expect(edit.statusCode).toBe(404);
    expect(edit.json().code).toBe(100005);
    expect((await t.post('/api/frontend/role/del', { id: 999999 }, admin)).json().code).toBe(100005);

    const noName = await createRole({ name: '  ', menuIds: [] });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toMatchObject({ code: 100001, msg: '请输入角色名称' });
    const badScope = await createRole({ name: '范围错误', dataScope: 5, menuIds: [] });
    expect(badScope.json().code).toBe(100001);
  });
});
