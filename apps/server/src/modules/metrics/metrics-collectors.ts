import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Gauge, Histogram, type Registry } from 'prom-client';
import type { Database } from '../../db/client';
import { onOpsSignal } from '../../lib/ops-signals';

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

  // the real-time parts' timings (lib/ops-signals): the bot's answer latency, the RTP clock's lateness
  const botTurn = new Histogram({
    name: 'crm_bot_turn_latency_seconds',
    help: "AI bot calls: from the end of the customer's turn to the start of the bot's answer",
    buckets: [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5],
    registers: [registry],
  });
  const rtpLate = new Histogram({
    name: 'crm_rtp_tick_lateness_seconds',
    help: 'How late each tick of the 20 ms RTP clock ran (a late tick delays every stream of the process)',
    buckets: [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.1, 0.25],
    registers: [registry],
  });
  const stopListening = onOpsSignal((signal, value) => {
    if (signal === 'bot_turn_seconds') botTurn.observe(value);
    else rtpLate.observe(value);
  });
  app.addHook('onClose', async () => stopListening());

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
 * A failing source leaves its gauges empty for that scrape; the scrape still answers. Sources may
 * be added after start-up (`add`: a module's plugin registered later, e.g. the group dialer's).
 */
export const registerFigures = (app: FastifyInstance, registry: Registry, sources: FigureSource[]) => {
  const filled: { source: FigureSource; gauges: Map<string, Gauge> }[] = [];
  const add = (source: FigureSource) => {
    filled.push({
      source,
      gauges: new Map(
        source.gauges.map((g) => [
          g.name,
          new Gauge({ name: g.name, help: g.help, labelNames: g.labelNames, registers: [registry] }),
        ]),
      ),
    });
  };
  for (const s of sources) add(s);
  const refresh = async () => {
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
  return { refresh, add };
};
