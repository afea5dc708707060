import { and, eq, isNull, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { groupCallCalls } from '../../db/schema';
import { intArray } from '../pools/pools-for-tasks';

// The SQL of group calling (issue 15): the answered / connected / abandoned calls (group_call_calls)
// the board counts. The tasks, their agents and numbers are the task core's (calltasks/task-core.ts);
// the lines and calls the calls module's (calls/calls-for-tasks.ts).

export const insertAnswered = (db: DbOrTx, row: typeof groupCallCalls.$inferInsert) =>
  db.insert(groupCallCalls).values(row).onConflictDoNothing();

const callWhere = (tenantId: number, callUuid: string) =>
  and(eq(groupCallCalls.tenantId, tenantId), eq(groupCallCalls.callUuid, callUuid));

export const setAgentOf = (db: DbOrTx, tenantId: number, callUuid: string, staffId: number) =>
  db.update(groupCallCalls).set({ staffId }).where(callWhere(tenantId, callUuid));

export const setConnected = (db: DbOrTx, tenantId: number, callUuid: string, at: Date) =>
  db
    .update(groupCallCalls)
    .set({ connectedAt: at })
    .where(and(callWhere(tenantId, callUuid), isNull(groupCallCalls.connectedAt)));

export const setAbandoned = (db: DbOrTx, tenantId: number, callUuid: string, at: Date) =>
  db.update(groupCallCalls).set({ abandonedAt: at, staffId: null }).where(callWhere(tenantId, callUuid));

/** Per group task: its abandoned and connected calls, and the average wait from answer to agent. */
export const groupCountersOf = (db: DbOrTx, tenantId: number, ids: number[]) =>
  queryRows<{ task_id: number; abandoned: number; connected: number; wait_ms: number }>(
    db,
    sql`select g.task_id,
          count(*) filter (where g.abandoned_at is not null)::int as abandoned,
          count(*) filter (where g.connected_at is not null)::int as connected,
          coalesce(avg(extract(epoch from g.connected_at - g.answered_at) * 1000)
            filter (where g.connected_at is not null), 0)::float as wait_ms
        from ${groupCallCalls} g where g.tenant_id = ${tenantId} and g.task_id = any(${intArray(ids)})
        group by g.task_id`,
  );
