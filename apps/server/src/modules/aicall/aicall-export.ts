import type { AicallCallsBody } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import type { CallRuntime } from '../calls/call-bus';
import { defineExportJob, pagedRows } from '../jobs/xlsx-export';
import { listAiCallRows } from './aicall-calls';
import { requireAiTask } from './aicall-tasks.service';

const BATCH = 100;
/** the most calls one export writes */
const EXPORT_ROWS = 100_000;

const startExport = defineExportJob<{ cmStid: number; taskName: string }>(
  'aicall-export',
  async (db, actor, { cmStid, taskName }) => {
    const body = (page: number): AicallCallsBody => ({ page, limit: BATCH, cmStid, source: 1 });
    // the list reads the database only (the job runs wherever the queue puts it, with no line)
    const rt = { db } as Pick<CallRuntime, 'db'> as CallRuntime;
    const first = await listAiCallRows(rt, actor, body(1));
    return {
      title: `AI外呼_${taskName}`,
      sheet: 'AI通话',
      columns: [
        { header: '通话编号', key: 'id', width: 10 },
        { header: '客户名称', key: 'name', width: 24 },
        { header: '号码', key: 'phone', width: 16 },
        { header: '开始时间', key: 'start', width: 20 },
        { header: '通话时长(秒)', key: 'duration', width: 12 },
        { header: '意向等级', key: 'grade', width: 10 },
        { header: '得分', key: 'score', width: 8 },
        { header: '对话轮次', key: 'rounds', width: 10 },
        { header: '结束方式', key: 'end', width: 14 },
        { header: '话术', key: 'flow', width: 20 },
        { header: '话术版本', key: 'version', width: 10 },
      ],
      total: Math.min(first.count, EXPORT_ROWS),
      rows: pagedRows(
        { batch: BATCH, max: EXPORT_ROWS },
        (page) => (page === 1 ? Promise.resolve(first) : listAiCallRows(rt, actor, body(page))).then((r) => r.list),
        (r) => ({
          id: r.id,
          name: r.name,
          phone: r.phone,
          start: r.call_starttime,
          duration: r.duration_time,
          grade: r.grade,
          score: r.score,
          rounds: r.rounds,
          end: r.endName,
          flow: r.flowName,
          version: r.flowVersion,
        }),
      ),
    };
  },
);

/**
 * aicall/export: a task's AI calls as .xlsx, a durable job like the other exports. Rows come from
 * the AI call list (aicall/calls) as the caller sees it, numbers masked as there.
 */
export const startAiTaskExport = async (db: Db, actor: Actor, cmStid: number) => {
  const task = await requireAiTask(db, actor, cmStid);
  return startExport(db, actor, { cmStid, taskName: task.name });
};
