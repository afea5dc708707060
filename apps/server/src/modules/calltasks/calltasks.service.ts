import {
  CALLTASK_LIMITS,
  CALLTASK_STATUS,
  type CalltaskCreateBody,
  type CalltaskEditBody,
  DISCARD_OTHER,
  type ErrorKey,
  rangesInsideHours,
  type TimeRange,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, asAppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { liveSocketOf } from '../calls/call-presence';
import { callSettingsOf } from '../calls/dial-policy';
import { requireEnabledReason, requireUsablePool } from '../pools/pools.service';
import { scopeStaffIds } from '../staff/staff.service';
import { activeStaffIds } from '../staff/staff-lookup';
import { readNumberFileTokens } from '../uploads/number-file';
import * as repo from './calltasks.repo';
import { importNumbers } from './calltasks-import';
import { ofMode } from './calltasks-lists';
import { isDeletable, isEditable, isRunning, moveTarget, type TaskMove } from './task-core';

// Seat tasks (issue 15): create, edit and delete, and the lifecycle (start, pause, resume, stop).
// An agent starts and stops working a task (work / unwork); the runner (calltasks-runner.ts) dials.

const { running } = CALLTASK_STATUS;

/** The agents must be active staff of the company in the caller's data scope. */
const checkAgents = async (db: Db, actor: Actor, ids: number[]) => {
  const unique = [...new Set(ids)];
  const scope = await scopeStaffIds(db, actor);
  const active = await activeStaffIds(db, actor.tenantId, unique);
  const isValid = active.length === unique.length && (scope === null || unique.every((id) => scope.includes(id)));
  if (!isValid) throw new AppError('CALLTASK_AGENT_INVALID');
  return unique;
};

/** The pool and reason of the "not connected after the last attempt" rule: both or neither. */
const checkFailRule = async (db: Db, actor: Actor, body: { failPoolId: number; failReasonId: number }) => {
  if (body.failPoolId === 0) return;
  const check = async () => {
    await requireUsablePool(db, actor, body.failPoolId);
    if (body.failReasonId !== DISCARD_OTHER) await requireEnabledReason(db, actor.tenantId, body.failReasonId);
  };
  await check().catch(asAppError('CALLTASK_POOL_INVALID'));
};

/** The task's time ranges must lie inside the company's calling hours (外呼设置). */
const checkCompanyHours = async (db: DbOrTx, tenantId: number, times: TimeRange[]) => {
  const { callHours } = await callSettingsOf(db, tenantId);
  if (rangesInsideHours(times, callHours)) return;
  const msg = new AppError('CALLTASK_OUTSIDE_HOURS').message.replace('{from}', callHours.from).replace('{to}', callHours.to);
  throw new AppError('CALLTASK_OUTSIDE_HOURS', msg, { callHours });
};

/** The company's calling hours, for the task form's hint. */
export const companyHours = async (db: Db, actor: Actor) => (await callSettingsOf(db, actor.tenantId)).callHours;

const settingsOf = (body: CalltaskEditBody | CalltaskCreateBody) => ({
  name: body.name,
  weeks: [...body.cmWeeks].sort(),
  times: body.cmTimes,
  redialMinutes: body.redialMinutes,
  maxAttempts: body.maxAttempts,
  wrapUpSeconds: body.wrapUpSeconds,
  failPoolId: body.failPoolId,
  failReasonId: body.failPoolId === 0 ? 0 : body.failReasonId,
});

/** calltask/numberfile: the entries of an uploaded number file, for the form's 导入号码 box. */
export const numberFileLines = (db: Db, dataDir: string, actor: Actor, fileId: number) => {
  const tooMany = () => new AppError('CALLTASK_FILE_TOO_MANY');
  return readNumberFileTokens(db, dataDir, actor, fileId, { maxTokens: CALLTASK_LIMITS.numbers, tooMany, tooManyRows: tooMany });
};

export const createTask = async (db: Db, actor: Actor, body: CalltaskCreateBody): Promise<number> => {
  const agents = await checkAgents(db, actor, body.cmSidInfo);
  await checkFailRule(db, actor, body);
  await checkCompanyHours(db, actor.tenantId, body.cmTimes);
  const numbers = await importNumbers(db, actor, body);
  return db.transaction(async (tx) => {
    const id = await repo.insertTask(tx, {
      tenantId: actor.tenantId,
      ...settingsOf(body),
      blackState: body.blackState,
      customerInfoState: body.customerInfoState,
      customerWhere: body.customerWhere ? JSON.stringify(body.customerWhere) : '',
      creatorId: actor.staffId,
      createdAt: now(),
    });
    await repo.setAgents(tx, actor.tenantId, id, agents);
    await repo.insertNumbers(
      tx,
      numbers.map((n) => ({ ...n, tenantId: actor.tenantId, taskId: id })),
    );
    return id;
  });
};

/** A task the caller manages: created by staff in his data scope. */
export const requireManagedTask = async (db: DbOrTx, actor: Actor, id: number, lock = false) => {
  const task = await repo.findTask(db, actor.tenantId, id, lock);
  if (!task) throw new AppError('CALLTASK_NOT_FOUND');
  const scope = await scopeStaffIds(db as Db, actor);
  if (scope !== null && !scope.includes(task.creatorId)) throw new AppError('CALLTASK_NOT_FOUND');
  return task;
};

/** A task of one kind (mode) the caller manages. */
export const requireManagedTaskOf = (db: DbOrTx, actor: Actor, id: number, mode: number, notFound?: ErrorKey) =>
  ofMode(requireManagedTask(db, actor, id), mode, notFound);

export const editTask = async (db: Db, actor: Actor, body: CalltaskEditBody): Promise<number> => {
  const agents = await checkAgents(db, actor, body.cmSidInfo);
  await checkFailRule(db, actor, body);
  await checkCompanyHours(db, actor.tenantId, body.cmTimes);
  await db.transaction(async (tx) => {
    const task = await requireManagedTask(tx, actor, body.cmStid, true);
    if (!isEditable(task.status)) throw new AppError('CALLTASK_NOT_EDITABLE');
    await repo.updateTask(tx, actor.tenantId, task.id, settingsOf(body));
    await repo.setAgents(tx, actor.tenantId, task.id, agents);
  });
  return body.cmStid;
};

export const deleteTask = async (db: Db, actor: Actor, id: number): Promise<void> => {
  await db.transaction(async (tx) => {
    const task = await requireManagedTask(tx, actor, id, true);
    if (!isDeletable(task.status)) throw new AppError('CALLTASK_RUNNING');
    await repo.stopWorkers(tx, actor.tenantId, task.id);
    await repo.updateTask(tx, actor.tenantId, task.id, { deletedAt: now() });
  });
};

export type { TaskMove };

export const moveTask = async (db: Db, actor: Actor, id: number, move: TaskMove): Promise<void> => {
  await db.transaction(async (tx) => {
    const task = await requireManagedTask(tx, actor, id, true);
    const to = moveTarget(task.status, move);
    // the company's hours may have changed since the task was saved
    if (to === running) await checkCompanyHours(tx, actor.tenantId, task.times);
    await repo.updateTask(tx, actor.tenantId, task.id, {
      status: to,
      ...(move === 'start' ? { startedAt: now() } : {}),
    });
    if (move === 'stop') await repo.stopWorkers(tx, actor.tenantId, task.id);
  });
};

/** An agent of the task (the task must not be deleted). */
export const requireAgentTask = async (db: DbOrTx, actor: Actor, id: number) => {
  const task = await repo.findTask(db, actor.tenantId, id);
  if (!task) throw new AppError('CALLTASK_NOT_FOUND');
  if (!(await repo.agentRow(db, task.id, actor.staffId))) throw new AppError('CALLTASK_NOT_AGENT');
  return task;
};

/**
 * work: the agent works this task (and no other: one call at a time); the runner dials for him.
 * He works from his call socket (the page that rings and shows the customer): none alive, no work
 * (115034); the work lasts while that socket does (call-presence.ts), so after a reconnect or a
 * restart he joins again (the web does it for him when its socket is back).
 */
export const startWork = async (db: Db, actor: Actor, id: number) => {
  const task = await requireAgentTask(db, actor, id);
  if (!isRunning(task.status)) throw new AppError('CALLTASK_NOT_RUNNING');
  const connId = await liveSocketOf(db, actor.tenantId, actor.staffId);
  if (!connId) throw new AppError('CALLTASK_NO_SOCKET');
  await repo.setWorking(db, actor.tenantId, actor.staffId, task.id, connId);
  return task;
};

export const stopWork = async (db: Db, actor: Actor, id: number) => {
  const task = await requireAgentTask(db, actor, id);
  await repo.setWorking(db, actor.tenantId, actor.staffId, task.id, null);
};
