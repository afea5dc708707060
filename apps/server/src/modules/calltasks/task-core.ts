import { CALLTASK_STATUS, type CalltaskListBody } from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { scopeStaffIds } from '../staff/staff.service';
import * as repo from './calltasks.repo';
import * as runner from './calltasks-runner.repo';

// The task core (issues 15, 16): what every kind of call task (seat, group, AI: one task table, told
// apart by mode) shares — the state machine, the one list filter, the claim of due numbers, the
// numbers' and agents' rows. The kinds (modules/groupcall, modules/aicall) add their own rules on
// top and reach the task tables only through here and the calltasks services.

export type TaskRow = repo.TaskRow;
export type NumberRow = repo.NumberRow;

// ---------- the state machine ----------

const { draft, running, paused, stopped, completed } = CALLTASK_STATUS;

/** start / pause / resume / stop: which states each may leave from, and where it goes. */
export const TASK_MOVES = {
  start: { from: [draft], to: running },
  pause: { from: [running], to: paused },
  resume: { from: [paused], to: running },
  stop: { from: [draft, running, paused], to: stopped },
} as const;
export type TaskMove = keyof typeof TASK_MOVES;

/** A task that ended (completed or stopped) never moves again. */
export const isFinished = (status: number) => status === completed || status === stopped;
/** A task that was started and did not end: its numbers may still be dialled or settled. */
export const isOpen = (status: number) => status === running || status === paused;
/** Settings may change before the start and while paused. */
export const isEditable = (status: number) => status === draft || status === paused;
/** A running task may not be deleted. */
export const isDeletable = (status: number) => status !== running;
export const isRunning = (status: number) => status === running;

/** Where `move` takes a task in `status` (CALLTASK_COMPLETED / CALLTASK_BAD_STATE when it may not). */
export const moveTarget = (status: number, move: TaskMove): number => {
  if (isFinished(status)) throw new AppError('CALLTASK_COMPLETED');
  const rule = TASK_MOVES[move];
  if (!(rule.from as readonly number[]).includes(status)) throw new AppError('CALLTASK_BAD_STATE');
  return rule.to;
};

// ---------- what the kinds use ----------

export const findTask = (db: DbOrTx, tenantId: number, id: number) => repo.findTask(db, tenantId, id);

/** The task rows (snake_case columns) of ids of the company. */
export const taskRowsByIds = (db: DbOrTx, tenantId: number, ids: number[]) => repo.tasksByIds(db, tenantId, ids);

/** The settings a kind adds to a task (its mode, line limit, abandon target, flow, grades). */
export type KindSettings = Partial<
  Pick<repo.TaskInsert, 'mode' | 'maxLines' | 'abandonTarget' | 'flowId' | 'assignGrades' | 'assignRule'>
>;

export const setKindSettings = (tx: DbOrTx, tenantId: number, id: number, values: KindSettings) =>
  repo.updateTask(tx, tenantId, id, values);

/** The running tasks of one kind (every company): what the kind's runner dials each tick. */
export const runningTasksOf = (db: DbOrTx, mode: number) => repo.runningTasksOf(db, mode);

/** One page of a kind's task list for the caller (the one list filter), newest first, and the count. */
export const listTaskIds = async (db: Db, actor: Actor, f: CalltaskListBody, mode: number) => {
  const scope = await scopeStaffIds(db, actor);
  const where = repo.taskListWhere(actor.tenantId, {
    scope,
    staffId: actor.staffId,
    isMine: f.isMine === 1,
    name: f.name,
    status: f.status,
    mode,
  });
  const [rows, count] = await Promise.all([
    repo.listTasks(db, where, f.limit, (f.page - 1) * f.limit),
    repo.countTasks(db, where),
  ]);
  return { ids: rows.map((r) => Number(r.id)), count };
};

/** Takes up to `n` due numbers of the task for legs the server places (group and AI tasks). */
export const claimNumbers = (db: Db, tenantId: number, taskId: number, n: number, at: Date) =>
  db.transaction((tx) => runner.claimNumbers(tx, tenantId, taskId, n, at));

export const numberById = (db: DbOrTx, tenantId: number, id: number) => runner.numberById(db, tenantId, id);

/** The staff ids of the task's agents. */
export const agentIdsOf = async (db: DbOrTx, taskId: number) =>
  (await repo.agentsOf(db, [taskId])).map((a) => Number(a.staff_id));

/** The task's agents with their work mode (call-presence.ts), next dial and last call's end; the longest idle first. */
export const agentStatesOf = (db: DbOrTx, tenantId: number, taskId: number) => repo.agentStatesOf(db, tenantId, taskId);

/** Who hears of a task's changes: its agents and its creator. */
export const taskAudience = (db: DbOrTx, taskId: number) => repo.taskAudience(db, taskId);

/** The next agent in turn of the task (the cursor moves by one). */
export const takeAssignTurn = (db: DbOrTx, tenantId: number, taskId: number) => repo.takeAssignTurn(db, tenantId, taskId);

/**
 * The customer of a task number: the one it has, or one `make` creates for its phone (in the same
 * transaction, the number locked, so two calls never make two). Undefined when there is no such
 * number; a refusal of `make` (an AppError: his limit …) rejects and leaves the number as it was.
 */
export const customerForNumber = (
  db: Db,
  tenantId: number,
  numberId: number,
  make: (tx: DbOrTx, phone: string) => Promise<number>,
): Promise<{ id: number; isNew: boolean } | undefined> =>
  db.transaction(async (tx) => {
    const n = await runner.lockNumber(tx, tenantId, numberId);
    if (!n) return undefined;
    if (n.customerId) return { id: n.customerId, isNew: false };
    const id = await make(tx, n.phone);
    await runner.updateNumber(tx, tenantId, n.id, { customerId: id });
    return { id, isNew: true };
  });
