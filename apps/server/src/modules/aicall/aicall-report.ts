import { AI_CALL_FAILED, type AicallReport } from '@crm/contracts';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { aiCalls } from '../../db/schema';
import type { Actor } from '../../lib/auth-context';
import { emptyGrades, gradesOf } from './aicall-tasks.repo';
import { requireAiTask } from './aicall-tasks.service';

// The figures of AI tasks (issue 16), every one counted from the task's AI calls (ai_calls, one row
// per bot leg placed: connected or not, grade E), never kept apart: called, connected (the bot
// talked), connect rate, average talk seconds and rounds of the connected calls, 转人工, the grade
// split, and per Beijing day called / connected / A / B for the charts. A call that failed for a
// system reason (end 'error', 系统异常) is called but neither connected nor graded: the split
// counts it apart (grades.failed, issue 22).

const round1 = (v: number) => Math.round(v * 10) / 10;
type Totals = { called: number; connected: number; duration: number; rounds: number; transferred: number };

export const aiTaskReport = async (db: Db, actor: Actor, id: number): Promise<AicallReport> => {
  await requireAiTask(db, actor, id);
  const where = sql`tenant_id = ${actor.tenantId} and source = 1 and task_id = ${id}`;
  const connected = sql`"end" not in ('not_connected', ${AI_CALL_FAILED})`;
  const [[totals], grades, days] = await Promise.all([
    queryRows<Totals>(
      db,
      sql`select count(*)::int as called, count(*) filter (where ${connected})::int as connected,
            coalesce(avg(duration) filter (where ${connected}), 0)::float as duration,
            coalesce(avg(rounds) filter (where ${connected}), 0)::float as rounds,
            count(*) filter (where "end" = 'transfer')::int as transferred
          from ${aiCalls} where ${where}`,
    ),
    gradesOf(db, actor.tenantId, [id]),
    queryRows<{ day: string; called: number; connected: number; a: number; b: number }>(
      db,
      sql`select to_char(started_at at time zone 'Asia/Shanghai', 'YYYY-MM-DD') as day, count(*)::int as called,
            count(*) filter (where ${connected})::int as connected,
            count(*) filter (where grade = 'A')::int as a, count(*) filter (where grade = 'B')::int as b
          from ${aiCalls} where ${where} group by 1 order by 1`,
    ),
  ]);
  const called = Number(totals?.called ?? 0);
  const conn = Number(totals?.connected ?? 0);
  return {
    cmStid: id,
    called,
    connected: conn,
    connectRate: called > 0 ? round1((conn * 100) / called) : 0,
    avgDuration: round1(Number(totals?.duration ?? 0)),
    avgRounds: round1(Number(totals?.rounds ?? 0)),
    transferred: Number(totals?.transferred ?? 0),
    grades: grades.get(id) ?? emptyGrades(),
    days: days.map((d) => ({
      day: d.day,
      called: Number(d.called),
      connected: Number(d.connected),
      a: Number(d.a),
      b: Number(d.b),
    })),
  };
};
