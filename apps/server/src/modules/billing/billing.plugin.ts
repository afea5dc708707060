import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerDialCreditGate } from '../calls/dial-credit';
import { billingRoutes } from './billing.routes';
import { dialCreditGate } from './billing.service';
import { billingOperatorRoutes } from './billing-operator.routes';
import { registerBillingEvents, startRating } from './billing-rating-job';

/**
 * Billing (issue 27): the 消费明细 page's routes, the operator's API, the dial policy's credit gate
 * (calls asks through calls/dial-credit.ts) and the rating of ended calls on the job queue.
 * Registered after the calls plugin (its bus tells admins of a low balance).
 */
export const billingPlugin = fp(async (app: FastifyInstance) => {
  const bus = () => app.calls?.bus;
  await app.register(billingRoutes);
  await app.register(billingOperatorRoutes(app.config.billingOperatorToken, bus));
  registerDialCreditGate(dialCreditGate);
  const kick = await startRating(app.queue, app.db, bus, app.log);
  registerBillingEvents(kick);
});
