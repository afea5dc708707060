import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { departments } from '../../db/schema';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';

type Node = { cmDid: number; pid: number; name: string; sortNum: number; staffNum: number; children: Node[] };

let t: TestApp;
let admin: string;
let salesRole: number;

const tree = async (token = admin): Promise<Node[]> => {
  const res = await t.get('/api/frontend/department/list', token);
  expect(res.json().code).toBe(0);
  return res.json().data.list;
};
const find = (nodes: Node[], name: string): Node | undefined => {
  for (const n of nodes) {
    if (n.name === name) return n;
    const sub = find(n.children, name);
    if (sub) return sub;
  }
  return undefined;
};
const create = (body: Record<string, unknown>) => t.post('/api/frontend/department/create', body, admin);
const edit = (body: Record<string, unknown>) => t.post('/api/frontend/department/edit', { sortNum: 0, ...body }, admin);
const del = (id: number) => t.post('/api/frontend/department/del', { id }, admin);
const createId = async (pid: number, name: string, sortNum = 0) => {
  const res = await create({ pid, name, sortNum });
  expect(res.json()).toMatchObject({ code: 0, msg: '添加成功' });
  return res.json().data.cmDid as number;
};

let phoneSeq = 0;
const createStaff = async (username: string, cmDid: number) => {
  phoneSeq += 1;
  const res = await t.post(
    '/api/frontend/staff/create',
    {
      username,
      password: DEMO_PASSWORD,
      name: `部门测试${phoneSeq}`,
      phone: `1350000${String(phoneSeq).padStart(4, '0')}`,
      sex: 1,
      cmDid,
      cmArid: salesRole,
      merchantType: 1,
    },
    admin,
  );
  expect(res.json().code).toBe(0);
  return res.json().data.cmSid as number;
};

let root: number;
let groupA: number;
let groupB: number;
let squad: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  salesRole = (await t.get('/api/frontend/role/list', admin))
    .json()
    .data.list.find((r: { name: string }) => r.name === '销售').cmArid;
});
afterAll(async () => {
  await t.close();
});

describe('department tree', () => {
  it('lists the demo departments with their staff counts', async () => {
    const list = await tree();
    expect(list.map((n) => [n.name, n.pid, n.staffNum])).toEqual([
      ['销售一部', 0, 3],
      ['销售二部', 0, 1],
    ]);
  });

  it('creates nested departments, ordered by sortNum', async () => {
    root = await createId(0, '技术部', 3);
    groupB = await createId(root, '研发二组', 2);
    groupA = await createId(root, '研发一组', 1);
    squad = await createId(groupA, '前端小队');
    const list = await tree();
    expect(list.map((n) => n.name)).toEqual(['销售一部', '销售二部', '技术部']);
    const tech = find(list, '技术部');
    expect(tech?.children.map((n) => n.name)).toEqual(['研发一组', '研发二组']);
    expect(tech?.children[0].children).toMatchObject([{ cmDid: squad, pid: groupA, name: '前端小队', children: [] }]);
    const [row] = await t.database.db.select().from(departments).where(eq(departments.id, squad));
    expect(row).toMatchObject({ pid: groupA, name: '前端小队', sortNum: 0 });
  });

  it('refuses a duplicate name among siblings (102001), on create and on edit', async () => {
    const dup = await create({ pid: root, name: '研发一组' });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toMatchObject({ code: 102001, msg: '同级部门下已存在相同名称' });
    expect((await create({ pid: 0, name: '销售一部' })).json().code).toBe(102001);
    expect((await edit({ cmDid: groupB, pid: root, name: '研发一组' })).json().code).toBe(102001);
    // The same name under another parent is fine.
    const other = await createId(groupB, '研发一组');
    expect((await del(other)).json().code).toBe(0);
  });

  it('renames and moves a department', async () => {
    const res = await edit({ cmDid: groupB, pid: 0, name: '测试部', sortNum: 9 });
    expect(res.json()).toMatchObject({ code: 0, msg: '保存成功' });
    const list = await tree();
    expect(list.map((n) => n.name)).toEqual(['销售一部', '销售二部', '技术部', '测试部']);
    expect(find(list, '技术部')?.children.map((n) => n.name)).toEqual(['研发一组']);
    const [row] = await t.database.db.select().from(departments).where(eq(departments.id, groupB));
    expect(row).toMatchObject({ pid: 0, name: '测试部', sortNum: 9 });
  });

  it('refuses to move a department under itself or its own descendant (102004)', async () => {
    for (const pid of [root, groupA, squad]) {
      const res = await edit({ cmDid: root, pid, name: '技术部' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 102004, msg: '上级部门不能是自己或自己的下级部门' });
    }
    const [row] = await t.database.db.select().from(departments).where(eq(departments.id, root));
    expect(row.pid).toBe(0);
  });

  it('answers 404 for an unknown department or parent', async () => {
    const noParent = await create({ pid: 999999, name: '孤儿部' });
    expect(noParent.statusCode).toBe(404);
    expect(noParent.json()).toMatchObject({ code: 100005, msg: '上级部门不存在' });
    expect((await edit({ cmDid: 999999, pid: 0, name: 'x' })).json().code).toBe(100005);
    expect((await del(999999)).json().code).toBe(100005);
  });

  it('refuses an empty or too long name', async () => {
    const empty = await create({ pid: 0, name: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 100001, msg: '请输入部门名称' });
    expect((await create({ pid: 0, name: '部'.repeat(31) })).json()).toMatchObject({ code: 100001, msg: '部门名称最多30个字符' });
  });
});

describe('deleting departments', () => {
  it('refuses one with children (102002)', async () => {
    const res = await del(root);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 102002, msg: '该部门下还有子部门，请先删除子部门' });
  });

  it('refuses one with staff (102003)', async () => {
    const sales1 = find(await tree(), '销售一部');
    const res = await del(sales1?.cmDid ?? 0);
    expect(res.json()).toMatchObject({ code: 102003, msg: '该部门下还有员工，请先调整员工部门' });
  });

  it('deletes leaves, then their emptied parent', async () => {
    expect((await del(squad)).json()).toMatchObject({ code: 0, msg: '删除成功' });
    expect((await del(groupA)).json().code).toBe(0);
    expect((await del(root)).json().code).toBe(0);
    const list = await tree();
    expect(find(list, '技术部')).toBeUndefined();
    expect(await t.database.db.select().from(departments).where(eq(departments.id, root))).toEqual([]);
  });

  it('refuses to delete the department of new staff, and counts them', async () => {
    const id = await createId(0, '客服部');
    await createStaff('kefu01', id);
    expect((await del(id)).json().code).toBe(102003);
    expect(find(await tree(), '客服部')?.staffNum).toBe(1);
  });

  it('deletes a department whose only staff member was deleted', async () => {
    const id = await createId(0, '临时部');
    const staffId = await createStaff('linshi01', id);
    expect((await t.post('/api/frontend/staff/del', { id: staffId }, admin)).json().code).toBe(0);
    const res = await del(id);
    expect(res.json()).toMatchObject({ code: 0, msg: '删除成功' });
    expect(find(await tree(), '临时部')).toBeUndefined();
  });
});

describe('department permissions', () => {
  it('lets a 销售 read the tree but not change it', async () => {
    const lisi = await t.login('lisi');
    expect((await tree(lisi)).map((n) => n.name)).toContain('销售一部');
    const res = await t.post('/api/frontend/department/create', { pid: 0, name: '自建部' }, lisi);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe(100003);
    expect((await t.post('/api/frontend/department/del', { id: 1 }, lisi)).json().code).toBe(100003);
  });
});
