import type { FastifyBaseLogger } from 'fastify';
import { now } from '../../lib/clock';
import { onEvent } from '../../lib/events/events';
import { publishedFlow } from '../aibot/aibot.service';
import { saveAiCall } from '../aicall/aicall-store';
import { botVarsOf } from '../aicall/aicall-vars';
import { runBotCall } from '../aicall/bot/bot-call';
import type { CallRuntime } from '../calls/call-bus';
import { answerLeg, setInboundRoute } from '../calls/call-control';
import { callRecordOf, legOf } from '../calls/calls-for-aicall';
import type { SpeechKit } from '../speech/speech';
import * as repo from './aireception.repo';
import { isInHours } from './aireception.service';
import { messageNotice, notifyMessage } from './aireception-notice';

// AI接待's inbound route (issue 16): a trunk call offered to the app for a number configured,
// enabled and within its hours (Beijing time) with a published flow is taken by that company; once
// its leg is recorded (the call.leg 'offered' event) the bot answers it, works the flow's published
// version with the caller matched to a customer by number ({客户名称}), and the call is stored as an
// AI call of source 2. Any other call keeps the inbound behaviour of call control (refused).

type Accepted = { setting: repo.ReceptionRow; flow: NonNullable<Awaited<ReturnType<typeof publishedFlow>>> };

export type ReceptionDeps = { rt: CallRuntime; kit: SpeechKit; log: FastifyBaseLogger };

export const createReception = (d: ReceptionDeps) => {
  const accepted = new Map<string, Accepted>();
  const running = new Set<Promise<unknown>>();

  const answer = async (legId: string, a: Accepted) => {
    const { rt } = d;
    const leg = await legOf(rt.db, legId);
    if (!leg) return;
    const startedAt = now();
    await answerLeg(rt, legId);
    const call = await callRecordOf(rt.db, leg.callUuid);
    const customerId = call?.customerId ?? null;
    const s = a.setting;
    const result = await runBotCall({
      rt,
      kit: d.kit,
      tenantId: s.tenantId,
      legId,
      callUuid: leg.callUuid,
      flowId: s.flowId,
      flowVersion: a.flow.version,
      graph: a.flow.graph,
      vars: { ...(await botVarsOf(rt.db, s.tenantId, customerId)), 坐席姓名: '智能客服' },
      agents: s.agentIds,
      source: 2,
    });
    const aiCallId = await saveAiCall(rt, {
      tenantId: s.tenantId,
      taskId: 0,
      numberId: 0,
      customerId,
      callUuid: leg.callUuid,
      source: 2,
      flowId: s.flowId,
      flowVersion: a.flow.version,
      startedAt,
      result,
      receptionId: s.id,
      staffIds: s.agentIds,
    });
    if (result.end === 'message') {
      const caller = call?.calledNumber ?? '';
      await notifyMessage(rt, s.agentIds, messageNotice(aiCallId, s.number, caller, result));
    }
  };

  const start = () => {
    setInboundRoute(d.rt, async ({ to, legId }) => {
      // a bot that cannot speak answers no one: the call is refused as for a number not configured
      if (!d.kit.synthesizer.isAvailable) return undefined;
      const setting = await repo.findByNumber(d.rt.db, to.replace(/\D/g, ''));
      if (setting?.isEnabled !== 1 || !isInHours(setting.fromTime, setting.toTime, now())) return undefined;
      const flow = await publishedFlow(d.rt.db, setting.tenantId, setting.flowId);
      if (!flow) return undefined;
      accepted.set(legId, { setting, flow });
      setTimeout(() => accepted.delete(legId), 60_000).unref();
      return { tenantId: setting.tenantId };
    });
    onEvent('call.leg', 'aireception', async (_tx, e) => {
      if (e.payload.kind !== 'offered') return;
      const a = accepted.get(e.payload.legId);
      if (!a) return;
      accepted.delete(e.payload.legId);
      // after the event's transaction: the bot answers and moves the leg itself
      setImmediate(() => {
        const run = answer(e.payload.legId, a)
          .catch((err) => d.log.error({ err }, 'AI reception call failed'))
          .finally(() => running.delete(run));
        running.add(run);
      });
    });
  };

  return {
    start,
    stop: () => setInboundRoute(d.rt, undefined),
    /** the reception calls in progress have ended and been stored */
    settled: async () => {
      while (running.size) await Promise.all([...running]);
    },
  };
};
