import { CALLTASK_STATUS, TASK_NUMBER_STATE } from '@crm/contracts';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { callTaskAgents, callTaskNumbers, callTasks } from '../../db/schema';
import { isWorkingLiveSql } from '../calls/call-presence';
import { intArray } from '../pools/pools-for-tasks';

// The SQL of call tasks of every kind (seat, group, AI; issues 15 and 16): the tasks, their agents,
// the one list filter and the counters. Counters are counted from the call records of the task and
// its numbers, so they always equal them. The numbers' claim and settling: calltasks-runner.repo.ts.

export type TaskRow = typeof callTasks.$inferSelect;
export type TaskInsert = typeof callTasks.$inferInsert;
export type NumberRow = typeof callTaskNumbers.$inferSelect;

const { pending, dialling, skipped } = TASK_NUMBER_STATE;

export const insertTask = async (tx: DbOrTx, row: TaskInsert) => {
  const [created] = await tx.insert(callTasks).values(row).returning({ id: callTasks.id });
  return created.id;
};

export const updateTask = (tx: DbOrTx, tenantId: number, id: number, values: Partial<TaskInsert>) =>
  tx
    .update(callTasks)
    .set(values)
    .where(and(eq(callTasks.tenantId, tenantId), eq(callTasks.id, id)));

export const findTask = async (db: DbOrTx, tenantId: number, id: number, lock = false) => {
  const q = db
    .select()
    .from(callTasks)
    .where(and(eq(callTasks.tenantId, tenantId), eq(callTasks.id, id), isNull(callTasks.deletedAt)));
  return (lock ? await q.for('update') : await q)[0];
};

/** The numbers of a new task, in import order (a number twice in one task is kept once). */
export const insertNumbers = async (
  tx: DbOrTx,
  rows: { tenantId: number; taskId: number; customerId: number | null; phone: string; isBlacklisted: boolean }[],
) => {
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000).map((r, j) => ({
      ...r,
      seq: i + j,
      state: r.isBlacklisted ? skipped : pending,
      lastCode: r.isBlacklisted ? 'blacklist' : '',
    }));
    await tx.insert(callTaskNumbers).values(chunk).onConflictDoNothing();
  }
};

export const setAgents = async (tx: DbOrTx, tenantId: number, taskId: number, staffIds: number[]) => {
  await tx.execute(
    sql`delete from ${callTaskAgents} where tenant_id = ${tenantId} and task_id = ${taskId} and not (staff_id = any(${intArray(staffIds)}))`,
  );
  // an AI task may have no agents (its flow never hands over)
  if (staffIds.length === 0) return;
  await tx
    .insert(callTaskAgents)
    .values(staffIds.map((staffId) => ({ tenantId, taskId, staffId })))
    .onConflictDoNothing();
};

/** The running tasks of one kind (mode), of every company: what a kind's runner dials. */
export const runningTasksOf = (db: DbOrTx, mode: number) =>
  db
    .select()
    .from(callTasks)
    .where(and(eq(callTasks.mode, mode), eq(callTasks.status, CALLTASK_STATUS.running), isNull(callTasks.deletedAt)));

/** The next agent in turn of a task (an AI task's rule `agents`): the cursor moves by one in the same statement. */
export const takeAssignTurn = async (db: DbOrTx, tenantId: number, taskId: number) => {
  const [row] = await queryRows<{ turn: number }>(
    db,
    sql`update ${callTasks} set assign_cursor = assign_cursor + 1
        where tenant_id = ${tenantId} and id = ${taskId} returning assign_cursor - 1 as turn`,
  );
  return Number(row?.turn ?? 0);
};

// ---------- lists and counters ----------

export type TaskListFilter = {
  /** the staff ids whose tasks the caller manages (null: all) */
  scope: number[] | null;
  staffId: number;
  /** only the tasks he works as an agent */
  isMine: boolean;
  name?: string;
  status?: number;
  mode: number;
};

/**
 * The one list filter of every kind's task list: the company's tasks of the kind (mode) created by
 * staff in `scope` or worked by the caller (only the latter with isMine), by name and status.
 */
export const taskListWhere = (tenantId: number, f: TaskListFilter): SQL => {
  const agent = sql`exists (select 1 from ${callTaskAgents} a where a.task_id = t.id and a.staff_id = ${f.staffId})`;
  const created = f.scope === null ? sql`true` : sql`t.creator_id = any(${intArray(f.scope)})`;
  let where = sql`t.tenant_id = ${tenantId} and t.deleted_at is null and ${f.isMine ? agent : sql`(${created} or ${agent})`}`;
  where = sql`${where} and t.mode = ${f.mode}`;
  if (f.name) where = sql`${where} and t.name like ${`%${f.name.replace(/[\\%_]/g, '\\$&')}%`}`;
  if (f.status !== undefined) where = sql`${where} and t.status = ${f.status}`;
  return where;
};

export const listTasks = (db: DbOrTx, where: SQL, limit: number, offset: number) =>
  queryRows<{ id: number }>(
    db,
    sql`select t.id from ${callTasks} t where ${where} order by t.id desc limit ${limit} offset ${offset}`,
  );

