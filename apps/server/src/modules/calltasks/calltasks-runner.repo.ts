import { CALLTASK_MODE, CALLTASK_STATUS, TASK_NUMBER_STATE } from '@crm/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { callTaskAgents, callTaskNumbers, callTasks } from '../../db/schema';
import { isWorkingLiveSql } from '../calls/call-presence';
import { hasLiveCallSql, joinCallSql, joinedCallEndedSql } from '../calls/calls-for-tasks';
import { intArray } from '../pools/pools-for-tasks';

// The dialers' SQL (issues 15, 16): which seat agents are due a call, the claim of a task's next
// due numbers (one indexed query, FOR UPDATE SKIP LOCKED, for every kind of task), the numbers'
// changes, and the task calls that ended and wait to be settled.

const { pending, dialling } = TASK_NUMBER_STATE;

export type DueAgent = { task_id: number; staff_id: number; tenant_id: number };

/**
 * Working agents (from a live call socket, call-presence.ts) of running tasks whose wrap-up is over, with no number of the task being dialled
 * for them and no call of theirs in progress.
 */
export const dueAgents = (db: DbOrTx, at: Date, limit: number) =>
  queryRows<DueAgent>(
    db,
    sql`select a.task_id, a.staff_id, a.tenant_id from ${callTaskAgents} a
        join ${callTasks} t on t.id = a.task_id and t.status = ${CALLTASK_STATUS.running} and t.deleted_at is null and t.mode = ${CALLTASK_MODE.seat}
        where ${isWorkingLiveSql('a')} and (a.next_dial_at is null or a.next_dial_at <= ${at})
          and not exists (select 1 from ${callTaskNumbers} n where n.task_id = a.task_id and n.state = ${dialling} and n.staff_id = a.staff_id)
          and not ${hasLiveCallSql('a.staff_id')}
        order by a.next_dial_at nulls first limit ${limit}`,
  );

/** The agent's row, locked (another runner holding it skips him: one dial at a time per agent). */
export const lockAgent = async (tx: DbOrTx, taskId: number, staffId: number) =>
  (
    await queryRows<{ is_working: boolean }>(
      tx,
      sql`select ${isWorkingLiveSql('a')} as is_working from ${callTaskAgents} a
          where a.task_id = ${taskId} and a.staff_id = ${staffId} for update of a skip locked`,
    )
  )[0];

export const isAgentDialling = async (tx: DbOrTx, taskId: number, staffId: number) =>
  (
    await queryRows(
      tx,
      sql`select 1 from ${callTaskNumbers} where task_id = ${taskId} and state = ${dialling} and staff_id = ${staffId} limit 1`,
    )
  ).length > 0;

/**
 * Takes up to `n` due numbers of the task (pending, or a redial whose time came; the oldest due
 * first, then in import order) for a dial: for the seat agent `staffId`, or for the server's own
 * legs (null: group and AI tasks). Locked rows are skipped, so concurrent runners never share one.
 */
export const claimNumbers = async (
  tx: DbOrTx,
  tenantId: number,
  taskId: number,
  n: number,
  at: Date,
  staffId: number | null = null,
) => {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`select id from ${callTaskNumbers} where task_id = ${taskId} and state = ${pending}
          and (next_at is null or next_at <= ${at})
        order by next_at nulls first, seq limit ${n} for update skip locked`,
  );
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  const claimed = await tx
    .update(callTaskNumbers)
    .set({ state: dialling, attempts: sql`${callTaskNumbers.attempts} + 1`, staffId, lastCallUuid: null, updatedAt: at })
    .where(and(eq(callTaskNumbers.tenantId, tenantId), sql`${callTaskNumbers.id} = any(${intArray(ids)})`))
    .returning();
  // in the order they were taken
  return claimed.sort((x, y) => ids.indexOf(x.id) - ids.indexOf(y.id));
};

export const updateNumber = (db: DbOrTx, tenantId: number, id: number, values: Partial<typeof callTaskNumbers.$inferInsert>) =>
  db
    .update(callTaskNumbers)
    .set(values)
    .where(and(eq(callTaskNumbers.tenantId, tenantId), eq(callTaskNumbers.id, id)));

export const numberById = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select()
      .from(callTaskNumbers)
      .where(and(eq(callTaskNumbers.tenantId, tenantId), eq(callTaskNumbers.id, id)))
  )[0];

export const lockNumber = async (tx: DbOrTx, tenantId: number, id: number) =>
  (
    await tx
      .select()
      .from(callTaskNumbers)
      .where(and(eq(callTaskNumbers.tenantId, tenantId), eq(callTaskNumbers.id, id)))
      .for('update')
  )[0];

export type Settleable = {
  id: number;
  task_id: number;
  tenant_id: number;
  uuid: string | null;
  answer_at: Date | string | null;
  end_at: Date | string | null;
  hangup_cause: string | null;
};

/**
 * Numbers being dialled whose call ended (to settle), and numbers taken for a dial that never
 * got its call (the process died between the two) for over `staleBefore`.
 */
export const settleable = (db: DbOrTx, staleBefore: Date, limit: number) =>
  queryRows<Settleable>(
    db,
    sql`select n.id, n.task_id, n.tenant_id, r.uuid, r.answer_at, r.end_at, r.hangup_cause
        from ${callTaskNumbers} n ${joinCallSql('n.last_call_uuid')}
        where n.state = ${dialling} and (${joinedCallEndedSql()} or (n.last_call_uuid is null and n.updated_at < ${staleBefore}))
        limit ${limit}`,
  );

const agentWhere = (tenantId: number, taskId: number, staffId: number) =>
  and(eq(callTaskAgents.tenantId, tenantId), eq(callTaskAgents.taskId, taskId), eq(callTaskAgents.staffId, staffId));

export const setAgentEnded = (db: DbOrTx, tenantId: number, taskId: number, staffId: number, endAt: Date, nextDialAt: Date) =>
  db
    .update(callTaskAgents)
    .set({ lastCallEndAt: endAt, nextDialAt })
    .where(agentWhere(tenantId, taskId, staffId));

export const setAgentNextDial = (db: DbOrTx, tenantId: number, taskId: number, staffId: number, nextDialAt: Date | null) =>
  db
    .update(callTaskAgents)
    .set({ nextDialAt })
    .where(agentWhere(tenantId, taskId, staffId));

/** The agent's number of the task for this call. */
export const numberOfCall = async (db: DbOrTx, taskId: number, staffId: number, uuid: string) =>
  (
    await db
      .select()
      .from(callTaskNumbers)
      .where(
        and(eq(callTaskNumbers.taskId, taskId), eq(callTaskNumbers.staffId, staffId), eq(callTaskNumbers.lastCallUuid, uuid)),
      )
  )[0];
