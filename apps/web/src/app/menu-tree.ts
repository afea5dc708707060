import type { MenuList, MenuNode } from '@crm/contracts';

/** Menu entries a person can open: isMenu=1 hidden (SPEC §2), routes without a page left out. */
export const visibleMenus = (nodes: MenuNode[], implemented: ReadonlySet<string>): MenuNode[] =>
  nodes.flatMap((n) => {
    if (n.isMenu === 1) return [];
    if (n.children.length === 0) return implemented.has(n.frontRoute) ? [n] : [];
    const children = visibleMenus(n.children, implemented);
    return children.length > 0 ? [{ ...n, children }] : [];
  });

export const firstRoute = (nodes: MenuNode[]): string | undefined => {
  for (const n of nodes) {
    if (n.children.length === 0) return n.frontRoute;
    const sub = firstRoute(n.children);
    if (sub) return sub;
  }
  return undefined;
};

const contains = (nodes: MenuNode[], path: string): boolean =>
  nodes.some((n) => n.frontRoute === path || path.startsWith(`${n.frontRoute}/`) || contains(n.children, path));

/** The application whose menu holds the path: the top menu's active item follows the path. */
export const applicationOf = (menulist: MenuList, path: string) => menulist.find((app) => contains(app.menus, path));

/** Keys of the groups above a route, to open the side menu there. */
export const parentKeys = (nodes: MenuNode[], path: string, trail: string[] = []): string[] | undefined => {
  for (const n of nodes) {
    if (n.frontRoute === path) return trail;
    const sub = parentKeys(n.children, path, [...trail, String(n.cmMid)]);
    if (sub) return sub;
  }
  return undefined;
};

const leaves = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => (n.children.length > 0 ? leaves(n.children) : [n]));

/**
 * The side menu's entry for a path: the leaf of that route, else the leaf whose route the path
 * continues (/aicall/flow/12 selects 话术管理 /aicall/flow; the longest such route wins).
 */
export const selectedRoute = (nodes: MenuNode[], path: string): string | undefined => {
  let best: string | undefined;
  for (const n of leaves(nodes)) {
    if (n.frontRoute === path) return path;
    if (path.startsWith(`${n.frontRoute}/`) && n.frontRoute.length > (best?.length ?? 0)) best = n.frontRoute;
  }
  return best;
};
