import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { callLegs, callRecords } from '../../db/schema';
import { findLeg } from './call-legs.repo';
import { CALL_STATE } from './calls.repo';

/** What the call tasks' dialers read of calls and legs: lines in use, agents in a call, call counts per task. */

/** `ids` as one SQL int[] parameter (for `= any(...)`). */
const intArray = (ids: readonly number[]): SQL => sql`${`{${ids.join(',')}}`}::int[]`;

const { answered, ended } = CALL_STATE;

// SQL pieces for the dialers' one-statement tick reads (as call-presence.ts isWorkingLiveSql): they
// run each second over every running task, with their LIMIT after these conditions.

/** SQL: the staff in column `staffCol` has a call in progress. */
export const hasLiveCallSql = (staffCol: string): SQL =>
  sql`exists (select 1 from ${callRecords} r where r.staff_id = ${sql.raw(staffCol)} and r.state < ${ended})`;

/** SQL: `left join` of the call whose uuid is in column `uuidCol`, as `r` (uuid, answer_at, end_at, hangup_cause). */
export const joinCallSql = (uuidCol: string): SQL => sql`left join ${callRecords} r on r.uuid = ${sql.raw(uuidCol)}`;

/** SQL: the call joined as `r` (joinCallSql) has ended. */
export const joinedCallEndedSql = (): SQL => sql`r.state = ${ended}`;

export type TaskLines = { lines: number; ringing: number; ringingLong: number };

/**
 * Per task: its legs of `role` not ended (each one line in use), how many of them still ring, and
 * how many of those were placed before `longBefore` (none counted without it). `isCallLive` counts
 * only legs whose call is not ended either.
 */
export const taskLines = async (
  db: DbOrTx,
  tenantId: number,
  taskIds: number[],
  opts: { role: 'customer' | 'bot'; isCallLive?: boolean; longBefore?: Date },
) => {
  const rows = await queryRows<{ task_id: number; lines: number; ringing: number; ringing_long: number }>(
    db,
    sql`select r.task_id, count(*)::int as lines, count(*) filter (where l.state < ${answered})::int as ringing,
          count(*) filter (where l.state < ${answered} and l.created_at < ${opts.longBefore ?? new Date(0)})::int as ringing_long
        from ${callLegs} l join ${callRecords} r on r.uuid = l.call_uuid
        where r.tenant_id = ${tenantId} and r.task_id = any(${intArray(taskIds)})
          ${opts.isCallLive ? sql`and r.state < ${ended}` : sql``} and l.role = ${opts.role} and l.state < ${ended}
        group by r.task_id`,
  );
  return new Map<number, TaskLines>(
    rows.map((r) => [
      Number(r.task_id),
      { lines: Number(r.lines), ringing: Number(r.ringing), ringingLong: Number(r.ringing_long) },
    ]),
  );
};

/** The staff among `staffIds` with a call in progress or an agent leg ringing or in a call. */
export const staffInCall = async (db: DbOrTx, tenantId: number, staffIds: number[]) => {
  if (staffIds.length === 0) return new Set<number>();
  const rows = await queryRows<{ staff_id: number }>(
    db,
    sql`select r.staff_id from ${callRecords} r
          where r.tenant_id = ${tenantId} and r.staff_id = any(${intArray(staffIds)}) and r.state < ${ended}
        union select l.staff_id from ${callLegs} l
          where l.tenant_id = ${tenantId} and l.staff_id = any(${intArray(staffIds)}) and l.role = 'agent' and l.state < ${ended}`,
  );
  return new Set(rows.map((r) => Number(r.staff_id)));
};

export type CallStats = { called: number; connected: number; unconnected: number; billsec: number };

const statsSql = sql`count(*)::int as called,
  count(*) filter (where r.answer_at is not null)::int as connected,
  count(*) filter (where r.answer_at is null and r.state = ${ended})::int as unconnected,
  coalesce(sum(r.billsec), 0)::int as billsec`;

const statsOf = (r: CallStats): CallStats => ({
  called: Number(r.called),
  connected: Number(r.connected),
  unconnected: Number(r.unconnected),
  billsec: Number(r.billsec),
});

/** Per task: its calls, those answered (connected), those ended unanswered, and their talk seconds. */
export const taskCallStats = async (db: DbOrTx, tenantId: number, taskIds: number[]) => {
  const rows = await queryRows<CallStats & { task_id: number }>(
    db,
    sql`select r.task_id, ${statsSql} from ${callRecords} r
        where r.tenant_id = ${tenantId} and r.task_id = any(${intArray(taskIds)}) group by r.task_id`,
  );
  return new Map(rows.map((r) => [Number(r.task_id), statsOf(r)]));
};

/** The same figures of one task per staff who placed its calls. */
export const taskStaffCallStats = async (db: DbOrTx, tenantId: number, taskId: number) => {
  const rows = await queryRows<CallStats & { staff_id: number }>(
    db,
    sql`select r.staff_id, ${statsSql} from ${callRecords} r
        where r.tenant_id = ${tenantId} and r.task_id = ${taskId} group by r.staff_id`,
  );
  return new Map(rows.map((r) => [Number(r.staff_id), statsOf(r)]));
};

/** Whether the leg is still ringing or in its call. */
export const isLegLive = async (db: DbOrTx, legId: string) => {
  const row = await findLeg(db, legId);
  return row !== undefined && row.state < ended;
};
