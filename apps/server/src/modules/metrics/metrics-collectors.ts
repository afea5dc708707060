import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, type Registry } from 'prom-client';
import type { Database } from '../../db/client';

/** The collectors of GET /metrics: process defaults, HTTP latency by route, the database pool, the figures the modules give. */

/** Seconds; an API call should answer well under 200 ms, an export may take 10 s. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 5, 10];

/** One sample of a gauge a figure source declares. */
export type FigureSample = { gauge: string; labels: Record<string, string>; value: number };

/**
 * Gauges a module's figures fill on each scrape (jobs, calls: plugins/operations.ts wires them), so
 * the metrics module imports no other module. `read` answers every sample of its gauges now.
 */
export type FigureSource = {
  gauges: { name: string; help: string; labelNames: string[] }[];
  read: () => Promise<FigureSample[]>;
};

export const registerCollectors = (app: FastifyInstance, registry: Registry, pool: Database['pool']) => {
  collectDefaultMetrics({ register: registry });

  const http = new Histogram({
    name: 'crm_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern (never the raw URL) and status class',
    labelNames: ['method', 'route', 'status_class'],
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    // the route's pattern (/api/files/:name), so ids never become label values
    const route = req.routeOptions.url ?? 'unmatched';
    http.observe(
      { method: req.method, route, status_class: `${Math.floor(reply.statusCode / 100)}xx` },
      reply.elapsedTime / 1000,
    );
  });

  if (pool) {
    const connections = new Gauge({
      name: 'crm_db_pool_connections',
      help: 'PostgreSQL pool connections: total, idle, and callers waiting for one',
      labelNames: ['state'],
      registers: [registry],
      collect: () => {
        const p = pool();
        connections.set({ state: 'total' }, p.total);
        connections.set({ state: 'idle' }, p.idle);
        connections.set({ state: 'waiting' }, p.waiting);
      },
    });
  }
};

/**
 * The gauges of the figure sources, and the refresh a scrape awaits before rendering (prom-client
 * collects its metrics in parallel: a gauge filled by another's collect could be one scrape late).
 * A failing source leaves its gauges empty for that scrape; the scrape still answers.
 */
export const registerFigures = (app: FastifyInstance, registry: Registry, sources: FigureSource[]) => {
  const filled = sources.map((source) => ({
    source,
    gauges: new Map(
      source.gauges.map((g) => [
        g.name,
        new Gauge({ name: g.name, help: g.help, labelNames: g.labelNames, registers: [registry] }),
      ]),
    ),
  }));
  return async () => {
    await Promise.all(
      filled.map(async ({ source, gauges }) => {
        for (const g of gauges.values()) g.reset();
        try {
          for (const s of await source.read()) gauges.get(s.gauge)?.set(s.labels, s.value);
        } catch (err) {
          app.log.warn({ err, gauges: [...gauges.keys()] }, 'metrics figures failed');
        }
      }),
    );
  };
};
