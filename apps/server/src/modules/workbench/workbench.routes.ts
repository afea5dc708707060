import { envelope, workbenchSummarySchema } from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import * as service from './workbench.service';

export const workbenchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/frontend/workbench/summary',
    {
      schema: { tags: ['workbench'], summary: '工作台概览', response: { 200: envelope(workbenchSummarySchema) } },
      config: { menu: '/home/Index' },
    },
    async (req) => ok(await service.workbenchSummary(app.db, req.actor)),
  );
};
