import {
  CALLTASK_MODE,
  CALLTASK_STATUS,
  CALLTASK_STATUS_LABEL,
  type CalltaskDetail,
  type CalltaskListBody,
  type CalltaskNumberRow,
  type CalltaskNumbersBody,
  type CalltaskProgress,
  type CalltaskRow,
  type ErrorKey,
  type ListData,
  TASK_NUMBER_STATE_LABEL,
  TASK_OUTCOME_LABEL,
  type TaskWait,
  type TimeRange,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, onlyRefusal } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import { type CallStats, taskCallStats, taskStaffCallStats } from '../calls/calls-for-tasks';
import { callSettingsOf } from '../calls/dial-policy';
import { canSee, isNumberMasked, showPhone } from '../customers/customer-access';
import { findCustomerRecord, viewerOf } from '../customers/customers.service';
import { scopeStaffIds } from '../staff/staff.service';
import { staffNames } from '../staff/staff-lookup';
import * as repo from './calltasks.repo';
import { listTaskIds } from './task-core';
import { taskWait } from './task-wait';

// What seat tasks show (issue 15): the SPEC §3 rows with their counters (counted from the call
// records), the detail with per-agent figures, the numbers (masked by the customer-access policy)
// and the msg_type 7 progress.

const dateOf = (v: unknown) => (v ? formatDateTime(new Date(v as string)) : '');

const countersFrom = (n: repo.NumbersCounted | undefined, c: CallStats | undefined) => ({
  totalNum: Number(n?.total ?? 0),
  zcallNum: c?.called ?? 0,
  zcallWnum: c?.unconnected ?? 0,
  zcallBnum: Number(n?.blacklisted ?? 0),
  zcallCnum: c?.connected ?? 0,
  zcallBillsec: c?.billsec ?? 0,
});

/**
 * The waits of the running tasks among `tasks` (task-wait.ts): the company's calling hours and the
 * numbers' due times, read only when a task runs.
 */
const waitsOf = async (db: DbOrTx, tenantId: number, tasks: Awaited<ReturnType<typeof repo.tasksByIds>>) => {
  const running = tasks.filter((t) => Number(t.status) === CALLTASK_STATUS.running);
  if (running.length === 0) return (_id: number): TaskWait | null => null;
  const at = now();
  const [settings, due] = await Promise.all([
    callSettingsOf(db, tenantId),
    repo.numbersDueOf(
      db,
      running.map((t) => Number(t.id)),
      at,
    ),
  ]);
  const dueById = new Map(due.map((d) => [Number(d.task_id), d]));
  const waits = new Map(
    running.map((t) => {
      const d = dueById.get(Number(t.id));
      const wait = taskWait(
        {
          weeks: t.weeks as number[],
          times: t.times as TimeRange[],
          hours: settings.callHours,
          dueNow: Number(d?.due_now ?? 0),
          nextNumberAt: d?.next_at ? new Date(d.next_at) : null,
        },
        at,
      );
      return [Number(t.id), wait] as const;
    }),
  );
  return (id: number) => waits.get(id) ?? null;
};

/** The rows of tasks; `withWait` false leaves out the wait (the msg_type 7 frame carries none). */
export const rowsOf = async (db: DbOrTx, tenantId: number, ids: number[], withWait = true): Promise<CalltaskRow[]> => {
  if (ids.length === 0) return [];
  const [tasks, counted, calls, agents] = await Promise.all([
    repo.tasksByIds(db, tenantId, ids),
    repo.numberCountsOf(db, tenantId, ids),
    taskCallStats(db, tenantId, ids),
    repo.agentsOf(db, ids),
  ]);
  const byId = new Map(tasks.map((t) => [Number(t.id), t]));
  const countedById = new Map(counted.map((c) => [Number(c.task_id), c]));
  const [waitOf, names] = await Promise.all([
    waitsOf(db, tenantId, withWait ? tasks : []),
    staffNames(db, tenantId, [...tasks.map((t) => Number(t.creator_id)), ...agents.map((a) => Number(a.staff_id))]),
  ]);
  const nameOf = (id: number) => names.get(id) ?? '';
  return ids.flatMap((id) => {
    const t = byId.get(id);
    if (!t) return [];
    const c = countedById.get(id);
    const status = Number(t.status);
    return [
      {
        cmStid: id,
        name: String(t.name),
        blackState: Number(t.black_state),
        cmWeeks: t.weeks as number[],
        cmTimes: t.times as { start: string; end: string }[],
        customerInfoState: Number(t.customer_info_state),
        customerWhere: String(t.customer_where),
        cmSidInfo: agents
          .filter((a) => Number(a.task_id) === id)
          .map((a) => ({ cmSid: Number(a.staff_id), name: nameOf(Number(a.staff_id)) })),
        isComplete: status === CALLTASK_STATUS.completed ? 1 : 0,
        status,
        statusName: CALLTASK_STATUS_LABEL[status] ?? '',
        redialMinutes: Number(t.redial_minutes),
        maxAttempts: Number(t.max_attempts),
        wrapUpSeconds: Number(t.wrap_up_seconds),
        failPoolId: Number(t.fail_pool_id),
        failReasonId: Number(t.fail_reason_id),
        leftNum: Number(c?.left_num ?? 0),
        wait: waitOf(id),
        createCmSid: Number(t.creator_id),
        createName: nameOf(Number(t.creator_id)),
        createTime: dateOf(t.created_at),
        ...countersFrom(c, calls.get(id)),
      },
    ];
  });
};

