import { PASSWORD_RULE } from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staff } from '../../db/schema';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';

type StaffRow = {
  cmSid: number;
  username: string;
  name: string;
  phone: string;
  cmDid: number | null;
  cmDidName: string;
  cmArid: number;
  cmAridName: string;
  merchantType: number;
  actionState: number;
  expireTime: string;
  isOwner: number;
};

let t: TestApp;
let admin: string;
let dept1: number;
let dept2: number;
let sysRole: number;
let supervisorRole: number;
let salesRole: number;
const ids: Record<string, number> = {};

const list = async (query = ''): Promise<{ list: StaffRow[]; count: number }> => {
  const res = await t.get(`/api/frontend/staff/list?${query}`, admin);
  expect(res.json().code).toBe(0);
  return res.json().data;
};
const namesOf = (rows: StaffRow[]) => rows.map((r) => r.username).sort();
const loginCode = async (username: string, password = DEMO_PASSWORD) =>
  (await t.post('/api/frontend/login', { username, password })).json().code as number;
const infoStatus = async (token: string) => (await t.get('/api/frontend/user/info', token)).statusCode;

const valid = () => ({
  username: 'xiaoming',
  password: 'start123',
  name: '小明',
  phone: '13712345678',
  workNumber: 'S100',
  sex: 1,
  email: 'xiaoming@example.com',
  cmDid: dept1,
  cmArid: salesRole,
  merchantType: 1,
});
const create = (body: Record<string, unknown>) => t.post('/api/frontend/staff/create', body, admin);
const editBody = (id: number, extra: Record<string, unknown> = {}) => {
  const { username: _u, password: _p, ...rest } = valid();
  return { cmSid: id, ...rest, ...extra };
};

let phoneSeq = 0;
const createQuick = async (username: string, extra: Record<string, unknown> = {}) => {
  phoneSeq += 1;
  const res = await create({
    ...valid(),
    username,
    phone: `1330000${String(phoneSeq).padStart(4, '0')}`,
    password: DEMO_PASSWORD,
    ...extra,
  });
  expect(res.json().code).toBe(0);
  return res.json().data.cmSid as number;
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  for (const row of await t.database.db.select({ id: staff.id, username: staff.username }).from(staff))
    ids[row.username] = row.id;
  const depts = (await t.get('/api/frontend/department/list', admin)).json().data.list;
  dept1 = depts.find((d: { name: string }) => d.name === '销售一部').cmDid;
  dept2 = depts.find((d: { name: string }) => d.name === '销售二部').cmDid;
  const roles = (await t.get('/api/frontend/role/list', admin)).json().data.list;
  const roleId = (name: string) => roles.find((r: { name: string }) => r.name === name).cmArid;
  sysRole = roleId('超级管理员');
  supervisorRole = roleId('销售主管');
  salesRole = roleId('销售');
});
afterAll(async () => {
  await t.close();
});

