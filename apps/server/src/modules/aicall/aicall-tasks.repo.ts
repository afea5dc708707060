import { AI_CALL_FAILED, CALLTASK_MODE_AI, CALLTASK_STATUS, type GradeCounts, TASK_NUMBER_STATE } from '@crm/contracts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { aibotFlows, aiCalls, callLegs, callRecords, callTaskNumbers, callTasks } from '../../db/schema';
import { intArray } from '../pools/pools.repo';

// The SQL of AI tasks (issue 16): their rows with the flow, the bot legs in use (the line limit is
// counted from the legs, never kept apart), the running tasks and the claim of their next numbers.

const { pending, dialling } = TASK_NUMBER_STATE;

export const flowExists = async (db: DbOrTx, tenantId: number, flowId: number) =>
  (
    await db
      .select({ id: aibotFlows.id })
      .from(aibotFlows)
      .where(and(eq(aibotFlows.tenantId, tenantId), eq(aibotFlows.id, flowId), isNull(aibotFlows.deletedAt)))
  ).length > 0;

export const aiTasksByIds = (db: DbOrTx, tenantId: number, ids: number[]) =>
  queryRows<{ id: number; flow_id: number; flow_name: string; max_lines: number; assign_grades: string[]; assign_rule: string }>(
    db,
    sql`select t.id, t.flow_id, coalesce(f.name, '') as flow_name, t.max_lines, t.assign_grades, t.assign_rule
        from ${callTasks} t left join ${aibotFlows} f on f.id = t.flow_id and f.tenant_id = t.tenant_id
        where t.tenant_id = ${tenantId} and t.id = any(${intArray(ids)})`,
  );

/** The bot legs of the tasks not ended (ringing or in a call): each is one line in use. */
export const linesByTask = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  const rows = await queryRows<{ task_id: number; lines: number }>(
    db,
    sql`select r.task_id, count(*)::int as lines
        from ${callLegs} l join ${callRecords} r on r.uuid = l.call_uuid
        where r.tenant_id = ${tenantId} and r.task_id = any(${intArray(ids)}) and l.role = 'bot' and l.state < 3
        group by r.task_id`,
  );
  return new Map(rows.map((r) => [Number(r.task_id), Number(r.lines)]));
};

export const linesOf = async (db: DbOrTx, tenantId: number, taskId: number) =>
  (await linesByTask(db, tenantId, [taskId])).get(taskId) ?? 0;

export const runningAiTasks = (db: DbOrTx) =>
  db
    .select()
    .from(callTasks)
    .where(and(eq(callTasks.mode, CALLTASK_MODE_AI), eq(callTasks.status, CALLTASK_STATUS.running), isNull(callTasks.deletedAt)));

/** Takes up to `n` due numbers of the task for the bot (pending, or a redial whose time came), SKIP LOCKED. */
export const claimNumbers = (db: DbOrTx, taskId: number, n: number, at: Date) =>
  db.transaction(async (tx) => {
    const rows = await queryRows<{ id: number }>(
      tx,
      sql`select id from ${callTaskNumbers} where task_id = ${taskId} and state = ${pending}
            and (next_at is null or next_at <= ${at})
          order by next_at nulls first, seq limit ${n} for update skip locked`,
    );
    if (rows.length === 0) return [];
    return tx
      .update(callTaskNumbers)
      .set({ state: dialling, attempts: sql`${callTaskNumbers.attempts} + 1`, staffId: null, lastCallUuid: null, updatedAt: at })
      .where(sql`${callTaskNumbers.id} = any(${intArray(rows.map((r) => Number(r.id)))})`)
      .returning();
  });

/** The next agent in turn of a task (rule `agents`): the cursor moves by one in the same statement. */
export const takeAssignTurn = async (db: DbOrTx, tenantId: number, taskId: number) => {
  const [row] = await queryRows<{ turn: number }>(
    db,
    sql`update ${callTasks} set assign_cursor = assign_cursor + 1
        where tenant_id = ${tenantId} and id = ${taskId} returning assign_cursor - 1 as turn`,
  );
  return Number(row?.turn ?? 0);
};

export const emptyGrades = (): GradeCounts => ({ A: 0, B: 0, C: 0, D: 0, E: 0, failed: 0 });

export const numberById = async (db: DbOrTx, id: number) =>
  (await db.select().from(callTaskNumbers).where(eq(callTaskNumbers.id, id)))[0];

const GRADE_KEYS = ['A', 'B', 'C', 'D', 'E'] as const;

/** Grade counts per task; calls that failed for a system reason (end 'error') apart, whatever grade they hold. */
export const gradesOf = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  const rows = await queryRows<{ task_id: number; grade: string; n: number }>(
    db,
    sql`select task_id, case when "end" = ${AI_CALL_FAILED} then 'failed' else grade end as grade, count(*)::int as n
        from ${aiCalls}
        where tenant_id = ${tenantId} and source = 1 and task_id = any(${intArray(ids)}) group by 1, 2`,
  );
  const byTask = new Map<number, GradeCounts>();
  for (const r of rows) {
    const counts = byTask.get(Number(r.task_id)) ?? emptyGrades();
    if ((GRADE_KEYS as readonly string[]).includes(r.grade)) counts[r.grade as keyof GradeCounts] += Number(r.n);
    if (r.grade === 'failed') counts.failed += Number(r.n);
    byTask.set(Number(r.task_id), counts);
  }
  return byTask;
};
