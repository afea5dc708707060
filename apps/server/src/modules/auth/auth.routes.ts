import {
  changePasswordBody,
  demoInfoSchema,
  envelope,
  LIMITS,
  loginBody,
  loginResult,
  okEnvelope,
  personalEditBody,
  sessionSchema,
} from '@crm/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { demoInfo } from '../../db/seed/demo';
import { ok } from '../../lib/reply';
import * as service from './auth.service';

/**
 * The `token` cookie lets file links (<img>, <audio>, downloads) carry the session: set by the
 * server at login, HttpOnly (no script reads it), SameSite=Lax, Secure in production; cleared at logout.
 * It lasts 1 day (SPEC §9), as the token the web stores.
 */
export const TOKEN_COOKIE = 'token';
const setTokenCookie = (reply: FastifyReply, token: string, isSecure: boolean) => {
  const maxAge = token ? LIMITS.tokenCookieSeconds : 0;
  const value = `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax`;
  reply.header('set-cookie', isSecure ? `${value}; Secure` : value);
};

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/frontend/login',
    {
      schema: { tags: ['auth'], summary: '登录', body: loginBody, response: { 200: envelope(loginResult) } },
      config: { isPublic: true, rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (req, reply) => {
      const result = await service.login(app.db, req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? '' });
      setTokenCookie(reply, result.token, app.config.isProduction);
      return ok(result, '登录成功');
    },
  );

  app.get(
    '/api/frontend/user/info',
    { schema: { tags: ['auth'], summary: '当前用户、菜单与权限', response: { 200: envelope(sessionSchema) } } },
    async (req) => ok(await service.sessionData(app.db, req.actor.staffId)),
  );

  app.post(
    '/api/frontend/logout',
    { schema: { tags: ['auth'], summary: '安全退出', response: { 200: okEnvelope } } },
    async (req, reply) => {
      await service.logout(app.db, app.calls.bus, req.actor);
      setTokenCookie(reply, '', app.config.isProduction);
      return ok(null, '退出成功');
    },
  );

  app.post(
    '/api/frontend/user/password',
    {
      schema: { tags: ['auth'], summary: '修改密码（其他会话下线）', body: changePasswordBody, response: { 200: okEnvelope } },
      config: { menu: '/system/modifyPaw' },
    },
    async (req) => {
      await service.changePassword(app.db, app.calls.bus, req.actor, req.body);
      return ok(null, '密码修改成功');
    },
  );

  app.post(
    '/api/frontend/user/edit',
    {
      schema: { tags: ['auth'], summary: '修改个人资料', body: personalEditBody, response: { 200: envelope(sessionSchema) } },
      config: { menu: '/system/personal' },
    },
    async (req) => ok(await service.editPersonal(app.db, req.actor, req.body), '保存成功'),
  );

  app.get(
    '/api/frontend/demo/info',
    {
      schema: { tags: ['auth'], summary: '演示账号（仅演示数据存在时）', response: { 200: envelope(demoInfoSchema) } },
      config: { isPublic: true },
    },
    async () => ok(await demoInfo(app.db, app.config)),
  );
};