describe('staff list', () => {
  it('lists the company staff, newest first, with department and role names', async () => {
    const { list: rows, count } = await list();
    expect(count).toBe(5);
    expect(rows.map((r) => r.username)).toEqual(['zhaoliu', 'wangwu', 'lisi', 'zhangsan', 'admin']);
    expect(rows.find((r) => r.username === 'lisi')).toMatchObject({
      name: '李四',
      phone: '13800000002',
      cmDid: dept1,
      cmDidName: '销售一部',
      cmArid: salesRole,
      cmAridName: '销售',
      merchantType: 1,
      actionState: 0,
      expireTime: '',
      isOwner: 0,
    });
    expect(rows.find((r) => r.username === 'admin')).toMatchObject({
      cmDid: null,
      cmDidName: '',
      cmAridName: '超级管理员',
      isOwner: 1,
    });
    expect(JSON.stringify(rows)).not.toMatch(/password|argon2/i);
  });

  it('filters by name, account, phone or work number', async () => {
    expect(namesOf((await list(`name=${encodeURIComponent('李四')}`)).list)).toEqual(['lisi']);
    expect(namesOf((await list('name=WANG')).list)).toEqual(['wangwu']);
    expect(namesOf((await list('name=13800000004')).list)).toEqual(['zhaoliu']);
    expect((await list('name=S00')).count).toBe(4);
    // LIKE wildcards are taken literally.
    expect((await list('name=%25')).count).toBe(0);
    expect((await list('name=_')).count).toBe(0);
  });

  it('filters by department, role, state and account type', async () => {
    expect(namesOf((await list(`cmDid=${dept2}`)).list)).toEqual(['zhaoliu']);
    expect(namesOf((await list(`cmDid=${dept1}`)).list)).toEqual(['lisi', 'wangwu', 'zhangsan']);
    expect(namesOf((await list(`cmArid=${salesRole}`)).list)).toEqual(['lisi', 'wangwu', 'zhaoliu']);
    expect((await list('actionState=1')).count).toBe(0);
    expect((await list('actionState=0')).count).toBe(5);
    expect(namesOf((await list('merchantType=2')).list)).toEqual(['zhaoliu']);
    expect(namesOf((await list(`cmDid=${dept1}&cmArid=${supervisorRole}`)).list)).toEqual(['zhangsan']);
  });

  it('pages with the full count on every page', async () => {
    const all = (await list()).list.map((r) => r.cmSid);
    const pages = [
      await list('page=1&limit=2'),
      await list('page=2&limit=2'),
      await list('page=3&limit=2'),
      await list('page=4&limit=2'),
    ];
    expect(pages.map((p) => p.count)).toEqual([5, 5, 5, 5]);
    expect(pages.map((p) => p.list.length)).toEqual([2, 2, 1, 0]);
    expect(pages.flatMap((p) => p.list.map((r) => r.cmSid))).toEqual(all);
    expect((await t.get('/api/frontend/staff/list?limit=0', admin)).json().code).toBe(100001);
  });

  it('gives staff options within the data scope', async () => {
    const options = async (token: string) =>
      ((await t.get('/api/frontend/staff/options', token)).json().data.list as { staff_id: number }[])
        .map((o) => o.staff_id)
        .sort((a, b) => a - b);
    expect(await options(await t.login('lisi'))).toEqual([ids.lisi]);
    expect(await options(await t.login('zhangsan'))).toEqual([ids.zhangsan, ids.lisi, ids.wangwu].sort((a, b) => a - b));
    expect(await options(admin)).toEqual([ids.admin, ids.zhangsan, ids.lisi, ids.wangwu, ids.zhaoliu].sort((a, b) => a - b));
  });
});

describe('creating staff', () => {
  it('refuses a bad phone number with its message and saves nothing', async () => {
    const res = await create({ ...valid(), phone: '1234567' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 100001, msg: '请输入正确的11位手机号' });
    expect(await t.database.db.select().from(staff).where(eq(staff.username, 'xiaoming'))).toEqual([]);
  });

  it('refuses other bad fields with their messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ username: '1abc' }, '账号为4-20位字母、数字或下划线，以字母开头'],
      [{ password: 'abcdefgh' }, PASSWORD_RULE.msg],
      [{ name: ' ' }, '请输入姓名'],
      [{ email: 'not-an-email' }, '邮箱格式不正确'],
      [{ expireTime: '2030/01/01' }, '到期时间格式不正确'],
      [{ cmDid: undefined }, '请选择部门'],
      [{ cmArid: 0 }, '请选择角色'],
    ];
    for (const [patch, msg] of cases) {
      const res = await create({ ...valid(), ...patch });
      expect(res.statusCode, msg).toBe(400);
      expect(res.json(), msg).toMatchObject({ code: 100001, msg });
    }
    const sex = await create({ ...valid(), sex: 3 });
    expect(sex.json()).toMatchObject({ code: 100001 });
  });

  it('refuses a department or role that does not exist', async () => {
    const dept = await create({ ...valid(), cmDid: 999999 });
    expect(dept.statusCode).toBe(404);
    expect(dept.json()).toMatchObject({ code: 100005, msg: '所选部门不存在' });
    const role = await create({ ...valid(), cmArid: 999999 });
    expect(role.json()).toMatchObject({ code: 100005, msg: '所选角色不存在' });
  });

  it('refuses a taken account name (104001), also in another case or another company', async () => {
    for (const username of ['lisi', 'LiSi', 'other_admin']) {
      const res = await create({ ...valid(), username });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 104001, msg: '该账号已被使用' });
    }
  });

  it('refuses a phone number in use (104002)', async () => {
    const res = await create({ ...valid(), phone: '13800000002' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 104002, msg: '该手机号已被其他员工使用' });
  });

  it('creates a staff member who can then log in', async () => {
    const res = await create({ ...valid(), expireTime: '2099-01-01 08:00:00' });
    expect(res.json()).toMatchObject({ code: 0, msg: '添加成功' });
    ids.xiaoming = res.json().data.cmSid;
    const [row] = await t.database.db.select().from(staff).where(eq(staff.id, ids.xiaoming));
    expect(row).toMatchObject({
      username: 'xiaoming',
      name: '小明',
      phone: '13712345678',
      workNumber: 'S100',
      email: 'xiaoming@example.com',
      departmentId: dept1,
      roleId: salesRole,
      merchantType: 1,
      actionState: 0,
      isOwner: false,
      isDeleted: false,
    });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row.expireAt?.toISOString()).toBe('2099-01-01T00:00:00.000Z');
    expect((await list('name=xiaoming')).list[0]).toMatchObject({
      cmDidName: '销售一部',
      cmAridName: '销售',
      expireTime: '2099-01-01 08:00:00',
    });
    expect(await loginCode('xiaoming', 'start123')).toBe(0);
  });
});

