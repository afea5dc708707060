import {
  CALLTASK_STATUS,
  type CalltaskOutcomeBody,
  DISCARD_OTHER,
  HANGUP_CAUSE,
  TASK_MAKES_CUSTOMERS,
  TASK_NUMBER_STATE,
  TASK_OUTCOME,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { deliver, publish } from '../../lib/events/events';
import { discardForTask } from '../pools/pool-moves.service';
import { reasonName } from '../pools/pools-for-tasks';
import * as repo from './calltasks.repo';
import { requireAgentTask } from './calltasks.service';
import { adoptNumber } from './calltasks-adopt';
import * as runner from './calltasks-runner.repo';
import { isOpen } from './task-core';

// What a task call's end and the agent's outcome do to its number (issue 15): connected → done;
// 空号 (the line's empty_number, or the agent's 空号/停机) → invalid, never dialled again; not
// connected → again after the task's redial minutes while attempts remain, else failed and the
// customer goes to the task's pool with its reason; 拒绝 → done, and the `call.task.refused` event
// for the 禁拨 list. A call the server's death cut (instance_restart, call-instances.ts) gives its
// number back without counting the attempt.

const { pending, done, failed, invalid } = TASK_NUMBER_STATE;
const MINUTE_MS = 60_000;
/** A number taken for a dial that never got its call is given back after this long. */
const STALE_CLAIM_MS = 2 * MINUTE_MS;

export const TASK_FAIL_REASON = '任务外呼未接通';

const dateOf = (v: Date | string | null) => (v ? new Date(v) : now());

/** Completes a running or paused task whose numbers are all settled. */
export const completeIfDone = async (tx: DbOrTx, task: repo.TaskRow, at: Date) => {
  if (!isOpen(task.status) || (await repo.hasNumbersLeft(tx, task.id))) return false;
  await repo.updateTask(tx, task.tenantId, task.id, { status: CALLTASK_STATUS.completed, completedAt: at });
  await repo.stopWorkers(tx, task.tenantId, task.id);
  return true;
};

const failReasonOf = async (tx: DbOrTx, task: repo.TaskRow) => {
  if (task.failReasonId === DISCARD_OTHER) return TASK_FAIL_REASON;
  return (await reasonName(tx, task.tenantId, task.failReasonId)) ?? TASK_FAIL_REASON;
};

/** Settles one number whose call ended. Returns the task id when something changed. */
const settleOne = async (db: Db, s: runner.Settleable): Promise<number | undefined> => {
  const result = await db.transaction(async (tx) => {
    const n = await runner.lockNumber(tx, Number(s.tenant_id), Number(s.id));
    if (n?.state !== TASK_NUMBER_STATE.dialling) return undefined;
    const task = await repo.findTask(tx, n.tenantId, n.taskId);
    const at = now();
    if (!task) {
      await runner.updateNumber(tx, n.tenantId, n.id, { state: failed, updatedAt: at });
      return undefined;
    }
    if (s.uuid === null) {
      // the dial never happened: the attempt does not count
      await runner.updateNumber(tx, n.tenantId, n.id, { state: pending, attempts: Math.max(0, n.attempts - 1), updatedAt: at });
      return { taskId: task.id, eventId: null, adoptBy: null };
    }
    const endAt = dateOf(s.end_at);
    const cause = s.hangup_cause ?? '';
    const isAnswered = s.answer_at !== null;
    let eventId: number | null = null;
    let state: number = done;
    let nextAt: Date | null = null;
    let attempts = n.attempts;
    if (n.outcome === TASK_OUTCOME.invalid || cause === HANGUP_CAUSE.emptyNumber) state = invalid;
    else if (cause === HANGUP_CAUSE.instanceRestart && !n.outcome) {
      // the server died under the call (issue 22): not the number's attempt; a customer who was
      // talking is called again after the redial minutes, one who was not yet reached at once
      state = pending;
      attempts = Math.max(0, n.attempts - 1);
      nextAt = new Date(endAt.getTime() + (isAnswered ? task.redialMinutes * MINUTE_MS : 0));
    } else if (isAnswered || n.outcome === TASK_OUTCOME.refused || n.outcome === TASK_OUTCOME.connected) state = done;
    else if (n.attempts < task.maxAttempts) {
      state = pending;
      nextAt = new Date(endAt.getTime() + task.redialMinutes * MINUTE_MS);
    } else {
      state = failed;
      if (task.failPoolId && n.customerId) {
        eventId = await discardForTask(tx, {
          tenantId: task.tenantId,
          customerIds: [n.customerId],
          poolId: task.failPoolId,
          reasonId: task.failReasonId,
          reason: await failReasonOf(tx, task),
          staffId: n.staffId ?? 0,
          at,
        });
      }
    }
    await runner.updateNumber(tx, n.tenantId, n.id, { state, nextAt, attempts, lastCode: cause, updatedAt: at });
    if (n.staffId !== null) {
      await runner.setAgentEnded(
        tx,
        task.tenantId,
        task.id,
        n.staffId,
        endAt,
        new Date(endAt.getTime() + task.wrapUpSeconds * 1000),
      );
    }
    await completeIfDone(tx, task, at);
    // customerInfoState 1: the agent who reached a number without a customer gets it as his customer
    const adoptBy =
      isAnswered && state !== pending && !n.customerId && task.customerInfoState === TASK_MAKES_CUSTOMERS ? n.staffId : null;
    return { taskId: task.id, eventId, adoptBy };
  });
  if (result?.eventId) await deliver(db, [result.eventId]);
  if (result?.adoptBy) await adoptNumber(db, { tenantId: Number(s.tenant_id), numberId: Number(s.id), staffId: result.adoptBy });
  return result?.taskId;
};

/** Settles the task calls that ended; returns the tasks that changed (task id → company). */
export const settleEnded = async (db: Db): Promise<Map<number, number>> => {
  const changed = new Map<number, number>();
  const rows = await runner.settleable(db, new Date(now().getTime() - STALE_CLAIM_MS), 500);
  for (const s of rows) {
    const id = await settleOne(db, s);
    if (id !== undefined) changed.set(id, Number(s.tenant_id));
  }
  return changed;
};

/** outcome: the agent's result of his task call (接通, 拒绝, 空号/停机, 稍后再拨). */
export const recordOutcome = async (db: Db, actor: Actor, body: CalltaskOutcomeBody): Promise<number> => {
  const task = await requireAgentTask(db, actor, body.cmStid);
  const found = await runner.numberOfCall(db, task.id, actor.staffId, body.uuid);
  if (!found) throw new AppError('CALLTASK_CALL_NOT_FOUND');
  const at = now();
  const eventId = await db.transaction(async (tx) => {
    const n = await runner.lockNumber(tx, task.tenantId, found.id);
    const isSettled = n.state !== TASK_NUMBER_STATE.dialling;
    const patch: Parameters<typeof runner.updateNumber>[3] = { outcome: body.outcome, updatedAt: at };
    // a settled number follows the outcome at once; one still in its call when the call is settled
    if (body.outcome === TASK_OUTCOME.invalid && isSettled) Object.assign(patch, { state: invalid, nextAt: null });
    if (body.outcome === TASK_OUTCOME.refused && isSettled && n.state === pending) {
      Object.assign(patch, { state: done, nextAt: null });
    }
    if (body.outcome === TASK_OUTCOME.later && isSettled && n.state !== pending && n.attempts < task.maxAttempts) {
      Object.assign(patch, { state: pending, nextAt: new Date(at.getTime() + task.redialMinutes * MINUTE_MS) });
    }
    await runner.updateNumber(tx, task.tenantId, n.id, patch);
    const fresh = await repo.findTask(tx, task.tenantId, task.id);
    if (fresh) await completeIfDone(tx, fresh, at);
    if (body.outcome === TASK_OUTCOME.refused && n.outcome !== TASK_OUTCOME.refused) {
      return publish(tx, task.tenantId, 'call.task.refused', {
        taskId: task.id,
        taskName: task.name,
        numberId: n.id,
        phone: n.phone,
        customerId: n.customerId ?? 0,
        staffId: actor.staffId,
        callUuid: body.uuid,
        at: at.toISOString(),
      });
    }
    return null;
  });
  if (eventId !== null) await deliver(db, [eventId]);
  return task.id;
};
