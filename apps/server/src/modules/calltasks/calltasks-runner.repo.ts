import { CALLTASK_STATUS, TASK_NUMBER_STATE } from '@crm/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { callRecords, callTaskAgents, callTaskNumbers, callTasks } from '../../db/schema';
import { isWorkingLiveSql } from '../calls/call-presence';

// The power dialer's SQL (issue 15): which agents are due a call, the next number of a task
// (one indexed query, FOR UPDATE SKIP LOCKED), and the task calls that ended and wait to be settled.

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
        join ${callTasks} t on t.id = a.task_id and t.status = ${CALLTASK_STATUS.running} and t.deleted_at is null and t.mode = 0
        where ${isWorkingLiveSql('a')} and (a.next_dial_at is null or a.next_dial_at <= ${at})
          and not exists (select 1 from ${callTaskNumbers} n where n.task_id = a.task_id and n.state = ${dialling} and n.staff_id = a.staff_id)
          and not exists (select 1 from ${callRecords} r where r.staff_id = a.staff_id and r.state < 3)
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

/** The next due number of the task (pending, or a redial whose time came), taken for the agent. */
export const claimNextNumber = async (tx: DbOrTx, taskId: number, staffId: number, at: Date) => {
  const [row] = await queryRows<{ id: number }>(
    tx,
    sql`select id from ${callTaskNumbers} where task_id = ${taskId} and state = ${pending}
          and (next_at is null or next_at <= ${at})
          and not exists (select 1 from ${callTasks} t where t.id = ${taskId} and t.mode = 1)
        order by next_at nulls first, seq limit 1 for update skip locked`,
  );
  if (!row) return undefined;
  const [claimed] = await tx
    .update(callTaskNumbers)
    .set({ state: dialling, attempts: sql`${callTaskNumbers.attempts} + 1`, staffId, lastCallUuid: null, updatedAt: at })
    .where(eq(callTaskNumbers.id, Number(row.id)))
    .returning();
  return claimed;
};

export const updateNumber = (db: DbOrTx, id: number, values: Partial<typeof callTaskNumbers.$inferInsert>) =>
  db.update(callTaskNumbers).set(values).where(eq(callTaskNumbers.id, id));

export const lockNumber = async (tx: DbOrTx, id: number) =>
  (await tx.select().from(callTaskNumbers).where(eq(callTaskNumbers.id, id)).for('update'))[0];

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
        from ${callTaskNumbers} n left join ${callRecords} r on r.uuid = n.last_call_uuid
        where n.state = ${dialling} and (r.state = 3 or (n.last_call_uuid is null and n.updated_at < ${staleBefore}))
        limit ${limit}`,
  );

export const setAgentEnded = (db: DbOrTx, taskId: number, staffId: number, endAt: Date, nextDialAt: Date) =>
  db
    .update(callTaskAgents)
    .set({ lastCallEndAt: endAt, nextDialAt })
    .where(and(eq(callTaskAgents.taskId, taskId), eq(callTaskAgents.staffId, staffId)));

export const setAgentNextDial = (db: DbOrTx, taskId: number, staffId: number, nextDialAt: Date | null) =>
  db
    .update(callTaskAgents)
    .set({ nextDialAt })
    .where(and(eq(callTaskAgents.taskId, taskId), eq(callTaskAgents.staffId, staffId)));

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