describe('editing staff', () => {
  it('saves every field', async () => {
    const res = await t.post(
      '/api/frontend/staff/edit',
      editBody(ids.xiaoming, {
        name: '小明明',
        phone: '13712345679',
        workNumber: 'S101',
        sex: 2,
        email: '',
        cmDid: dept2,
        cmArid: supervisorRole,
        merchantType: 2,
        expireTime: '',
      }),
      admin,
    );
    expect(res.json()).toMatchObject({ code: 0, msg: '保存成功' });
    const [row] = await t.database.db.select().from(staff).where(eq(staff.id, ids.xiaoming));
    expect(row).toMatchObject({
      username: 'xiaoming',
      name: '小明明',
      phone: '13712345679',
      workNumber: 'S101',
      sex: 2,
      email: '',
      departmentId: dept2,
      roleId: supervisorRole,
      merchantType: 2,
      expireAt: null,
    });
    expect(namesOf((await list(`cmDid=${dept2}`)).list)).toEqual(['xiaoming', 'zhaoliu']);
  });

  it('refuses a phone number of someone else (104002) but keeps its own', async () => {
    expect((await t.post('/api/frontend/staff/edit', editBody(ids.xiaoming, { phone: '13800000003' }), admin)).json().code).toBe(
      104002,
    );
    expect((await t.post('/api/frontend/staff/edit', editBody(ids.xiaoming, { phone: '13712345679' }), admin)).json().code).toBe(
      0,
    );
  });

  it('answers 404 for an unknown staff member, department or role', async () => {
    const res = await t.post('/api/frontend/staff/edit', editBody(999999), admin);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 100005, msg: '员工不存在' });
    expect((await t.post('/api/frontend/staff/edit', editBody(ids.xiaoming, { cmDid: 999999 }), admin)).json().msg).toBe(
      '所选部门不存在',
    );
  });

  it('does not change the role of the company owner (104004)', async () => {
    const res = await t.post(
      '/api/frontend/staff/edit',
      { ...editBody(ids.admin, { name: '系统管理员', phone: '13800000000', cmArid: salesRole }) },
      admin,
    );
    expect(res.json()).toMatchObject({ code: 104004, msg: '企业创建人的角色不能修改' });
    const [row] = await t.database.db.select().from(staff).where(eq(staff.id, ids.admin));
    expect(row.roleId).toBe(sysRole);
  });

  it('logs out a staff member whose expiry is set in the past', async () => {
    const id = await createQuick('expireme');
    const token = await t.login('expireme');
    const res = await t.post(
      '/api/frontend/staff/edit',
      editBody(id, { phone: '13300009999', expireTime: '2020-01-01 00:00:00' }),
      admin,
    );
    expect(res.json().code).toBe(0);
    expect(await infoStatus(token)).toBe(401);
    expect(await loginCode('expireme')).toBe(101003);
  });
});

