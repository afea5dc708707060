import { AI_CALL_FAILED, type GradeCounts } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { aiCalls } from '../../db/schema';
import { intArray } from '../pools/pools-for-tasks';

// The SQL of AI tasks (issue 16): the grades of their AI calls. The tasks and their numbers are the
// task core's (calltasks/task-core.ts), the bot legs in use the calls module's (calls/calls-for-tasks.ts).

export const emptyGrades = (): GradeCounts => ({ A: 0, B: 0, C: 0, D: 0, E: 0, failed: 0 });

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
