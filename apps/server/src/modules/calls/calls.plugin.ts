import { HANGUP_CAUSE, HANGUP_SIDE } from '@crm/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMemoryPubSub } from '../../lib/pubsub';
import { createRedisPubSub } from '../../lib/pubsub-redis';
import { createControlLine, createProvider } from '../../telephony';
import type { ControlEvent } from '../../telephony/control';
import type { LegEvent } from '../../telephony/provider';
import { findSpeech } from '../../telephony/tts';
import type { CallRuntime } from './call-bus';
import { executeLocal, wireCallControl } from './call-control';
import { endOrphanedLegs, handleControlEvent } from './call-control-events';
import { serveCommands } from './call-control-remote';
import { beatInstance, endWhatInstanceHeld, INSTANCE_BEAT_MS, leaveCluster, sweepDeadInstances } from './call-instances';
import { callSettingsRoutes } from './call-settings.routes';
import { registerCallSocket } from './call-socket';
import { handleLegEvent } from './call-states';
import { callsRoutes } from './calls.routes';
import { endCall, sweepCalls } from './calls-lifecycle';
import { saveSipDialog, sipLegOf } from './calls-sip';
import { wireComplianceFacts } from './compliance-facts';
import { registerDeviceSocket } from './device-socket';
import { setCreditHangup } from './dial-credit';
import { registerTelephonyInternal } from './telephony-internal.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** the calls runtime: telephony line, pub/sub (tests reach the sweep through it) */
    calls: CallRuntime;
  }
}

/** How often calls past the set-up timeout are looked for. */
const SWEEP_EVERY_MS = 1_000;
/** The durable queue that carries the sweep (jobs/queue.ts). */
const SWEEP_QUEUE = 'calls-sweep';

/**
 * Calling (issue 6): the telephony line, the pub/sub, the HTTP routes, the call socket and
 * the device channel. Events of one call are handled in order (ringing before answered
 * before ended), each after the previous one's commit.
 */
export const callsPlugin = fp(async (app: FastifyInstance) => {
  // REDIS_URL: events cross server instances; else they stay in this process (memory://<name>:
  // instances of one process share a bus, as tests of several instances do).
  const { redisUrl } = app.config;
  const bus = redisUrl.startsWith('memory://')
    ? createMemoryPubSub(redisUrl)
    : redisUrl
      ? await createRedisPubSub(redisUrl, (err) => app.log.error({ err }, 'redis pub/sub error'))
      : createMemoryPubSub();
  const rt: CallRuntime = {
    db: app.db,
    config: app.config,
    provider: createProvider(app.config),
    bus,
    line: createControlLine(app.config, (err) => app.log.error({ err }, 'call-control line failed to start')),
    instanceId: app.config.instanceId,
    control: { sides: new Map(), pending: new Map() },
  };
  app.decorate('calls', rt);

  const chains = new Map<string, Promise<void>>();
  rt.provider.onEvent((e: LegEvent) => {
    const next = (chains.get(e.uuid) ?? Promise.resolve())
      .then(() => handleLegEvent(rt, e))
      .catch((err) => app.log.error({ err, uuid: e.uuid }, 'call event failed'));
    chains.set(e.uuid, next);
    if (e.kind === 'ended') void next.finally(() => chains.delete(e.uuid));
    return next;
  });

  // Call control (issue 12): the legs of this instance's line, events in order per leg; commands
  // for its legs from other instances; the legs its previous life held are ended.
  wireCallControl();
  setCreditHangup((rt, call) => endCall(rt, call, HANGUP_SIDE.system, HANGUP_CAUSE.creditExhausted));
  wireComplianceFacts();
  const legChains = new Map<string, Promise<void>>();
  rt.line.onControlEvent((e: ControlEvent) => {
    const next = (legChains.get(e.legId) ?? Promise.resolve())
      .then(() => handleControlEvent(rt, e))
      .catch((err) => app.log.error({ err, legId: e.legId }, 'call-control event failed'));
    legChains.set(e.legId, next);
    if (e.kind === 'ended') void next.finally(() => legChains.delete(e.legId));
    return next;
  });
  const stopCommands = await serveCommands(
    rt,
    (op, args) => executeLocal(rt, op, args),
    (err) => app.log.error({ err }, 'call-control reply failed'),
  );
  const orphans = await endOrphanedLegs(rt);
  if (orphans > 0) app.log.warn({ orphans, instanceId: rt.instanceId }, 'ended the call legs of the previous run');
  // issue 22: also the agents' calls its line held and its call sockets (a kill -9 left them "live")
  const held = await endWhatInstanceHeld(rt, rt.instanceId);
  if (held > 0) app.log.warn({ calls: held, instanceId: rt.instanceId }, 'ended the calls of the previous run');
  // alive for the cluster sweep, which ends what an instance that stays dead held
  const startedAt = new Date();
  await beatInstance(app.db, rt.instanceId, startedAt);
  const beat = setInterval(() => {
    beatInstance(app.db, rt.instanceId, startedAt).catch((err) => app.log.error({ err }, 'instance heartbeat failed'));
  }, INSTANCE_BEAT_MS);
  beat.unref();
  app.addHook('preClose', async () => {
    clearInterval(beat);
    await leaveCluster(app.db, rt.instanceId).catch((err) => app.log.error({ err }, 'leaving the cluster failed'));
  });

  // Once per cluster: every instance offers a sweep job each second, the queue keeps one per
  // second (singletonSeconds) and runs one at a time (singleton policy) on whichever instance.
  // A sweep takes well under a second; one its instance died running is failed after 10 s (plus the
  // queue's maintenance interval), so a kill -9 does not stop the sweeping for the default 15 minutes.
  await app.queue.work(SWEEP_QUEUE, { pollingIntervalSeconds: 30, policy: 'singleton', expireInSeconds: 10 }, async () => {
    await sweepCalls(rt);
    await sweepDeadInstances(rt);
  });
  const sweep = setInterval(() => {
    app.queue
      .send(SWEEP_QUEUE, {}, { singletonKey: SWEEP_QUEUE, singletonSeconds: 1, retryLimit: 0 })
      .catch((err) => app.log.error({ err }, 'call sweep failed'));
  }, SWEEP_EVERY_MS);
  sweep.unref();

  await app.register(callsRoutes(rt));
  // 线路测试's prompts: espeak-ng and sox, looked for once (optional: without them the test is refused)
  const speech = await findSpeech(app.config.tts);
  if (!speech.isAvailable) app.log.warn({ missing: speech.missing }, 'speech synthesis unavailable: 线路测试 is refused');
  await app.register(callSettingsRoutes(rt, speech));
  registerCallSocket(app, rt);
  registerDeviceSocket(app, rt);
  const { provider } = rt;
  if (provider.name === 'sip') {
    provider.useStore({
      find: (uuid) => sipLegOf(rt, uuid),
      saveDialog: (uuid, dialog) => saveSipDialog(rt, uuid, dialog),
    });
    registerTelephonyInternal(app, rt, provider);
  }

  app.addHook('onClose', async () => {
    clearInterval(sweep);
    stopCommands();
    await rt.line.close();
    rt.provider.close();
    await rt.bus.close();
  });
});
