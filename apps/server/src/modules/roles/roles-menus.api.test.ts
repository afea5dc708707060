import { ALL_MENUS, type MenuNode } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

type MenuApp = { cbAid: number; name: string; menus: MenuNode[] };

/** Menus of pages that do not exist yet (none since 精线索 landed in issue 28; 费用明细 in issue 27). */
const PLANNED = ALL_MENUS.filter((n) => n.isPlanned).map((n) => n.cmMid);
const PLANNED_ROUTES = ALL_MENUS.filter((n) => n.isPlanned).map((n) => n.frontRoute);
/** 精线索 and its five pages (issue 28) */
const LEADS = [110, 111, 112, 113, 114, 115];

const ids = (nodes: MenuNode[]): number[] => nodes.flatMap((n) => [n.cmMid, ...ids(n.children)]);
const appIds = (apps: MenuApp[]) => apps.flatMap((a) => ids(a.menus));

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
});
afterAll(async () => {
  await t.close();
});

describe('menus of pages that do not exist', () => {
  it('are not offered by the role editor', async () => {
    const { applications } = (await t.get('/api/frontend/role/menus', admin)).json().data as { applications: MenuApp[] };
    const offered = appIds(applications);
    expect(offered).toContain(122);
    expect(offered).toContain(220);
    // 坐席任务 and 群呼任务 exist since issue 15
    expect(offered).toContain(250);
    expect(offered).toContain(500);
    for (const id of PLANNED) expect(offered, String(id)).not.toContain(id);
    for (const id of LEADS) expect(offered, String(id)).toContain(id);
    // 话术管理 (301), AI外呼任务 (300) and AI接待记录 (400) exist since issue 16
    expect(offered).toContain(301);
    expect(offered).toContain(300);
    expect(offered).toContain(400);
    expect(applications.map((a) => a.name)).toEqual(['客户管理', '人工坐席', 'AI外呼', 'AI接待', '人工群呼', '号码黑名单']);
    // the catalogue's internal flag never leaves the server
    expect(JSON.stringify(applications)).not.toContain('isPlanned');
  });

  it('are not granted by a role, even when sent', async () => {
    const res = await t.post(
      '/api/frontend/role/create',
      { name: '计划页测试', remark: '', dataScope: 1, actions: [], menuIds: [122, 110, 113] },
      admin,
    );
    expect(res.json().code).toBe(0);
    const list = (await t.get('/api/frontend/role/list', admin)).json().data.list as { name: string; menuIds: number[] }[];
    // 精线索 (110, 113) is live since issue 28: granted as sent
    expect(list.find((r) => r.name === '计划页测试')?.menuIds).toEqual(expect.arrayContaining([122, 110, 113]));
    const sys = list.find((r) => r.name === '超级管理员');
    for (const id of PLANNED) expect(sys?.menuIds, String(id)).not.toContain(id);
  });

  it('are not in the super admin menu list nor granted in his permissions', async () => {
    const info = (await t.get('/api/frontend/user/info', admin)).json().data;
    const listed = appIds(info.menulist as MenuApp[]);
    expect(listed).toContain(143);
    expect(listed).toContain(301);
    expect(listed).toContain(300);
    expect(listed).toContain(400);
    for (const id of PLANNED) expect(listed, String(id)).not.toContain(id);
    for (const route of PLANNED_ROUTES) expect(info.permissions[route], route).toEqual({ hasPremisson: 0 });
    for (const id of LEADS) expect(listed, String(id)).toContain(id);
    expect(info.permissions['/jingxiansuo/map']).toEqual({ hasPremisson: 1 });
    expect(info.permissions['/call/record']).toEqual({ hasPremisson: 1 });
    expect(info.permissions['/aicall/flow']).toEqual({ hasPremisson: 1 });
    expect(info.permissions['/aicall/Index']).toEqual({ hasPremisson: 1 });
    expect(info.permissions['/aireception/Index']).toEqual({ hasPremisson: 1 });
  });
});
