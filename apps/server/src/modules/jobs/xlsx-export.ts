import ExcelJS from 'exceljs';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { storeGeneratedFile } from '../uploads/uploads.service';
import type { JobContext, JobEnv } from './jobs.service';

export type XlsxColumn = { header: string; key: string; width: number };
export type AddRow = (row: Record<string, unknown>) => void;

/** A file name has none of the characters Windows refuses. */
const safeName = (name: string) => name.replace(/[\\/:*?"<>|]/g, '_');

/**
 * The .xlsx of an export job: streamed to disk as rows come (bounded memory), one sheet with a bold
 * header row, stored as the caller's generated file `{title}_{yyyyMMddHHmm}.xlsx` (the file row is
 * written only once the whole workbook is on disk, so a crashed attempt leaves nothing). `fill` adds
 * the rows.
 */
export const writeExportXlsx = async (
  env: Pick<JobEnv, 'db' | 'dataDir'>,
  actor: Actor,
  spec: { title: string; sheet: string; columns: XlsxColumn[] },
  fill: (add: AddRow) => Promise<void>,
) => {
  const stamp = formatDateTime(new Date()).replace(/[-: ]/g, '').slice(0, 12);
  const file = await storeGeneratedFile(
    env.db,
    env.dataDir,
    actor,
    { originalName: safeName(`${spec.title}_${stamp}.xlsx`), ext: 'xlsx', scene: 'export' },
    async (fullPath) => {
      const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: fullPath, useStyles: true, useSharedStrings: false });
      const ws = wb.addWorksheet(spec.sheet);
      ws.columns = spec.columns;
      ws.getRow(1).font = { bold: true };
      await fill((row) => ws.addRow(row).commit());
      await ws.commit();
      await wb.commit();
    },
  );
  return { fileId: file.id };
};

/**
 * Reads a paged list (pages of `batch`, from 1) into the sheet until it runs out or `max` rows are
 * written, reporting progress after each page.
 */
export const addPages = async <T>(
  ctx: JobContext,
  add: AddRow,
  opts: { batch: number; max: number },
  readPage: (page: number, limit: number) => Promise<T[]>,
  toRow: (r: T) => Record<string, unknown>,
) => {
  let done = 0;
  for (let page = 1; done < opts.max; page++) {
    const list = await readPage(page, opts.batch);
    for (const r of list.slice(0, opts.max - done)) add(toRow(r));
    done += Math.min(list.length, opts.max - done);
    await ctx.progress(done);
    if (list.length < opts.batch) break;
  }
};
