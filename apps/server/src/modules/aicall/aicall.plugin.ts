import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { scheduleAicallRunner } from '../../jobs/aicall-runner';
import { onEvent } from '../../lib/events/events';
import { createSpeech } from '../speech/speech';
import { aicallRoutes } from './aicall.routes';
import { type AiDeps, onBotLegEvent } from './aicall-runner';
import { AiRunnerState } from './aicall-runner-state';

/**
 * AI外呼 tasks (issue 16): the task routes, the runner's tick and its view of the bot legs' events,
 * on the calls runtime (registered after the calls plugin). `app.aicallRunner` lets tests wait for
 * the bot calls in progress.
 */
export const aicallPlugin = fp(async (app: FastifyInstance) => {
  const rt = app.calls;
  const deps: AiDeps = { rt, kit: await createSpeech(app.config), state: new AiRunnerState(), log: app.log };
  onEvent('call.leg', 'aicall-runner', async (_tx, e) => {
    // after the event's transaction: the runner reads and moves legs of its own
    if (e.payload.role !== 'bot') return;
    setImmediate(() => void onBotLegEvent(deps, e).catch((err) => app.log.error({ err }, 'AI call leg event failed')));
  });
  app.decorate('aicallRunner', deps);
  await app.register(aicallRoutes(rt, deps.kit));
  const stop = await scheduleAicallRunner(app.queue, deps, app.log);
  app.addHook('onClose', async () => {
    stop();
    // the calls in progress store their results (a call the line keeps going is left after 5 s)
    await deps.state.settled(5_000);
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    aicallRunner: AiDeps;
  }
}
