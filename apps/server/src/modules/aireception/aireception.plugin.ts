import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { aicallCallsRoutes } from '../aicall/aicall-calls.routes';
import { createSpeech } from '../speech/speech';
import { aireceptionRoutes } from './aireception.routes';
import { createReception } from './aireception-inbound';

/**
 * AI calls and AI接待 (issue 16): the AI call lists and detail, the reception numbers, and the
 * inbound route that lets the bot answer them (registered after the calls plugin).
 * `app.aireception` lets tests wait for the reception calls in progress.
 */
export const aireceptionPlugin = fp(async (app: FastifyInstance) => {
  const rt = app.calls;
  const kit = await createSpeech(app.config);
  if (!kit.synthesizer.isAvailable)
    app.log.warn('speech synthesis unavailable: AI接待 takes no calls, AI外呼 tasks do not start');
  const reception = createReception({ rt, kit, log: app.log });
  reception.start();
  app.decorate('aireception', reception);
  await app.register(aicallCallsRoutes(rt));
  await app.register(aireceptionRoutes(rt, kit));
  app.addHook('onClose', async () => {
    reception.stop();
    await reception.settled();
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    aireception: ReturnType<typeof createReception>;
  }
}