describe('disabling, resetting and deleting', () => {
  it('disabling logs the staff member out and refuses the login; enabling lets him in again', async () => {
    const id = await createQuick('tobedisabled');
    const token = await t.login('tobedisabled');
    expect(await infoStatus(token)).toBe(200);
    const res = await t.post('/api/frontend/staff/state', { cmSid: id, actionState: 1 }, admin);
    expect(res.json()).toMatchObject({ code: 0 });
    const after = await t.get('/api/frontend/user/info', token);
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe(100002);
    expect(await loginCode('tobedisabled')).toBe(101002);
    expect(namesOf((await list('actionState=1')).list)).toEqual(['tobedisabled']);

    expect((await t.post('/api/frontend/staff/state', { cmSid: id, actionState: 0 }, admin)).json().code).toBe(0);
    expect(await loginCode('tobedisabled')).toBe(0);
    expect((await list('actionState=1')).count).toBe(0);
  });

  it('resetting the password logs the staff member out; only the new password works', async () => {
    const id = await createQuick('resetme');
    const token = await t.login('resetme');
    const weak = await t.post('/api/frontend/staff/resetpwd', { cmSid: id, password: '123456' }, admin);
    expect(weak.json()).toMatchObject({ code: 100001, msg: PASSWORD_RULE.msg });
    expect(await infoStatus(token)).toBe(200);

    const res = await t.post('/api/frontend/staff/resetpwd', { cmSid: id, password: 'reset1234' }, admin);
    expect(res.json()).toMatchObject({ code: 0, msg: '密码已重置' });
    expect(await infoStatus(token)).toBe(401);
    expect(await loginCode('resetme')).toBe(101001);
    expect(await loginCode('resetme', 'reset1234')).toBe(0);
  });

  it('an admin cannot disable, lock or delete himself (104003)', async () => {
    const state = await t.post('/api/frontend/staff/state', { cmSid: ids.admin, actionState: 1 }, admin);
    expect(state.statusCode).toBe(400);
    expect(state.json()).toMatchObject({ code: 104003, msg: '不能禁用或删除自己的账号' });
    const del = await t.post('/api/frontend/staff/del', { id: ids.admin }, admin);
    expect(del.json()).toMatchObject({ code: 104003, msg: '不能禁用或删除自己的账号' });
    const edit = await t.post(
      '/api/frontend/staff/edit',
      editBody(ids.admin, { name: '系统管理员', phone: '13800000000', cmArid: sysRole, actionState: 1 }),
      admin,
    );
    expect(edit.json().code).toBe(104003);
    const [row] = await t.database.db.select().from(staff).where(eq(staff.id, ids.admin));
    expect(row).toMatchObject({ actionState: 0, isDeleted: false });
    expect(await infoStatus(admin)).toBe(200);
  });

  it('another admin cannot disable or delete the company owner (104004)', async () => {
    await createQuick('admin2', { cmArid: sysRole });
    const admin2 = await t.login('admin2');
    const state = await t.post('/api/frontend/staff/state', { cmSid: ids.admin, actionState: 1 }, admin2);
    expect(state.json()).toMatchObject({ code: 104004, msg: '企业创建人的账号不能禁用或删除' });
    expect((await t.post('/api/frontend/staff/del', { id: ids.admin }, admin2)).json().code).toBe(104004);
  });

  it('deleting removes the staff member from the list, logs him out and frees his phone', async () => {
    const id = await createQuick('deleteme', { phone: '13311112222' });
    const token = await t.login('deleteme');
    const res = await t.post('/api/frontend/staff/del', { id }, admin);
    expect(res.json()).toMatchObject({ code: 0, msg: '删除成功' });
    expect(await infoStatus(token)).toBe(401);
    expect(await loginCode('deleteme')).toBe(101001);
    expect((await list('name=deleteme')).count).toBe(0);
    const [row] = await t.database.db.select().from(staff).where(eq(staff.id, id));
    expect(row).toMatchObject({ isDeleted: true, actionState: 1 });
    // Deleting again or editing: not found.
    expect((await t.post('/api/frontend/staff/del', { id }, admin)).json().code).toBe(100005);
    expect((await t.post('/api/frontend/staff/state', { cmSid: id, actionState: 0 }, admin)).json().code).toBe(100005);
    // The phone number can be given to someone new.
    expect((await create({ ...valid(), username: 'newcomer', phone: '13311112222' })).json().code).toBe(0);
  });
});
