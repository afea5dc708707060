import type { JobInfo } from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { writeXlsxFile, type XlsxColumn, type XlsxRow } from '../../lib/xlsx-writer';
import { storeGeneratedFile } from '../uploads/uploads.service';
import { defineJob, enqueueJob, type JobContext, restoreActor, type StoredActor, storeActor } from './jobs.service';

export type { XlsxColumn, XlsxRow };

/** What an exporter gives the one export path: its sheet, the rows to expect, and the rows in batches. */
export type ExportPlan = {
  /** the file is `{title}_{yyyyMMddHHmm}.xlsx` */
  title: string;
  sheet: string;
  columns: XlsxColumn[];
  /** the job's total, shown while it runs */
  total: number;
  /** the rows in order, read batch by batch as the sheet is written (progress after each batch) */
  rows: AsyncIterable<XlsxRow[]>;
};

/** A file name has none of the characters Windows refuses. */
const safeName = (name: string) => name.replace(/[\\/:*?"<>|]/g, '_');

/**
 * The .xlsx of an export job: streamed to disk as rows come (lib/xlsx-writer: about one batch in
 * memory whatever the number of rows), one sheet with a bold header row, stored as the caller's
 * generated file `{title}_{yyyyMMddHHmm}.xlsx` (the file row is written only once the whole
 * workbook is on disk, so a crashed attempt leaves nothing).
 */
const writeExportXlsx = async (
  env: { db: Db; dataDir: string },
  actor: Actor,
  spec: { title: string; sheet: string; columns: XlsxColumn[] },
  rows: AsyncIterable<XlsxRow[]>,
) => {
  const stamp = formatDateTime(new Date()).replace(/[-: ]/g, '').slice(0, 12);
  const file = await storeGeneratedFile(
    env.db,
    env.dataDir,
    actor,
    { originalName: safeName(`${spec.title}_${stamp}.xlsx`), ext: 'xlsx', scene: 'export' },
    (fullPath) => writeXlsxFile(fullPath, spec, rows),
  );
  return { fileId: file.id };
};

/** The batches as they come, reporting the count written after each one (once the writer asks for the next). */
export async function* withProgress(ctx: Pick<JobContext, 'progress'>, rows: AsyncIterable<XlsxRow[]>) {
  let done = 0;
  for await (const batch of rows) {
    yield batch;
    done += batch.length;
    await ctx.progress(done);
  }
}

/**
 * The one path of an export: a durable job of `kind` (any instance runs it; after a crash it simply
 * starts again and writes a fresh file, the file row being written only once the whole workbook is
 * stored). `plan` reads the list as the caller sees it now; the caller polls the job (GET
 * customer/job) and downloads its file. Returns what starts the job: it stores the caller and the
 * payload as plain JSON and answers the job id at once.
 */
export const defineExportJob = <P extends object>(
  kind: JobInfo['kind'],
  plan: (db: Db, actor: Actor, payload: P) => Promise<ExportPlan>,
) => {
  defineJob<P & { actor: StoredActor }>(kind, {
    onCrash: 'resume',
    run: async ({ db, dataDir }, ctx, { actor: stored, ...payload }) => {
      const actor = restoreActor(stored);
      const p = await plan(db, actor, payload as unknown as P);
      await ctx.setTotal(p.total);
      return writeExportXlsx({ db, dataDir }, actor, p, withProgress(ctx, p.rows));
    },
  });
  return (db: Db, actor: Actor, payload: P) => enqueueJob(db, actor, kind, { actor: storeActor(actor), ...payload });
};

/**
 * A paged list read in pages of `batch` (from 1) until it runs out or `max` rows are given: each
 * page's rows as one batch.
 */
export async function* pagedRows<T>(
  opts: { batch: number; max: number },
  readPage: (page: number, limit: number) => Promise<T[]>,
  toRow: (r: T) => XlsxRow,
): AsyncGenerator<XlsxRow[]> {
  let done = 0;
  for (let page = 1; done < opts.max; page++) {
    const list = await readPage(page, opts.batch);
    const taken = list.slice(0, opts.max - done);
    yield taken.map(toRow);
    done += taken.length;
    if (list.length < opts.batch) break;
  }
}

/**
 * A list read in id order, `batch` rows after the last id each time (keyset), until a read finds
 * none: `present` turns each read into its rows.
 */
export async function* keysetRows<T>(
  batch: number,
  readBatch: (afterId: number, limit: number) => Promise<T[]>,
  idOf: (r: T) => number,
  present: (list: T[]) => Promise<XlsxRow[]>,
): AsyncGenerator<XlsxRow[]> {
  let afterId = 0;
  for (;;) {
    const list = await readBatch(afterId, batch);
    if (list.length === 0) return;
    yield await present(list);
    afterId = idOf(list[list.length - 1]);
  }
}
