import type { Readiness } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

/** The readiness checks (issue 25): the database here, the others (Redis, the line) handed in by the app (plugins/operations.ts). */

/** A check that has not answered by then has failed (a load balancer asks every few seconds). */
const CHECK_TIMEOUT_MS = 3_000;

type Check = Readiness['checks'][number];

/** A check another module provides: resolves with its state, or throws (counted as 无法连接). */
export type ReadinessCheck = { name: string; run: () => Promise<{ ok: boolean; detail: string }> };

const timed = async (app: FastifyInstance, { name, run }: ReadinessCheck): Promise<Check> => {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ ok: boolean; detail: string }>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, detail: '超时' }), CHECK_TIMEOUT_MS);
  });
  // the reason stays in the log: the answer is public, its detail says only what failed
  const result = await Promise.race([run(), timeout])
    .catch((err) => {
      app.log.warn({ err, check: name }, 'readiness check failed');
      return { ok: false, detail: '无法连接' };
    })
    .finally(() => clearTimeout(timer));
  return { name, ...result, ms: Math.round(performance.now() - started) };
};

export const checkReadiness = async (app: FastifyInstance, others: ReadinessCheck[]): Promise<Readiness> => {
  const database: ReadinessCheck = {
    name: 'database',
    run: async () => {
      await app.db.execute(sql`select 1`);
      return { ok: true, detail: app.dbKind };
    },
  };
  const checks = await Promise.all([database, ...others].map((c) => timed(app, c)));
  return { status: checks.every((c) => c.ok) ? 'ok' : 'fail', checks };
};
