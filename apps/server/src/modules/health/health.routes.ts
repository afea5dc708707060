import { envelope, healthSchema } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    { schema: { tags: ['health'], summary: '健康检查', response: { 200: envelope(healthSchema) } }, config: { isPublic: true } },
    async () => {
      await app.db.execute(sql`select 1`);
      return ok({ status: 'ok', database: app.dbKind, telephony: app.config.telephony });
    },
  );
};
