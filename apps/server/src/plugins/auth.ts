import { isMenuGranted, menuIdForRoute } from '@crm/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { type Actor, canDoAction } from '../lib/auth-context';
import { authenticate } from '../modules/auth/auth.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open route: no token needed (login, health, docs). */
    isPublic?: boolean;
    /** The menu route whose permission guards this call (SPEC §3: inherited by child routes). */
    menu?: string | string[];
    /**
     * Menu routes the role must hold as well as `menu` (all of them): managing a kind of work that
     * `menu` only lets staff do, e.g. 群呼任务 are worked under menu 500 and managed by the roles that
     * also manage seat tasks (menu 250).
     */
    alsoMenus?: string[];
    /** A named action permission the role must hold, e.g. frontend/customer/followdel. */
    action?: string;
  }
  interface FastifyRequest {
    actor: Actor;
  }
}

/** Reads the token from the Authorization header (API) or the `token` cookie (file links, SPEC §9). */
export const tokenOf = (req: FastifyRequest): string => {
  const header = req.headers.authorization ?? '';
  if (header) return header.replace(/^Bearer\s+/i, '').trim();
  const cookie = req.headers.cookie ?? '';
  const match = /(?:^|;\s*)token=([^;]+)/.exec(cookie);
  return match ? decodeURIComponent(match[1]) : '';
};

/** Checks the role may use a menu route (or one of several). */
export const canUseMenu = (actor: Actor, route: string): boolean => {
  if (actor.isSystemRole) return true;
  const id = menuIdForRoute(route);
  return id !== undefined && isMenuGranted(actor.menuIds, id);
};

/** One hook guards every /api route: token → actor, then the route's menu and action permissions. */
export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('actor', null as unknown as Actor);
  app.addHook('onRequest', async (req) => {
    const url = req.url;
    if (!url.startsWith('/api/')) return;
    const config = req.routeOptions.config;
    if (config?.isPublic || url.startsWith('/api/docs')) return;
    const token = tokenOf(req);
    if (!token) throw new AppError('LOGIN_EXPIRED');
    const actor = await authenticate(app.db, token);
    if (!actor) throw new AppError('LOGIN_EXPIRED');
    req.actor = actor;
    const menus = config?.menu === undefined ? [] : Array.isArray(config.menu) ? config.menu : [config.menu];
    if (menus.length > 0 && !menus.some((m) => canUseMenu(actor, m))) throw new AppError('FORBIDDEN_MENU');
    if (config?.alsoMenus && !config.alsoMenus.every((m) => canUseMenu(actor, m))) throw new AppError('FORBIDDEN_MENU');
    if (config?.action && !canDoAction(actor, config.action)) throw new AppError('FORBIDDEN_ACTION');
  });
});
