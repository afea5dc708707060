import {
  changePasswordBody,
  demoInfoSchema,
  envelope,
  loginBody,
  loginResult,
  okEnvelope,
  personalEditBody,
  sessionSchema,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { demoInfo } from '../../db/seed/demo';
import { ok } from '../../lib/reply';
import * as service from './auth.service';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/frontend/login',
    {
      schema: { tags: ['auth'], summary: '登录', body: loginBody, response: { 200: envelope(loginResult) } },
      config: { isPublic: true, rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (req) =>
      ok(await service.login(app.db, req.body, { ip: req.ip, userAgent: req.headers['user-agent'] ?? '' }), '登录成功'),
  );

  app.get(
    '/api/frontend/user/info',
    { schema: { tags: ['auth'], summary: '当前用户、菜单与权限', response: { 200: envelope(sessionSchema) } } },
    async (req) => ok(await service.sessionData(app.db, req.actor.staffId)),
  );

  app.post(
    '/api/frontend/logout',
    { schema: { tags: ['auth'], summary: '安全退出', response: { 200: okEnvelope } } },
    async (req) => {
      await service.logout(app.db, req.actor);
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
      await service.changePassword(app.db, req.actor, req.body);
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
