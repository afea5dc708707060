import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { scheduleCalltaskRunner } from '../../jobs/calltask-runner';
import { registerTaskNames } from '../billing/billing-task-names';
import { calltasksRoutes } from './calltasks.routes';
import { taskRowsByIds } from './task-core';

/** Seat tasks (issue 15): the routes and the power dialer's tick, on the calls runtime (registered after the calls plugin). */
export const calltasksPlugin = fp(async (app: FastifyInstance) => {
  await app.register(calltasksRoutes(app.calls));
  // 消费明细 names a task's calls (billing sits below tasks)
  registerTaskNames(async (db, tenantId, ids) => {
    const rows = (await taskRowsByIds(db, tenantId, ids)) as unknown as { id: number; name: string }[];
    return new Map(rows.map((r) => [Number(r.id), String(r.name)]));
  });
  const stop = await scheduleCalltaskRunner(app.queue, app.calls, app.log);
  app.addHook('onClose', async () => stop());
});
