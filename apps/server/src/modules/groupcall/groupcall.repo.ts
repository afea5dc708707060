import { CALLTASK_STATUS } from '@crm/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { callLegs, callRecords, callTaskAgents, callTasks, groupCallCalls, staff } from '../../db/schema';
import { isWorkingLiveSql } from '../calls/call-presence';
import { intArray } from '../pools/pools.repo';

// The SQL of group calling (issue 15): the running group tasks, their agents' states (free,
// talking, wrap-up), the customer legs in use, and the answered / connected / abandoned calls
// (group_call_calls) the board counts.

export type GroupAgent = {
  staff_id: number;
  name: string;
  /** in work mode from a call socket that is alive (call-presence.ts): a crashed page or server is not working */
  is_working: boolean;
  /** 1 while a call of his is in progress or his extension rings for one */
  in_call: boolean;
  next_dial_at: Date | string | null;
  last_call_end_at: Date | string | null;
};

export const runningGroupTasks = (db: DbOrTx) =>
  db
    .select()
    .from(callTasks)
    .where(and(eq(callTasks.mode, 1), eq(callTasks.status, CALLTASK_STATUS.running), isNull(callTasks.deletedAt)));

/** The task's agents with what they do now (the longest idle first). */
export const agentsOfTask = (db: DbOrTx, tenantId: number, taskId: number) =>
  queryRows<GroupAgent>(
    db,
    sql`select a.staff_id, coalesce(s.name, '') as name, ${isWorkingLiveSql('a')} as is_working, a.next_dial_at, a.last_call_end_at,
          (exists (select 1 from ${callRecords} r where r.tenant_id = a.tenant_id and r.staff_id = a.staff_id and r.state < 3)
           or exists (select 1 from ${callLegs} l
             where l.tenant_id = a.tenant_id and l.staff_id = a.staff_id and l.role = 'agent' and l.state < 3)) as in_call
        from ${callTaskAgents} a left join ${staff} s on s.id = a.staff_id
        where a.tenant_id = ${tenantId} and a.task_id = ${taskId}
        order by a.last_call_end_at nulls first, a.staff_id`,
  );

/**
 * The task's customer legs not ended (ringing or answered), how many of them still ring, and how
 * many of those were placed before `longBefore` (they rang long; none counted without it).
 */
export const linesOf = async (db: DbOrTx, tenantId: number, taskId: number, longBefore?: Date) => {
  const [row] = await queryRows<{ lines: number; ringing: number; ringing_long: number }>(
    db,
    sql`select count(*)::int as lines, count(*) filter (where l.state < 2)::int as ringing,
          count(*) filter (where l.state < 2 and l.created_at < ${longBefore ?? new Date(0)})::int as ringing_long
        from ${callLegs} l join ${callRecords} r on r.uuid = l.call_uuid
        where r.tenant_id = ${tenantId} and r.task_id = ${taskId} and r.state < 3 and l.role = 'customer' and l.state < 3`,
  );
  return { lines: Number(row?.lines ?? 0), ringing: Number(row?.ringing ?? 0), ringingLong: Number(row?.ringing_long ?? 0) };
};

export const insertAnswered = (db: DbOrTx, row: typeof groupCallCalls.$inferInsert) =>
  db.insert(groupCallCalls).values(row).onConflictDoNothing();

export const setAgentOf = (db: DbOrTx, callUuid: string, staffId: number) =>
  db.update(groupCallCalls).set({ staffId }).where(eq(groupCallCalls.callUuid, callUuid));

export const setConnected = (db: DbOrTx, callUuid: string, at: Date) =>
  db
    .update(groupCallCalls)
    .set({ connectedAt: at })
    .where(and(eq(groupCallCalls.callUuid, callUuid), isNull(groupCallCalls.connectedAt)));

export const setAbandoned = (db: DbOrTx, callUuid: string, at: Date) =>
  db.update(groupCallCalls).set({ abandonedAt: at, staffId: null }).where(eq(groupCallCalls.callUuid, callUuid));

export type GroupCounted = {
  task_id: number;
  called: number;
  answered: number;
  abandoned: number;
  connected: number;
  wait_ms: number;
};

/** The figures of group tasks, from their call records and group_call_calls. */
export const countersOf = (db: DbOrTx, tenantId: number, ids: number[]) =>
  queryRows<GroupCounted>(
    db,
    sql`select t.id as task_id,
          (select count(*)::int from ${callRecords} r where r.tenant_id = ${tenantId} and r.task_id = t.id) as called,
          (select count(*)::int from ${callRecords} r where r.tenant_id = ${tenantId} and r.task_id = t.id
             and r.answer_at is not null) as answered,
          (select count(*)::int from ${groupCallCalls} g where g.task_id = t.id and g.abandoned_at is not null) as abandoned,
          (select count(*)::int from ${groupCallCalls} g where g.task_id = t.id and g.connected_at is not null) as connected,
          (select coalesce(avg(extract(epoch from g.connected_at - g.answered_at) * 1000), 0)::float
             from ${groupCallCalls} g where g.task_id = t.id and g.connected_at is not null) as wait_ms
        from ${callTasks} t where t.tenant_id = ${tenantId} and t.id = any(${intArray(ids)})`,
  );

/** The group call of a call uuid (for the agent leg's answer). */
export const groupCallOf = async (db: DbOrTx, callUuid: string) =>
  (await db.select().from(groupCallCalls).where(eq(groupCallCalls.callUuid, callUuid)))[0];
