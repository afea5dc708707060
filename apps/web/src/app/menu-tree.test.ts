import { APPLICATIONS, type MenuNode } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { applicationOf, firstRoute, parentKeys, visibleMenus } from './menu-tree';

const customerApp = APPLICATIONS[0];

describe('visibleMenus', () => {
  it('keeps only routes that have a page and groups that keep a child', () => {
    const shown = visibleMenus(customerApp.menus, new Set(['/home/Index', '/account/staff']));
    expect(shown.map((n) => n.name)).toEqual(['工作台', '账户管理']);
    expect(shown[1].children.map((n) => n.frontRoute)).toEqual(['/account/staff']);
  });
  it('hides isMenu=1 entries (SPEC §2)', () => {
    const hidden: MenuNode = { cmMid: 1, name: '隐藏', frontRoute: '/x', icon: '', isMenu: 1, children: [] };
    expect(visibleMenus([hidden], new Set(['/x']))).toEqual([]);
  });
});

describe('applicationOf / parentKeys / firstRoute', () => {
  it('finds the application whose menu holds the path', () => {
    expect(applicationOf(APPLICATIONS, '/call/record')?.name).toBe('人工坐席');
    expect(applicationOf(APPLICATIONS, '/account/staff')?.name).toBe('客户管理');
  });
  it('opens the group above a route and finds the first leaf', () => {
    expect(parentKeys(customerApp.menus, '/account/staff')).toEqual(['140']);
    expect(firstRoute(customerApp.menus)).toBe('/home/Index');
  });
});
