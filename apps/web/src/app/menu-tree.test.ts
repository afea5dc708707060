import { APPLICATIONS, type MenuNode } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { applicationOf, firstRoute, parentKeys, selectedRoute, visibleMenus } from './menu-tree';

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

describe('selectedRoute', () => {
  const leaf = (cmMid: number, frontRoute: string): MenuNode => ({
    cmMid,
    name: frontRoute,
    frontRoute,
    icon: '',
    isMenu: 0,
    children: [],
  });
  const menus: MenuNode[] = [
    leaf(1, '/aicall/Index'),
    {
      cmMid: 2,
      name: '设置',
      frontRoute: '',
      icon: '',
      isMenu: 0,
      children: [leaf(3, '/aicall/flow'), leaf(4, '/aicall/flow/tpl')],
    },
  ];
  it('a route selects its own entry', () => {
    expect(selectedRoute(menus, '/aicall/Index')).toBe('/aicall/Index');
    expect(selectedRoute(menus, '/aicall/flow')).toBe('/aicall/flow');
  });
  it('a sub-path selects the entry it continues, the longest one', () => {
    expect(selectedRoute(menus, '/aicall/flow/12')).toBe('/aicall/flow');
    expect(selectedRoute(menus, '/aicall/flow/tpl/3')).toBe('/aicall/flow/tpl');
  });
  it('a path that only shares a prefix, or none, selects nothing', () => {
    expect(selectedRoute(menus, '/aicall/flows')).toBeUndefined();
    expect(selectedRoute(menus, '/aicall/Index2')).toBeUndefined();
    expect(selectedRoute(menus, '/home/Index')).toBeUndefined();
  });
  it('话术管理 is selected on the flow designer of the real catalogue', () => {
    const aiApp = APPLICATIONS.find((a) => applicationOf([a], '/aicall/flow'));
    expect(aiApp).toBeDefined();
    expect(selectedRoute(aiApp?.menus ?? [], '/aicall/flow/7')).toBe('/aicall/flow');
  });
});
