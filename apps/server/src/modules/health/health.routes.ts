import { ERRORS, envelope, healthSchema, readinessSchema } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import { checkReadiness, type ReadinessCheck } from './readiness';

/** `checks`: the readiness checks beyond the database (Redis, the line), from plugins/operations.ts */
export const healthRoutes: FastifyPluginAsyncZod<{ checks?: ReadinessCheck[] }> = async (app, opts) => {
  app.get(
    '/api/health',
    { schema: { tags: ['health'], summary: '健康检查', response: { 200: envelope(healthSchema) } }, config: { isPublic: true } },
    async () => {
      await app.db.execute(sql`select 1`);
      return ok({ status: 'ok', database: app.dbKind, telephony: app.config.telephony });
    },
  );

  // issue 25: for a load balancer or orchestrator: 200 when every check passes, else 503 naming the failed ones
  app.get(
    '/api/health/ready',
    {
      schema: {
        tags: ['health'],
        summary: '就绪检查（数据库、Redis、线路）',
        response: { 200: envelope(readinessSchema), 503: envelope(readinessSchema) },
      },
      config: { isPublic: true },
    },
    async (_req, reply) => {
      const readiness = await checkReadiness(app, opts.checks ?? []);
      if (readiness.status === 'ok') return ok(readiness);
      const failed = readiness.checks.filter((c) => !c.ok).map((c) => c.name);
      return reply
        .code(503)
        .send({ code: ERRORS.NOT_READY.code, msg: `${ERRORS.NOT_READY.msg}：${failed.join('、')}`, data: readiness });
    },
  );
};
