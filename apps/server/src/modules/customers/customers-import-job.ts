/** The import job: each row checked and saved in its own transaction, resumable after a crash, rejected rows reported in an .xlsx. */
import type { ImportResult, ImportStartBody, SubmittedControl } from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import { loadExcel } from '../../lib/lazy-packages';
import { formatDateTime } from '../../lib/time';
import { defineJob, restoreActor, type StoredActor } from '../jobs/jobs.service';
import { enabledLabelIdsByName } from '../labels/labels.service';
import { readTenantFile, storeGeneratedFile } from '../uploads/uploads.service';
import { parseControlValues } from './control-values';
import { loadTemplate } from './customer-templates.service';
import * as repo from './customers.repo';
import {
  canSee,
  checkName,
  duplicateMessage,
  findDuplicate,
  insertParsedCustomer,
  mergeIntoCustomer,
  viewerOf,
} from './customers.service';
import { IMPORTABLE, readRows, toDmValue } from './customers-import-values';

/** The job's name in the queue. */
export const IMPORT_JOB = 'import';

export type ImportPayload = { actor: StoredActor; body: ImportStartBody };

/** The counts after one more row's outcome (the row's checkpoint is written with its commit). */
const tally = (r: ImportResult, outcome: string, rowNo: number): ImportResult => {
  if (outcome === 'created') return { ...r, created: r.created + 1 };
  if (outcome === 'updated') return { ...r, updated: r.updated + 1 };
  const reasons = [...r.reasons];
  if (outcome.startsWith('skip:')) {
    if (reasons.length < 500) reasons.push({ row: rowNo, reason: `已跳过：${outcome.slice(5)}` });
    return { ...r, skipped: r.skipped + 1, reasons };
  }
  if (reasons.length < 500) reasons.push({ row: rowNo, reason: outcome.slice(7) });
  return { ...r, rejected: r.rejected + 1, reasons };
};

/**
 * The import job. Each row's outcome and the count so far are committed together, so after a
 * crash the next attempt resumes after the last committed row: no row twice, none lost.
 */
defineJob<ImportPayload>(IMPORT_JOB, {
  onCrash: 'resume',
  run: async ({ db, dataDir }, ctx, payload) => {
    const actor = restoreActor(payload.actor);
    const { body } = payload;
    const tpl = await loadTemplate(db, actor.tenantId);
    const v = await viewerOf(db, actor);
    const controls = new Map(tpl.enabled.filter(IMPORTABLE).map((c) => [c.id, c]));
    const labelIds = await enabledLabelIdsByName(db, actor.tenantId);
    let result: ImportResult = { created: 0, updated: 0, skipped: 0, rejected: 0, reasons: [] };
    const rejectedRows: { row: number; cells: string[]; reason: string }[] = [];
    // resumed: the rows up to the checkpoint are done; their rejections (the first 500) go to the report again
    const done = ctx.resume?.processed ?? 0;
    if (ctx.resume?.result) result = ctx.resume.result as ImportResult;
    const earlier = new Map(result.reasons.filter((r) => !r.reason.startsWith('已跳过：')).map((r) => [r.row, r.reason]));
    let headers: string[] = [];
    let rowNo = 1;
    let total = 0;
    // The upload is at most 20 MB: read once, both passes parse the same bytes.
    const { buf: content } = await readTenantFile(db, dataDir, actor, body.fileId);
    for await (const _ of readRows(content)) total++;
    await ctx.setTotal(Math.max(0, total - 1));
    const reject = async (cells: string[], reason: string) => {
      result = tally(result, `reject:${reason}`, rowNo);
      rejectedRows.push({ row: rowNo, cells, reason });
      await ctx.checkpoint(db, rowNo - 1, result);
    };
    for await (const cells of readRows(content)) {
      if (headers.length === 0) {
        headers = cells;
        continue;
      }
      rowNo++;
      if (rowNo - 1 <= done) {
        const reason = earlier.get(rowNo);
        if (reason !== undefined) rejectedRows.push({ row: rowNo, cells, reason });
        continue;
      }
      if (cells.every((c) => !c)) continue;
      let name = '';
      const submitted: SubmittedControl[] = [];
      for (const m of body.mapping) {
        const text = (cells[m.column] ?? '').trim();
        if (m.target === 'name') name = text;
        else {
          const c = controls.get(m.target);
          if (c) submitted.push({ cbTacid: c.id, dmValue: toDmValue(c, text, labelIds) });
        }
      }
      if (name.length > 50) {
        await reject(cells, '客户名称最多50个字符');
        continue;
      }
      const parsed = parseControlValues(tpl.enabled, submitted, { isPartial: false });
      if (!parsed.ok) {
        await reject(cells, parsed.msg);
        continue;
      }
      try {
        const outcome = await db.transaction(async (tx) => {
          const decide = async (): Promise<string> => {
            const dup = await findDuplicate(tx, actor.tenantId, tpl, parsed.value, 0);
            if (!dup) {
              await checkName(tx, actor, tpl, name, 0);
              await insertParsedCustomer(tx, actor, tpl, name, parsed.value);
              return 'created';
            }
            if (body.duplicateMode === 'skip') return `skip:${duplicateMessage(v, dup)}`;
            const current = await repo.findCustomer(tx, actor.tenantId, dup.other.id);
            if (!current || !canSee(v, current)) return `reject:${duplicateMessage(v, dup)}，无权覆盖`;
            // The customer being overwritten does not clash with its own name.
            if (name) await checkName(tx, actor, tpl, name, current.id);
            await mergeIntoCustomer(tx, actor, tpl, current, name, parsed.value);
            return 'updated';
          };
          const decided = await decide();
          await ctx.checkpoint(tx, rowNo - 1, tally(result, decided, rowNo));
          return decided;
        });
        result = tally(result, outcome, rowNo);
        if (outcome.startsWith('reject:')) rejectedRows.push({ row: rowNo, cells, reason: outcome.slice(7) });
      } catch (err) {
        if (err instanceof AppError) await reject(cells, err.message);
        else throw err;
      }
    }
    let fileId: number | null = null;
    if (rejectedRows.length > 0) {
      const stamp = formatDateTime(new Date()).replace(/[-: ]/g, '').slice(0, 12);
      const file = await storeGeneratedFile(
        db,
        dataDir,
        actor,
        { originalName: `导入失败数据_${stamp}.xlsx`, ext: 'xlsx', scene: 'import-report' },
        async (fullPath) => {
          const ExcelJS = await loadExcel();
          const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: fullPath, useStyles: true });
          const ws = wb.addWorksheet('失败数据');
          ws.addRow(['行号', ...headers, '失败原因']).commit();
          for (const r of rejectedRows) ws.addRow([r.row, ...r.cells, r.reason]).commit();
          await ws.commit();
          await wb.commit();
        },
      );
      fileId = file.id;
    }
    return { fileId, result };
  },
});
