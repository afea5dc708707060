import { CALLTASK_MODE, isInTaskWindow } from '@crm/contracts';
import { now } from '../../lib/clock';
import { settleEnded } from '../calltasks/calltasks-outcome';
import { publishTaskProgress } from '../calltasks/calltasks-progress';
import { giveNumberBack, settleRefusedNumber } from '../calltasks/calltasks-refusals';
import { claimNumbers, runningTasksOf, type TaskRow } from '../calltasks/task-core';
import { placeNumberLeg } from '../calltasks/task-legs';
import { agentsOfTask, linesOf } from './groupcall-agents';
import { freeAgentsOf, type GroupDeps, registerLeg } from './groupcall-connect';
import { floorCounts, RING_LONG_MS } from './groupcall-pacing';

// The group dialer's tick (issue 15; jobs/groupcall-runner.ts, once per cluster each second): the
// task calls that ended are settled by the seat tasks' outcome rules (redial, attempts, pool), then
// for each running group task inside its calling window the task's Pacer says how many customers
// to dial for its free agents (never above the line limit); that many numbers are taken (SKIP
// LOCKED) and their customer legs placed through call control (the dial policy of server legs:
// hours, caps, 禁拨, blacklist). A refused dial goes where a seat task's goes
// (calltasks-refusals.ts): the number settled, or back until its cap frees; refused for the
// company's hours or its line, the task waits until the hours open (30 s for the line) and the
// numbers it took with it go back untouched. What happens once a customer answers:
// groupcall-connect.ts.

/** Dials for one running group task; resolves to how many legs were placed. */
export const dialTask = async (d: GroupDeps, task: TaskRow) => {
  const at = now();
  const pacer = d.state.pacerOf(task.id, task.abandonTarget);
  if (!isInTaskWindow(task.weeks, task.times, at)) return 0;
  if (d.state.isHeld(task.id, at.getTime())) return 0;
  const agents = await agentsOfTask(d.rt.db, task.tenantId, task.id);
  const free = freeAgentsOf(d, agents, at);
  const lines = await linesOf(d.rt.db, task.tenantId, task.id, new Date(at.getTime() - RING_LONG_MS));
  // the pacing (ratio 1 at the start, small-team cap, drop on abandon): groupcall-pacing.ts, calltasks/dialer
  const decision = pacer.decide(at.getTime(), floorCounts(at, task, agents, free.length, d.state.waitingOf(task.id), lines));
  const snap = pacer.snapshot(at.getTime());
  d.state.addSample(task.id, {
    at: at.getTime(),
    ratio: decision.ratio,
    abandonRate: snap.answered > 0 ? snap.abandoned / snap.answered : 0,
  });
  const room = Math.max(0, Math.min(decision.dial, task.maxLines - lines.lines));
  if (room === 0 || free.length === 0) return 0;
  let placed = 0;
  const claimed = await claimNumbers(d.rt.db, task.tenantId, task.id, room, at);
  for (const [i, n] of claimed.entries()) {
    try {
      const leg = await placeNumberLeg(d.rt, task, n, 'customer');
      await registerLeg(d, {
        legId: leg.legId,
        callUuid: leg.callUuid,
        taskId: task.id,
        tenantId: task.tenantId,
        numberId: n.id,
        answeredReal: null,
        answeredAt: null,
        staffId: null,
        isConnected: false,
        isAbandoned: false,
      });
      placed++;
    } catch (err) {
      const { retryAt } = await settleRefusedNumber(d.rt, task, n.id, err);
      if (retryAt === null) continue;
      d.state.hold(task.id, retryAt.getTime());
      for (const rest of claimed.slice(i + 1)) await giveNumberBack(d.rt.db, task.tenantId, rest.id, null, null, at);
      break;
    }
  }
  return placed;
};

/** One tick: settle the task calls that ended, then dial for every running group task. */
export const runGroupTick = async (d: GroupDeps) => {
  const changed = await settleEnded(d.rt.db);
  // the settled tasks may be seat tasks (both ticks settle whatever ended first): their msg_type 7 progress
  for (const [taskId, tenantId] of changed) await publishTaskProgress(d.rt, tenantId, taskId);
  const tasks = await runningTasksOf(d.rt.db, CALLTASK_MODE.group);
  const running = new Set(tasks.map((t) => t.id));
  for (const id of d.state.pacers.keys()) if (!running.has(id)) d.state.forget(id);
  for (const task of tasks) {
    await dialTask(d, task);
    changed.set(task.id, task.tenantId);
  }
  return changed;
};
