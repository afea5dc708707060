import { CALLTASK_MODE, HANGUP_CAUSE, HANGUP_SIDE, isInTaskWindow } from '@crm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { now } from '../../lib/clock';
import type { DomainEvent } from '../../lib/events/events';
import { publishedFlow } from '../aibot/aibot.service';
import type { CallRuntime } from '../calls/call-bus';
import { hangupLeg } from '../calls/call-control';
import { settleEnded } from '../calltasks/calltasks-outcome';
import { publishTaskProgress } from '../calltasks/calltasks-progress';
import { handleServerRefusal } from '../calltasks/calltasks-refusals';
import { agentIdsOf, claimNumbers, findTask, runningTasksOf, type TaskRow } from '../calltasks/task-core';
import { placeNumberLeg } from '../calltasks/task-legs';
import type { SpeechKit } from '../speech/speech';
import { applyCrmEffects } from './aicall-crm';
import type { AiRunnerState, BotLeg, LegEventLike } from './aicall-runner-state';
import { linkAiCallCustomer, saveAiCall, saveNotConnected } from './aicall-store';
import { linesOf } from './aicall-tasks.service';
import { botVarsOf } from './aicall-vars';
import { runBotCall } from './bot/bot-call';

// The AI task runner's tick (issue 16; jobs/aicall-runner.ts, once per cluster each second): the
// task calls that ended are settled by the seat tasks' outcome rules (connected → done; not
// connected → redial after the task's minutes while attempts remain, the last one → the task's
// pool), then each running AI task inside its calling window gets bot legs for its next due numbers
// (claimed SKIP LOCKED) up to its line limit: lines in use are the task's bot legs not ended,
// counted from their rows, so a task never holds more than maxLines. Each leg passes call
// control's dial policy (hours, caps, 禁拨, blacklist; refusals: calltasks-refusals.ts). An answered
// leg runs the bot (E1's runBotCall) on the flow's version published at that moment; its result is
// stored (saveAiCall) and goes into the CRM (aicall-crm.ts; the customer it finds or makes is
// linked to the AI call). A leg that ends unanswered is stored
// as not connected (grade E). Progress goes out as msg_type 7 to the creator and the agents.

export type AiDeps = {
  rt: CallRuntime;
  kit: SpeechKit;
  state: AiRunnerState;
  log: FastifyBaseLogger;
};

const progress = (d: AiDeps, tenantId: number, taskId: number) =>
  publishTaskProgress(d.rt, tenantId, taskId).catch((err) => d.log.error({ err }, 'AI task progress failed'));

/**
 * A leg the line failed on our side (the system ended it: it could not be placed, or its instance
 * died): a system failure, not the number's answer (issue 22).
 */
const isLineFailure = (side: number | undefined, cause: string) =>
  side === HANGUP_SIDE.system && (cause === HANGUP_CAUSE.unreachable || cause === HANGUP_CAUSE.instanceRestart);

/** What an AI call of a task stores of its leg (source 1: a task's call), on the flow version it walked. */
const taskCallOf = (leg: BotLeg, flowVersion: number) => ({
  taskId: leg.taskId,
  numberId: leg.numberId,
  customerId: leg.customerId,
  callUuid: leg.callUuid,
  source: 1 as const,
  flowId: leg.flowId,
  flowVersion,
  startedAt: leg.startedAt,
});

/** An unanswered bot leg: stored with grade E, or as 系统异常 when the line failed (its number follows the outcome rules when settled). */
const notConnected = async (d: AiDeps, leg: BotLeg, cause: string, side?: number) => {
  const flow = await publishedFlow(d.rt.db, leg.tenantId, leg.flowId);
  await saveNotConnected(d.rt, {
    ...taskCallOf(leg, flow?.version ?? 0),
    cause,
    isSystemFailure: isLineFailure(side, cause),
  });
};

