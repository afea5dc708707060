import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { scheduleGroupcallRunner } from '../../jobs/groupcall-runner';
import { now } from '../../lib/clock';
import { onEvent } from '../../lib/events/events';
import { findSpeech } from '../../telephony/tts';
import { groupcallRoutes } from './groupcall.routes';
import { publishBoard } from './groupcall-board';
import { abandonPrompt, type GroupDeps, onLegEvent } from './groupcall-connect';
import { dialerFigures } from './groupcall-metrics';
import { GroupDialerState } from './groupcall-state';

/**
 * Group calling (人工群呼, issue 15): the routes, the dialer's tick and its view of the leg events,
 * on the calls runtime (registered after the calls plugin).
 */
export const groupcallPlugin = fp(async (app: FastifyInstance) => {
  const rt = app.calls;
  const state = new GroupDialerState();
  app.addMetricSource(dialerFigures(state, () => now().getTime()));
  const speech = await findSpeech(app.config.tts);
  // the abandon message made now, not at the first abandoned customer (a cold synthesis takes up to a second)
  if (speech.isAvailable) void abandonPrompt(speech);
  const publish = (tenantId: number, taskId: number) =>
    publishBoard(rt, state, tenantId, taskId).catch((err) => app.log.error({ err }, 'group call board failed'));
  const deps: GroupDeps = { rt, speech, state, onChange: (leg) => void publish(leg.tenantId, leg.taskId) };
  onEvent('call.leg', 'groupcall', async (_tx, e) => {
    // after the event's transaction: the dialer reads and moves legs of its own
    setImmediate(() => void onLegEvent(deps, e).catch((err) => app.log.error({ err }, 'group call leg event failed')));
  });
  await app.register(groupcallRoutes(rt, state));
  const stop = await scheduleGroupcallRunner(app.queue, deps, app.log, async (changed) => {
    for (const [taskId, tenantId] of changed) await publish(tenantId, taskId);
  });
  app.addHook('onClose', async () => stop());
});
