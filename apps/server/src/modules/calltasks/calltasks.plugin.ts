import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { scheduleCalltaskRunner } from '../../jobs/calltask-runner';
import { calltasksRoutes } from './calltasks.routes';

/** Seat tasks (issue 15): the routes and the power dialer's tick, on the calls runtime (registered after the calls plugin). */
export const calltasksPlugin = fp(async (app: FastifyInstance) => {
  await app.register(calltasksRoutes(app.calls));
  const stop = await scheduleCalltaskRunner(app.queue, app.calls, app.log);
  app.addHook('onClose', async () => stop());
});