/** An answered bot leg: the bot works the flow's published version; the result is stored and goes into the CRM. */
const botCall = async (d: AiDeps, leg: BotLeg) => {
  const { rt } = d;
  const flow = await publishedFlow(rt.db, leg.tenantId, leg.flowId);
  if (!flow) {
    // the flow was deleted or unpublished meanwhile: nothing to say
    await hangupLeg(rt, leg.legId, HANGUP_SIDE.system, HANGUP_CAUSE.normal);
    return;
  }
  const task = await findTask(rt.db, leg.tenantId, leg.taskId);
  const agents = await agentIdsOf(rt.db, leg.taskId);
  const vars = await botVarsOf(rt.db, leg.tenantId, leg.customerId);
  const result = await runBotCall({
    rt,
    kit: d.kit,
    tenantId: leg.tenantId,
    legId: leg.legId,
    callUuid: leg.callUuid,
    flowId: leg.flowId,
    flowVersion: flow.version,
    graph: flow.graph,
    vars,
    agents,
    source: 1,
  });
  const aiCallId = await saveAiCall(rt, { ...taskCallOf(leg, flow.version), result });
  if (!task) return;
  const customerId = await applyCrmEffects(rt.db, task, { numberId: leg.numberId, aiCallId, result });
  // a customer the CRM step made (or found for the number since the call began): the call names him
  if (customerId && customerId !== leg.customerId) await linkAiCallCustomer(rt, leg.tenantId, aiCallId, customerId);
};

/** What a placed leg does on its events: answered → the bot; ended unanswered → not connected. */
export const onBotLegEvent = async (d: AiDeps, e: LegEventLike) => {
  const p = e.payload;
  if (p.role !== 'bot') return;
  const leg = d.state.legs.get(p.legId);
  if (!leg) {
    if (p.kind === 'answered' || p.kind === 'ended') {
      d.state.early.set(p.legId, [...(d.state.early.get(p.legId) ?? []), e]);
      setTimeout(() => d.state.early.delete(p.legId), 5_000).unref();
    }
    return;
  }
  if (p.kind === 'answered' && !leg.isAnswered && !leg.isDone) {
    leg.isAnswered = true;
    d.state.track(
      botCall(d, leg)
        .catch((err) => d.log.error({ err, callUuid: leg.callUuid }, 'AI call failed'))
        .finally(() => {
          d.state.legs.delete(leg.legId);
          void progress(d, leg.tenantId, leg.taskId);
        }),
    );
    return;
  }
  if (p.kind === 'ended' && !leg.isAnswered && !leg.isDone) {
    leg.isDone = true;
    d.state.legs.delete(leg.legId);
    const cause = (p as { cause?: string }).cause ?? '';
    d.state.track(
      notConnected(d, leg, cause, (p as { side?: number }).side)
        .catch((err) => d.log.error({ err, callUuid: leg.callUuid }, 'AI call not saved'))
        .finally(() => void progress(d, leg.tenantId, leg.taskId)),
    );
  }
};

const registerLeg = async (d: AiDeps, leg: BotLeg) => {
  d.state.legs.set(leg.legId, leg);
  const early = d.state.early.get(leg.legId) ?? [];
  d.state.early.delete(leg.legId);
  for (const e of early) await onBotLegEvent(d, e);
};

/** Places bot legs for one running AI task up to its line limit; resolves to how many were placed. */
export const dialTask = async (d: AiDeps, task: TaskRow) => {
  const at = now();
  if (!isInTaskWindow(task.weeks, task.times, at)) return 0;
  // no speech (the synthesizer cannot run here): the task waits instead of using up its numbers
  if (!d.kit.synthesizer.isAvailable) return 0;
  // a flow unpublished or deleted meanwhile: the task waits (its numbers stay due)
  if (!(await publishedFlow(d.rt.db, task.tenantId, task.flowId))) return 0;
  const room = task.maxLines - (await linesOf(d.rt.db, task.tenantId, task.id));
  if (room <= 0) return 0;
  let placed = 0;
  for (const n of await claimNumbers(d.rt.db, task.tenantId, task.id, room, at)) {
    try {
      const leg = await placeNumberLeg(d.rt, task, n, 'bot');
      await registerLeg(d, {
        legId: leg.legId,
        callUuid: leg.callUuid,
        tenantId: task.tenantId,
        taskId: task.id,
        numberId: n.id,
        customerId: leg.customerId,
        flowId: task.flowId,
        startedAt: at,
        isAnswered: false,
        isDone: false,
      });
      placed++;
    } catch (err) {
      await handleServerRefusal(d.rt, task, n.id, err);
    }
  }
  return placed;
};

/** One tick: settle the task calls that ended, then place bot legs for every running AI task. */
export const runAiTick = async (d: AiDeps) => {
  const changed = await settleEnded(d.rt.db);
  for (const task of await runningTasksOf(d.rt.db, CALLTASK_MODE.ai)) {
    if ((await dialTask(d, task)) > 0) changed.set(task.id, task.tenantId);
  }
  for (const [taskId, tenantId] of changed) await progress(d, tenantId, taskId);
  return changed;
};

export type LegEvent = DomainEvent<'call.leg'>;
