import type { AicallCallsBody } from '@crm/contracts';
import ExcelJS from 'exceljs';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import type { CallRuntime } from '../calls/call-bus';
import { defineJob, enqueueJob, restoreActor, type StoredActor, storeActor } from '../jobs/jobs.service';
import { storeGeneratedFile } from '../uploads/uploads.service';
import { listAiCallRows } from './aicall-calls';
import { requireAiTask } from './aicall-tasks.service';

const BATCH = 100;
/** the most calls one export writes */
const EXPORT_ROWS = 100_000;
type ExportPayload = { actor: StoredActor; cmStid: number; taskName: string };

/**
 * aicall/export: a task's AI calls as .xlsx, a durable job like the other exports. Rows come from
 * the AI call list (aicall/calls) as the caller sees it, numbers masked as there.
 */
export const startAiTaskExport = async (db: Db, actor: Actor, cmStid: number) => {
  const task = await requireAiTask(db, actor, cmStid);
  return enqueueJob(db, actor, 'aicall-export', {
    actor: storeActor(actor),
    cmStid,
    taskName: task.name,
  } satisfies ExportPayload);
};

defineJob<ExportPayload>('aicall-export', {
  onCrash: 'resume',
  run: async ({ db, dataDir }, ctx, { actor: stored, cmStid, taskName }) => {
    const actor = restoreActor(stored);
    const body = (page: number): AicallCallsBody => ({ page, limit: BATCH, cmStid, source: 1 });
    // the list reads the database only (the job runs wherever the queue puts it, with no line)
    const rt = { db } as Pick<CallRuntime, 'db'> as CallRuntime;
    const first = await listAiCallRows(rt, actor, body(1));
    await ctx.setTotal(Math.min(first.count, EXPORT_ROWS));
    const stamp = formatDateTime(new Date()).replace(/[-: ]/g, '').slice(0, 12);
    const file = await storeGeneratedFile(
      db,
      dataDir,
      actor,
      { originalName: `AI外呼_${taskName}_${stamp}.xlsx`.replace(/[\\/:*?"<>|]/g, '_'), ext: 'xlsx', scene: 'export' },
      async (fullPath) => {
        const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: fullPath, useStyles: true, useSharedStrings: false });
        const ws = wb.addWorksheet('AI通话');
        ws.columns = [
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
        ];
        ws.getRow(1).font = { bold: true };
        let done = 0;
        for (let page = 1; done < EXPORT_ROWS; page++) {
          const { list } = page === 1 ? first : await listAiCallRows(rt, actor, body(page));
          if (list.length === 0) break;
          for (const r of list) {
            ws.addRow({
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
            }).commit();
          }
          done += list.length;
          await ctx.progress(done);
          if (list.length < BATCH) break;
        }
        await ws.commit();
        await wb.commit();
      },
    );
    return { fileId: file.id };
  },
});