export const listTasks = async (db: Db, actor: Actor, f: CalltaskListBody): Promise<ListData<CalltaskRow>> => {
  // group and AI tasks have their own lists (modules/groupcall, modules/aicall)
  const { ids, count } = await listTaskIds(db, actor, f, CALLTASK_MODE.seat);
  return { list: await rowsOf(db, actor.tenantId, ids), count };
};

/** A task the caller may see: created in his data scope, or one he works as an agent. */
export const requireVisibleTask = async (db: DbOrTx, actor: Actor, id: number) => {
  const task = await repo.findTask(db, actor.tenantId, id);
  if (!task) throw new AppError('CALLTASK_NOT_FOUND');
  const scope = await scopeStaffIds(db as Db, actor);
  const isManaged = scope === null || scope.includes(task.creatorId);
  if (!isManaged && !(await repo.agentRow(db, task.id, actor.staffId))) throw new AppError('CALLTASK_NOT_FOUND');
  return task;
};

/** A guard's task when it is of one kind (mode); another kind's task is not found, with that kind's code. */
export const ofMode = async <T extends { mode: number }>(
  guarded: Promise<T | undefined>,
  mode: number,
  notFound: ErrorKey = 'CALLTASK_NOT_FOUND',
) => {
  const task = await guarded.catch(onlyRefusal(undefined));
  if (task?.mode !== mode) throw new AppError(notFound);
  return task;
};

/** A task of one kind the caller may see. */
export const requireVisibleTaskOf = (db: DbOrTx, actor: Actor, id: number, mode: number, notFound?: ErrorKey) =>
  ofMode(requireVisibleTask(db, actor, id), mode, notFound);

/** The task is of this kind (mode); who may act on it is the action's own check. */
export const requireTaskMode = (db: DbOrTx, tenantId: number, id: number, mode: number) =>
  ofMode(repo.findTask(db, tenantId, id), mode);

export const taskDetail = async (db: Db, actor: Actor, id: number): Promise<CalltaskDetail> => {
  await requireVisibleTask(db, actor, id);
  const [row] = await rowsOf(db, actor.tenantId, [id]);
  const [agents, byStaff] = await Promise.all([repo.agentsOf(db, [id]), taskStaffCallStats(db, actor.tenantId, id)]);
  const names = await staffNames(
    db,
    actor.tenantId,
    agents.map((a) => Number(a.staff_id)),
  );
  return {
    ...row,
    agents: agents.map((a) => {
      const c = byStaff.get(Number(a.staff_id));
      return {
        cmSid: Number(a.staff_id),
        name: names.get(Number(a.staff_id)) ?? '',
        isWorking: a.is_working ? 1 : 0,
        lastCallEndTime: dateOf(a.last_call_end_at),
        zcallNum: c?.called ?? 0,
        zcallWnum: c?.unconnected ?? 0,
        zcallCnum: c?.connected ?? 0,
        zcallBillsec: c?.billsec ?? 0,
      };
    }),
  };
};

/** The numbers of a task, each masked for the caller as its customer (or an unknown number) is now. */
export const taskNumbers = async (db: Db, actor: Actor, f: CalltaskNumbersBody): Promise<ListData<CalltaskNumberRow>> => {
  await requireVisibleTask(db, actor, f.cmStid);
  const [rows, count] = await Promise.all([
    repo.numbersPage(db, f.cmStid, f.state, f.limit, (f.page - 1) * f.limit),
    repo.countNumbers(db, f.cmStid, f.state),
  ]);
  const v = await viewerOf(db, actor);
  const list = await Promise.all(
    rows.map(async (n) => {
      const customer = n.customerId ? await findCustomerRecord(db, actor.tenantId, n.customerId) : undefined;
      // the policy's rule of a task's number: its customer's, else masked as a private customer's
      const isMasked = isNumberMasked(v, { kind: 'task', customerId: n.customerId, customer });
      const isNamed = customer !== undefined && canSee(v, customer);
      return {
        id: n.id,
        phone: showPhone(isMasked, n.phone),
        encryptPhone: isMasked ? 1 : 0,
        cmCtid: isNamed && customer ? customer.id : 0,
        name: isNamed && customer ? customer.name : '',
        state: n.state,
        stateName: TASK_NUMBER_STATE_LABEL[n.state] ?? '',
        attempts: n.attempts,
        nextTime: n.nextAt ? formatDateTime(n.nextAt) : '',
        lastCode: n.lastCode,
        outcome: n.outcome,
        outcomeName: TASK_OUTCOME_LABEL[n.outcome] ?? '',
        cmSid: n.staffId ?? 0,
      };
    }),
  );
  return { list, count };
};

/** The msg_type 7 frame data of a task. */
export const progressOf = async (db: DbOrTx, tenantId: number, id: number): Promise<CalltaskProgress | undefined> => {
  const [row] = await rowsOf(db, tenantId, [id], false);
  if (!row) return undefined;
  const { totalNum, zcallNum, zcallWnum, zcallBnum, zcallCnum, zcallBillsec, status, isComplete, leftNum } = row;
  return { cmStid: id, totalNum, zcallNum, zcallWnum, zcallBnum, zcallCnum, zcallBillsec, status, isComplete, leftNum };
};
