import { CALLTASK_MODE, isInTaskWindow, TASK_BLACK_FILTER } from '@crm/contracts';
import { now } from '../../lib/clock';
import type { CallRuntime } from '../calls/call-bus';
import { taskDial } from '../calls/calls-dial';
import { staffActor } from '../staff/staff.service';
import * as repo from './calltasks.repo';
import { settleEnded } from './calltasks-outcome';
import { publishTaskProgress } from './calltasks-progress';
import { handleRefusal } from './calltasks-refusals';
import * as runner from './calltasks-runner.repo';
import { isRunning } from './task-core';

// Power dialing (issue 15, ratio 1): an agent working a running task, inside its calling days and
// time ranges (Beijing time, business clock), free and past his wrap-up, gets the task's next due
// number dialled through the normal agent dial (calls-dial.ts `taskDial`: his extension or bound
// phone, the dial policy, SPEC §5). A call's end sets his next dial at end + wrap-up (settled by
// calltasks-outcome.ts); the tick (jobs/calltask-runner.ts, once per cluster each second, and on
// `work`) settles ended calls and dials for the agents due.

type DialOutcome = 'dialled' | 'skipped' | 'none';

/** Dials the next number of the task for the agent, if he is due one. */
export const dialForAgent = async (rt: CallRuntime, taskId: number, tenantId: number, staffId: number): Promise<DialOutcome> => {
  const task = await repo.findTask(rt.db, tenantId, taskId);
  // a group task's numbers are the group dialer's (modules/groupcall)
  if (!task || !isRunning(task.status) || task.mode === CALLTASK_MODE.group) return 'none';
  const at = now();
  if (!isInTaskWindow(task.weeks, task.times, at)) return 'none';
  const actor = await staffActor(rt.db, tenantId, staffId);
  if (!actor) return 'none';
  const claimed = await rt.db.transaction(async (tx) => {
    const agent = await runner.lockAgent(tx, taskId, staffId);
    if (!agent?.is_working || (await runner.isAgentDialling(tx, taskId, staffId))) return undefined;
    return (await runner.claimNumbers(tx, tenantId, taskId, 1, at, staffId))[0];
  });
  if (!claimed) return 'none';
  try {
    const call = await taskDial(
      rt,
      actor,
      { cmStid: task.id, dstNumber: claimed.phone },
      // the call keeps the number's customer (issue 22): masked for the agent by his rule
      { isBlacklistDiscarded: task.blackState === TASK_BLACK_FILTER, taskCustomerId: claimed.customerId },
    );
    await runner.updateNumber(rt.db, tenantId, claimed.id, {
      lastCallUuid: call.uuid,
      customerId: claimed.customerId ?? call.customerId,
    });
    return 'dialled';
  } catch (err) {
    // the number's refusals settle or defer it (the next number follows), the agent's make him wait
    return handleRefusal(rt, task, claimed.id, staffId, err);
  }
};

/** Dials for one agent until a call is placed or no number is due (skipped numbers pass at once). */
export const runAgent = async (rt: CallRuntime, taskId: number, tenantId: number, staffId: number) => {
  for (let i = 0; i < 50; i++) {
    const r = await dialForAgent(rt, taskId, tenantId, staffId);
    if (r === 'skipped') await publishTaskProgress(rt, tenantId, taskId);
    if (r !== 'skipped') return r;
  }
  return 'none';
};

/** One tick: settle the task calls that ended, then dial for every agent due a call. */
export const runTick = async (rt: CallRuntime) => {
  const changed = await settleEnded(rt.db);
  const due = await runner.dueAgents(rt.db, now(), 500);
  for (const a of due) {
    const r = await runAgent(rt, Number(a.task_id), Number(a.tenant_id), Number(a.staff_id));
    if (r === 'dialled') changed.set(Number(a.task_id), Number(a.tenant_id));
  }
  for (const [taskId, tenantId] of changed) await publishTaskProgress(rt, tenantId, taskId);
  return { settled: changed.size, due: due.length };
};
