import { envelope, okEnvelope, strategySchema, strategySetBody } from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import * as service from './strategy.service';

const MENU = '/set/strategy';
const tags = ['strategy'];

export const strategyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/frontend/customerset/strategyinfo',
    { schema: { tags, summary: '客户策略', response: { 200: envelope(strategySchema) } } },
    async (req) => ok(await service.getStrategy(app.db, req.actor.tenantId)),
  );
  app.post(
    '/api/frontend/customerset/strategyset',
    { schema: { tags, summary: '保存客户策略', body: strategySetBody, response: { 200: okEnvelope } }, config: { menu: MENU } },
    async (req) => {
      await service.setStrategy(app.db, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
};
