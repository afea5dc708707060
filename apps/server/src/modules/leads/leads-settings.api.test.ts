/**
 * 拓客设置 (menu 116) is an administrator's setting: the demo 销售 and 销售主管 roles hold the five
 * search pages (111–115), not the group 110, so the settings routes refuse them (100003) while the
 * searches still answer. The own lists name who imported each one (through the staff lookup).
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, uploadAs } from '../../test/harness';

let t: TestApp;
const tokens: Record<string, string> = {};
const as = (u: string) => tokens[u] as string;
const P = '/api/frontend/customer/kqhk';
const FORBIDDEN_MENU = 100003;

type OwnList = { id: number; name: string; rowCount: number; staffName: string; createTime: string };

const xlsx = async (name: string) => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('名单');
  ws.addRow(['企业名称', '电话']);
  ws.addRow([name, '13912345678']);
  return Buffer.from(await wb.xlsx.writeBuffer());
};
const uploaded = async (user: string, company: string) => {
  const res = await uploadAs(t, as(user), '名单.xlsx', await xlsx(company));
  expect(res.json().code, res.body).toBe(0);
  return res.json().data.id as number;
};
const ownLists = async (user: string) => {
  const res = await t.get(`${P}/own/list?page=1&limit=100`, as(user));
  expect(res.json().code, res.body).toBe(0);
  return res.json().data.list as OwnList[];
};
const importAs = (user: string, name: string, fileId: number) => t.post(`${P}/own/import`, { name, fileId }, as(user));

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'zhangsan', 'lisi']) tokens[u] = await t.login(u);
}, 400_000);
afterAll(async () => {
  await t?.close();
});

describe('拓客设置 is an administrator setting (menu 116)', () => {
  it('the demo 销售 and 销售主管 roles do not hold it, but keep the five search pages', async () => {
    for (const user of ['lisi', 'zhangsan']) {
      const { permissions } = (await t.get('/api/frontend/user/info', as(user))).json().data;
      expect(permissions['/jingxiansuo/settings'], user).toEqual({ hasPremisson: 0 });
      for (const route of ['company', 'industry', 'advanced', 'map', 'batchCompany'])
        expect(permissions[`/jingxiansuo/${route}`], `${user} ${route}`).toEqual({ hasPremisson: 1 });
      expect((await t.get(`${P}/company?keyword=${encodeURIComponent('科技')}`, as(user))).json().code).toBe(0);
    }
  });

  it('a sales user and a 主管 are refused on every settings route: key, quota, mapping, own-list list, import, delete', async () => {
    const fileId = await uploaded('lisi', '销售自带名单科技有限公司');
    const adminFile = await uploaded('admin', '管理员名单科技有限公司');
    const imported = await importAs('admin', '管理员名单', adminFile);
    expect(imported.json().code, imported.body).toBe(0);
    const listId = imported.json().data.id as number;
    for (const user of ['lisi', 'zhangsan']) {
      const refused = [
        await t.get(`${P}/settings`, as(user)),
        await t.post(`${P}/settings/set`, { providerKey: 'sales-key', providerSecret: 'sales-secret' }, as(user)),
        await t.post(`${P}/settings/set`, { dailyQuota: 9999 }, as(user)),
        await t.post(`${P}/settings/set`, { mapping: [{ field: 'legalRep', coTacid: null }] }, as(user)),
        await t.get(`${P}/own/list?page=1&limit=20`, as(user)),
        await importAs(user, '销售名单', fileId),
        await t.post(`${P}/own/del`, { id: listId }, as(user)),
      ];
      for (const res of refused) {
        expect(res.statusCode, `${user} ${res.body}`).toBe(403);
        expect(res.json().code).toBe(FORBIDDEN_MENU);
        expect(res.json().msg).toBe('您没有访问该功能的权限，请联系管理员');
      }
    }
    // nothing changed: the admin's list is still there, no sales list was made, the quota is untouched
    expect((await ownLists('admin')).map((l) => l.name)).toEqual(['管理员名单']);
    const settings = (await t.get(`${P}/settings`, as('admin'))).json().data;
    expect(settings).toMatchObject({ providerKeyMasked: '', dailyQuota: 10 });
    expect((await t.post(`${P}/own/del`, { id: listId }, as('admin'))).json().code).toBe(0);
  });

  it('the admin saves the key, quota and mapping, imports and deletes a list', async () => {
    const saved = await t.post(
      `${P}/settings/set`,
      {
        providerKey: 'admin-key-1234',
        providerSecret: 'admin-secret',
        dailyQuota: 12,
        mapping: [{ field: 'legalRep', coTacid: null }],
      },
      as('admin'),
    );
    expect(saved.json().code, saved.body).toBe(0);
    expect((await t.get(`${P}/settings`, as('admin'))).json().data).toMatchObject({
      providerKeyMasked: '**********1234',
      hasProviderSecret: true,
      dailyQuota: 12,
    });
    const res = await importAs('admin', '展会名单', await uploaded('admin', '展会名单科技有限公司'));
    expect(res.json().code, res.body).toBe(0);
    const id = res.json().data.id as number;
    expect((await ownLists('admin')).map((l) => l.id)).toContain(id);
    expect((await t.post(`${P}/own/del`, { id }, as('admin'))).json().code).toBe(0);
    expect((await ownLists('admin')).map((l) => l.id)).not.toContain(id);
  });

  it('a role granted 拓客设置 alone opens its routes; saving the key stays the super administrator’s', async () => {
    const role = await t.post(
      '/api/frontend/role/create',
      { name: '拓客管理员', remark: '', dataScope: 4, menuIds: [116], actions: [] },
      as('admin'),
    );
    expect(role.json().code, role.body).toBe(0);
    const dept = (await t.get('/api/frontend/department/list', as('admin'))).json().data.list[0].cmDid;
    const created = await t.post(
      '/api/frontend/staff/create',
      {
        username: 'leadadmin',
        password: 'abc12345',
        name: '拓客专员',
        phone: '13700008888',
        sex: 1,
        merchantType: 1,
        cmDid: dept,
        cmArid: role.json().data.cmArid,
      },
      as('admin'),
    );
    expect(created.json().code, created.body).toBe(0);
    tokens.leadadmin = await t.login('leadadmin', 'abc12345');
    expect((await t.get(`${P}/settings`, as('leadadmin'))).json().code).toBe(0);
    const res = await importAs('leadadmin', '专员名单', await uploaded('leadadmin', '专员名单科技有限公司'));
    expect(res.json().code, res.body).toBe(0);
    expect((await t.post(`${P}/settings/set`, { dailyQuota: 3 }, as('leadadmin'))).json().code).toBe(100004);
    // the search pages are not his
    expect((await t.get(`${P}/company?keyword=${encodeURIComponent('科技')}`, as('leadadmin'))).json().code).toBe(FORBIDDEN_MENU);
    expect((await t.post(`${P}/own/del`, { id: res.json().data.id }, as('leadadmin'))).json().code).toBe(0);
  });
});

describe('own lists name who imported them and when', () => {
  it('导入人 and 导入时间 in the list, newest first', async () => {
    const first = await importAs('admin', '第一批', await uploaded('admin', '第一批名单科技有限公司'));
    const second = await importAs('leadadmin', '第二批', await uploaded('leadadmin', '第二批名单科技有限公司'));
    expect(first.json().code, first.body).toBe(0);
    expect(second.json().code, second.body).toBe(0);
    const lists = await ownLists('admin');
    const byName = new Map(lists.map((l) => [l.name, l]));
    expect(byName.get('第一批')).toMatchObject({ staffName: '系统管理员', rowCount: 1 });
    expect(byName.get('第二批')).toMatchObject({ staffName: '拓客专员', rowCount: 1 });
    for (const l of lists) expect(l.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(lists.map((l) => l.name).slice(0, 2)).toEqual(['第二批', '第一批']);
  });
});