export const countTasks = async (db: DbOrTx, where: SQL) =>
  Number((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${callTasks} t where ${where}`))[0].n);

export const tasksByIds = (db: DbOrTx, tenantId: number, ids: number[]) =>
  queryRows<Record<string, unknown>>(
    db,
    sql`select t.* from ${callTasks} t where t.tenant_id = ${tenantId} and t.id = any(${intArray(ids)})`,
  );

export type NumbersCounted = { task_id: number; total: number; left_num: number; blacklisted: number };

/** Per task: its numbers, those left to dial (pending or being dialled), those blacklisted. */
export const numberCountsOf = (db: DbOrTx, tenantId: number, ids: number[]) =>
  queryRows<NumbersCounted>(
    db,
    sql`select n.task_id, count(*)::int as total,
          count(*) filter (where n.state in (${pending}, ${dialling}))::int as left_num,
          count(*) filter (where n.is_blacklisted)::int as blacklisted
        from ${callTaskNumbers} n where n.tenant_id = ${tenantId} and n.task_id = any(${intArray(ids)})
        group by n.task_id`,
  );

/** Per task: its pending numbers due at `at`, and the earliest next_at of those not yet due (task-wait.ts). */
export const numbersDueOf = (db: DbOrTx, taskIds: number[], at: Date) =>
  queryRows<{ task_id: number; due_now: number; next_at: Date | string | null }>(
    db,
    sql`select n.task_id,
          count(*) filter (where n.next_at is null or n.next_at <= ${at})::int as due_now,
          min(n.next_at) filter (where n.next_at > ${at}) as next_at
        from ${callTaskNumbers} n
        where n.task_id = any(${intArray(taskIds)}) and n.state = ${pending}
        group by n.task_id`,
  );

/** The agents of tasks (by staff id) with their work mode (call-presence.ts) and last call's end. */
export const agentsOf = (db: DbOrTx, taskIds: number[]) =>
  queryRows<{ task_id: number; staff_id: number; is_working: boolean; last_call_end_at: Date | string | null }>(
    db,
    sql`select a.task_id, a.staff_id, ${isWorkingLiveSql('a')} as is_working, a.last_call_end_at
        from ${callTaskAgents} a where a.task_id = any(${intArray(taskIds)}) order by a.staff_id`,
  );

/** The agents of one task with their work mode, next dial and last call's end (the longest idle first). */
export const agentStatesOf = (db: DbOrTx, tenantId: number, taskId: number) =>
  queryRows<{
    staff_id: number;
    is_working: boolean;
    next_dial_at: Date | string | null;
    last_call_end_at: Date | string | null;
  }>(
    db,
    sql`select a.staff_id, ${isWorkingLiveSql('a')} as is_working, a.next_dial_at, a.last_call_end_at
        from ${callTaskAgents} a where a.tenant_id = ${tenantId} and a.task_id = ${taskId}
        order by a.last_call_end_at nulls first, a.staff_id`,
  );

export const numbersPage = (db: DbOrTx, taskId: number, state: number | undefined, limit: number, offset: number) =>
  db
    .select()
    .from(callTaskNumbers)
    .where(and(eq(callTaskNumbers.taskId, taskId), state === undefined ? undefined : eq(callTaskNumbers.state, state)))
    .orderBy(callTaskNumbers.seq)
    .limit(limit)
    .offset(offset);

export const countNumbers = async (db: DbOrTx, taskId: number, state: number | undefined) =>
  Number(
    (
      await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from ${callTaskNumbers} where task_id = ${taskId}
            ${state === undefined ? sql`` : sql`and state = ${state}`}`,
      )
    )[0].n,
  );

/** Whether the task has numbers left to dial (pending or being dialled). */
export const hasNumbersLeft = async (db: DbOrTx, taskId: number) =>
  (
    await queryRows(
      db,
      sql`select 1 from ${callTaskNumbers} where task_id = ${taskId} and state in (${pending}, ${dialling}) limit 1`,
    )
  ).length > 0;

export const agentRow = async (db: DbOrTx, taskId: number, staffId: number) =>
  (
    await db
      .select()
      .from(callTaskAgents)
      .where(and(eq(callTaskAgents.taskId, taskId), eq(callTaskAgents.staffId, staffId)))
  )[0];

/**
 * The agent works this task from his call socket `connId` (and no other task), or stops working it
 * (connId null): work mode lasts while that socket lives (call-presence.ts).
 */
export const setWorking = (db: DbOrTx, tenantId: number, staffId: number, taskId: number, connId: string | null) =>
  db.execute(
    sql`update ${callTaskAgents} set is_working = (task_id = ${taskId} and ${connId !== null}::boolean),
          work_conn_id = case when task_id = ${taskId} then ${connId}::text else null end
        where tenant_id = ${tenantId} and staff_id = ${staffId} and (is_working or task_id = ${taskId})`,
  );

export const stopWorkers = (db: DbOrTx, tenantId: number, taskId: number) =>
  db
    .update(callTaskAgents)
    .set({ isWorking: false, workConnId: null })
    .where(and(eq(callTaskAgents.tenantId, tenantId), eq(callTaskAgents.taskId, taskId)));

export const taskAudience = async (db: DbOrTx, taskId: number) =>
  (
    await queryRows<{ id: number }>(
      db,
      sql`select staff_id as id from ${callTaskAgents} where task_id = ${taskId}
          union select creator_id from ${callTasks} where id = ${taskId}`,
    )
  ).map((r) => Number(r.id));
