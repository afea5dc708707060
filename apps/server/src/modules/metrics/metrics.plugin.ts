import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Registry } from 'prom-client';
import type { Database } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { metricsAccess } from './metrics-access';
import { type FigureSource, registerCollectors, registerFigures } from './metrics-collectors';

declare module 'fastify' {
  interface FastifyInstance {
    /** Adds a module's gauges to GET /metrics (read on each scrape). */
    addMetricSource: (source: FigureSource) => void;
  }
}

/**
 * GET /metrics (issue 25): Prometheus text from this instance's own registry (several apps in one
 * process, as tests build them, do not share figures). Outside /api: no session token; access is
 * loopback, METRICS_ALLOW or the METRICS_TOKEN bearer (metrics-access.ts), anyone else gets 403.
 */
export const metricsPlugin = fp(async (app: FastifyInstance, opts: { pool?: Database['pool']; sources: FigureSource[] }) => {
  const registry = new Registry();
  registerCollectors(app, registry, opts.pool);
  const { refresh, add } = registerFigures(app, registry, opts.sources);
  app.decorate('addMetricSource', add);
  const mayRead = metricsAccess(app.config.metrics, app.config.trustProxy);
  app.get('/metrics', { schema: { hide: true }, config: { isPublic: true } }, async (req, reply) => {
    if (!mayRead(req)) throw new AppError('METRICS_FORBIDDEN');
    await refresh();
    reply.type(registry.contentType);
    return registry.metrics();
  });
});
