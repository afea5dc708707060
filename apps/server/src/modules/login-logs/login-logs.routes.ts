import { envelope, listOf, loginLogQuery, loginLogSchema } from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import * as service from './login-logs.service';

export const loginLogsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/frontend/user/loginlog',
    {
      schema: {
        tags: ['login-logs'],
        summary: '登录日志（按数据范围）',
        querystring: loginLogQuery,
        response: { 200: envelope(listOf(loginLogSchema)) },
      },
      config: { menu: '/system/loginlog' },
    },
    async (req) => ok(await service.listLoginLogs(app.db, req.actor, req.query)),
  );
};
