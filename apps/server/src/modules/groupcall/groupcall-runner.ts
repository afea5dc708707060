import { ERRORS, isInTaskWindow, TASK_NUMBER_STATE } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { callTaskNumbers } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { now } from '../../lib/clock';
import { originateCustomerLeg } from '../calls/call-control';
import type * as taskRepo from '../calltasks/calltasks.repo';
import { completeIfDone, settleEnded } from '../calltasks/calltasks-outcome';
import { publishTaskProgress } from '../calltasks/calltasks-progress';
import * as runner from '../calltasks/calltasks-runner.repo';
import * as repo from './groupcall.repo';
import { freeAgentsOf, type GroupDeps, registerLeg } from './groupcall-connect';

// The group dialer's tick (issue 15; jobs/groupcall-runner.ts, once per cluster each second): the
// task calls that ended are settled by the seat tasks' outcome rules (redial, attempts, pool), then
// for each running group task inside its calling window the task's Pacer says how many customers
// to dial for its free agents (never above the line limit); that many numbers are taken (SKIP
// LOCKED) and their customer legs placed through call control (the dial policy of server legs:
// hours, caps, 禁拨, blacklist). What happens once a customer answers: groupcall-connect.ts.

const { pending, dialling, skipped, invalid } = TASK_NUMBER_STATE;
const RING_SECONDS = 30;
/** a number whose dial was refused for a reason that may pass (caps, hours, the line) waits this long */
const RETRY_AFTER_MS = 60_000;
const SKIPS = new Set<number>([ERRORS.BLACKLISTED.code, ERRORS.TASK_BLACKLISTED.code, ERRORS.DNC_LISTED.code]);

/** Takes up to `n` due numbers of the task for dialling (pending, or a redial whose time came). */
const claimNumbers = (db: Db, taskId: number, n: number, at: Date) =>
  db.transaction(async (tx) => {
    const rows = await queryRows<{ id: number }>(
      tx,
      sql`select id from ${callTaskNumbers} where task_id = ${taskId} and state = ${pending}
            and (next_at is null or next_at <= ${at})
          order by next_at nulls first, seq limit ${n} for update skip locked`,
    );
    const claimed: taskRepo.NumberRow[] = [];
    for (const r of rows) {
      const [row] = await tx
        .update(callTaskNumbers)
        .set({
          state: dialling,
          attempts: sql`${callTaskNumbers.attempts} + 1`,
          staffId: null,
          lastCallUuid: null,
          updatedAt: at,
        })
        .where(sql`${callTaskNumbers.id} = ${Number(r.id)}`)
        .returning();
      claimed.push(row);
    }
    return claimed;
  });

/** A refused dial: the number is settled for good (blacklist, 禁拨, bad number) or waits and goes back. */
const refused = async (db: Db, task: taskRepo.TaskRow, numberId: number, err: unknown) => {
  const at = now();
  await db.transaction(async (tx) => {
    const n = await runner.lockNumber(tx, numberId);
    const code = err instanceof AppError ? err.code : 0;
    if (SKIPS.has(code)) {
      await runner.updateNumber(tx, n.id, {
        state: skipped,
        isBlacklisted: true,
        nextAt: null,
        lastCode: String(code),
        updatedAt: at,
      });
    } else if (code === ERRORS.DIAL_NUMBER_INVALID.code) {
      await runner.updateNumber(tx, n.id, { state: invalid, nextAt: null, lastCode: String(code), updatedAt: at });
    } else {
      const nextAt = new Date(at.getTime() + RETRY_AFTER_MS);
      await runner.updateNumber(tx, n.id, { state: pending, attempts: Math.max(0, n.attempts - 1), nextAt, updatedAt: at });
    }
    await completeIfDone(tx, task, at);
  });
};

/** Dials for one running group task; resolves to how many legs were placed. */
export const dialTask = async (d: GroupDeps, task: taskRepo.TaskRow) => {
  const at = now();
  const pacer = d.state.pacerOf(task.id, task.abandonTarget);
  if (!isInTaskWindow(task.weeks, task.times, at)) return 0;
  const agents = await repo.agentsOfTask(d.rt.db, task.tenantId, task.id);
  const free = freeAgentsOf(d, agents, at);
  const soon = agents.filter((a) => a.is_working && !a.in_call && a.next_dial_at && new Date(a.next_dial_at) > at).length;
  const lines = await repo.linesOf(d.rt.db, task.tenantId, task.id);
  const decision = pacer.decide(at.getTime(), {
    freeAgents: free.length,
    agentsSoonFree: soon,
    waiting: d.state.waitingOf(task.id),
    linesInUse: lines.lines,
    ringing: lines.ringing,
    lineLimit: task.maxLines,
  });
  const snap = pacer.snapshot(at.getTime());
  d.state.addSample(task.id, {
    at: at.getTime(),
    ratio: decision.ratio,
    abandonRate: snap.answered > 0 ? snap.abandoned / snap.answered : 0,
  });
  const room = Math.max(0, Math.min(decision.dial, task.maxLines - lines.lines));
  if (room === 0 || free.length === 0) return 0;
  let placed = 0;
  for (const n of await claimNumbers(d.rt.db, task.id, room, at)) {
    try {
      const leg = await originateCustomerLeg(d.rt, {
        tenantId: task.tenantId,
        number: n.phone,
        taskId: task.id,
        ringSeconds: RING_SECONDS,
      });
      await runner.updateNumber(d.rt.db, n.id, {
        lastCallUuid: leg.callUuid,
        customerId: n.customerId ?? (leg.customerId || null),
      });
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
      await refused(d.rt.db, task, n.id, err);
    }
  }
  return placed;
};

/** One tick: settle the task calls that ended, then dial for every running group task. */
export const runGroupTick = async (d: GroupDeps) => {
  const changed = await settleEnded(d.rt.db);
  // the settled tasks may be seat tasks (both ticks settle whatever ended first): their msg_type 7 progress
  for (const [taskId, tenantId] of changed) await publishTaskProgress(d.rt, tenantId, taskId);
  const tasks = await repo.runningGroupTasks(d.rt.db);
  const running = new Set(tasks.map((t) => t.id));
  for (const id of d.state.pacers.keys()) if (!running.has(id)) d.state.forget(id);
  for (const task of tasks) {
    await dialTask(d, task);
    changed.set(task.id, task.tenantId);
  }
  return changed;
};
