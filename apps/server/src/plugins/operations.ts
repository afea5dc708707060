import type { FastifyInstance } from 'fastify';
import { callFigures, lineState, pingBus } from '../modules/calls/calls-metrics';
import type { ReadinessCheck } from '../modules/health/readiness';
import { jobFigures } from '../modules/jobs/jobs.service';
import type { FigureSource } from '../modules/metrics/metrics-collectors';

/**
 * What the modules tell GET /metrics and GET /api/health/ready (issue 25), wired here so the metrics
 * and health modules import no other module. Each figure is read when asked (a scrape, a check).
 */

/** The gauges of the jobs and calls modules. */
export const metricSources = (app: FastifyInstance): FigureSource[] => [
  {
    gauges: [
      {
        name: 'crm_jobs_queue',
        help: 'Durable queue (pg-boss) jobs not finished in the cluster, by queue and state (created, retry, active)',
        labelNames: ['queue', 'state'],
      },
      {
        name: 'crm_jobs_running',
        help: 'CRM jobs (imports, exports, batch work) running in the cluster, by kind',
        labelNames: ['kind'],
      },
    ],
    read: async () => {
      const f = await jobFigures(app.db);
      return [
        ...f.queue.map((r) => ({ gauge: 'crm_jobs_queue', labels: { queue: r.queue, state: r.state }, value: r.count })),
        ...f.running.map((r) => ({ gauge: 'crm_jobs_running', labels: { kind: r.kind }, value: r.count })),
      ];
    },
  },
  {
    gauges: [
      {
        name: 'crm_calls_in_progress',
        help: 'Calls not ended in the whole cluster (the same figure on every instance), by origin and state',
        labelNames: ['origin', 'state'],
      },
      {
        name: 'crm_call_legs_in_progress',
        help: "Call legs this instance's line holds, not ended, by role and state",
        labelNames: ['role', 'state'],
      },
    ],
    read: async () => {
      const f = await callFigures(app.db, app.config.instanceId);
      return [
        ...f.calls.map((r) => ({ gauge: 'crm_calls_in_progress', labels: { origin: r.origin, state: r.state }, value: r.count })),
        ...f.legs.map((r) => ({ gauge: 'crm_call_legs_in_progress', labels: { role: r.role, state: r.state }, value: r.count })),
      ];
    },
  },
];

/** The readiness checks beyond the database: Redis when REDIS_URL is set, and the telephony line. */
export const readinessChecks = (app: FastifyInstance): ReadinessCheck[] => [
  ...(app.config.redisUrl
    ? [
        {
          name: 'redis',
          run: async () => {
            await pingBus(app.calls);
            return { ok: true, detail: '正常' };
          },
        },
      ]
    : []),
  { name: 'line', run: () => lineState(app.calls) },
];
