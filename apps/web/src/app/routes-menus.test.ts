import { ALL_MENUS, LIVE_MENUS, menuIdForRoute } from '@crm/contracts';
import { describe, expect, it } from 'vitest';
import { IMPLEMENTED_ROUTES } from './routes';

/**
 * "A page exists" is decided once, in the catalogue (packages/contracts/src/menus.ts, `planned`):
 * the route table here and the catalogue must agree, so the role editor never offers a page that
 * is not there and a landed page is never left out of the roles.
 */
describe('menu catalogue and route table', () => {
  it('has a page for every live menu leaf', () => {
    const leaves = LIVE_MENUS.filter((n) => n.children.length === 0);
    for (const n of leaves) expect(IMPLEMENTED_ROUTES.has(n.frontRoute), `${n.name} ${n.frontRoute}`).toBe(true);
  });

  it('has no planned menu whose page exists', () => {
    const planned = ALL_MENUS.filter((n) => n.isPlanned);
    // 费用明细 has its page since issue 27
    expect(planned.map((n) => n.name)).not.toContain('费用明细');
    for (const n of planned) expect(IMPLEMENTED_ROUTES.has(n.frontRoute), `${n.name} ${n.frontRoute}`).toBe(false);
  });

  it('guards every page by a live menu', () => {
    const live = new Set(LIVE_MENUS.map((n) => n.cmMid));
    for (const route of IMPLEMENTED_ROUTES) expect(live.has(menuIdForRoute(route) ?? -1), route).toBe(true);
  });
});
