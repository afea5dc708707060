import { TASK_NUMBER_STATE } from '@crm/contracts';
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { callTaskAgents, callTaskNumbers, callTasks, roles, staff } from '../../db/schema';
import type { Actor } from '../../lib/auth-context';
import { isWorkingLiveSql } from '../calls/call-presence';
import { intArray } from '../pools/pools.repo';

// The SQL of seat tasks (issue 15). Counters are counted from the call records of the task and
// its numbers, so they always equal them.

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
  await tx.execute(sql`delete from ${callTaskAgents} where task_id = ${taskId} and not (staff_id = any(${intArray(staffIds)}))`);
  // an AI task may have no agents (its flow never hands over)
  if (staffIds.length === 0) return;
  await tx
    .insert(callTaskAgents)
    .values(staffIds.map((staffId) => ({ tenantId, taskId, staffId })))
    .onConflictDoNothing();
};

/** Active staff of the company among `ids` (an agent must be one). */
export const activeStaffIds = async (db: DbOrTx, tenantId: number, ids: number[]) =>
  (
    await queryRows<{ id: number }>(
      db,
      sql`select id from ${staff} where tenant_id = ${tenantId} and id = any(${intArray(ids)})
            and action_state = 0 and not is_deleted`,
    )
  ).map((r) => Number(r.id));

/** A staff as the actor of his own task dial (sessionless: the task acts for him). */
export const staffActor = async (db: DbOrTx, tenantId: number, staffId: number): Promise<Actor | undefined> => {
  const [r] = await db
    .select({
      staffId: staff.id,
      tenantId: staff.tenantId,
      departmentId: staff.departmentId,
      roleId: staff.roleId,
      name: staff.name,
      dataScope: roles.dataScope,
      isSystem: roles.isSystem,
      menuIds: roles.menuIds,
      actions: roles.actions,
    })
    .from(staff)
    .innerJoin(roles, eq(roles.id, staff.roleId))
    .where(and(eq(staff.tenantId, tenantId), eq(staff.id, staffId), eq(staff.actionState, 0), eq(staff.isDeleted, false)));
  if (!r) return undefined;
  return {
    sessionId: 0,
    staffId: r.staffId,
    tenantId: r.tenantId,
    departmentId: r.departmentId,
    roleId: r.roleId ?? 0,
    dataScope: r.dataScope,
    isSystemRole: r.isSystem,
    menuIds: new Set(r.menuIds),
    actions: new Set(r.actions),
    name: r.name,
  };
};

// ---------- lists and counters ----------

export type TaskListRow = TaskRow & { creator_name: string };

/** Tasks created by staff in `scope` (null: all) or worked by `staffId`. */
export const taskScopeSql = (tenantId: number, scope: number[] | null, staffId: number, isMine: boolean): SQL => {
  const agent = sql`exists (select 1 from ${callTaskAgents} a where a.task_id = t.id and a.staff_id = ${staffId})`;
  const created = scope === null ? sql`true` : sql`t.creator_id = any(${intArray(scope)})`;
  return sql`t.tenant_id = ${tenantId} and t.deleted_at is null and ${isMine ? agent : sql`(${created} or ${agent})`}`;
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
    sql`select t.*, coalesce(s.name, '') as creator_name from ${callTasks} t left join ${staff} s on s.id = t.creator_id
        where t.tenant_id = ${tenantId} and t.id = any(${intArray(ids)})`,
  );

export type Counted = {
  task_id: number;
  total: number;
  left_num: number;
  blacklisted: number;
  called: number;
  connected: number;
  unconnected: number;
  billsec: number;
};

/** The counters of tasks: numbers from their rows, calls from the call records of the task. */
export const countersOf = (db: DbOrTx, tenantId: number, ids: number[]) =>
  queryRows<Counted>(
    db,
    sql`select t.id as task_id,
          (select count(*)::int from call_task_numbers n where n.task_id = t.id) as total,
          (select count(*)::int from call_task_numbers n where n.task_id = t.id and n.state in (${pending}, ${dialling})) as left_num,
          (select count(*)::int from call_task_numbers n where n.task_id = t.id and n.is_blacklisted) as blacklisted,
          c.called, c.connected, c.unconnected, c.billsec
        from ${callTasks} t
        cross join lateral (
          select count(*)::int as called,
            count(*) filter (where r.answer_at is not null)::int as connected,
            count(*) filter (where r.answer_at is null and r.state = 3)::int as unconnected,
            coalesce(sum(r.billsec), 0)::int as billsec
          from call_records r where r.tenant_id = ${tenantId} and r.task_id = t.id
        ) c
        where t.tenant_id = ${tenantId} and t.id = any(${intArray(ids)})`,
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

export const agentsOf = (db: DbOrTx, taskIds: number[]) =>
  queryRows<{ task_id: number; staff_id: number; name: string; is_working: boolean; last_call_end_at: Date | string | null }>(
    db,
    sql`select a.task_id, a.staff_id, coalesce(s.name, '') as name, ${isWorkingLiveSql('a')} as is_working, a.last_call_end_at
        from ${callTaskAgents} a left join ${staff} s on s.id = a.staff_id
        where a.task_id = any(${intArray(taskIds)}) order by a.staff_id`,
  );

export const agentCounters = (db: DbOrTx, tenantId: number, taskId: number) =>
  queryRows<{ staff_id: number; called: number; connected: number; unconnected: number; billsec: number }>(
    db,
    sql`select r.staff_id, count(*)::int as called,
          count(*) filter (where r.answer_at is not null)::int as connected,
          count(*) filter (where r.answer_at is null and r.state = 3)::int as unconnected,
          coalesce(sum(r.billsec), 0)::int as billsec
        from call_records r where r.tenant_id = ${tenantId} and r.task_id = ${taskId} group by r.staff_id`,
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

export const stopWorkers = (db: DbOrTx, taskId: number) =>
  db.update(callTaskAgents).set({ isWorking: false, workConnId: null }).where(eq(callTaskAgents.taskId, taskId));

export const taskAudience = async (db: DbOrTx, taskId: number) =>
  (
    await queryRows<{ id: number }>(
      db,
      sql`select staff_id as id from ${callTaskAgents} where task_id = ${taskId}
          union select creator_id from ${callTasks} where id = ${taskId}`,
    )
  ).map((r) => Number(r.id));
