/** The customer import: the preview of an uploaded .xlsx and the start of its job (customers-import-job.ts). */
import { IMPORT_MAX_ROWS, type ImportPreview, type ImportStartBody } from '@crm/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { enqueueJob, storeActor } from '../jobs/jobs.service';
import { checkUpload, requireOwnFile, saveUpload } from '../uploads/uploads.service';
import { loadTemplate } from './customer-templates.service';
import { IMPORT_JOB, type ImportPayload } from './customers-import-job';
import { IMPORTABLE, readRows, tooManyRows } from './customers-import-values';

export { buildImportTemplate } from './customers-import-template';

/** The scene of an import file: the server gives it only to a file whose preview succeeded. */
const IMPORT_SCENE = 'import';

/**
 * Reads the uploaded .xlsx and shows its headers, a sample and a suggested mapping. Only a file
 * whose preview succeeds is stored: a refused one leaves no file and no row, and importstart
 * accepts nothing else.
 */
export const importPreview = async (
  db: Db,
  dataDir: string,
  actor: Actor,
  upload: { name: string; buf: Buffer },
): Promise<ImportPreview> => {
  if (!upload.name.toLowerCase().endsWith('.xlsx')) throw new AppError('IMPORT_FILE_INVALID', '请上传 .xlsx 格式的文件');
  await checkUpload(upload.name, upload.buf);
  let headers: string[] = [];
  const sampleRows: string[][] = [];
  let rowCount = 0;
  try {
    for await (const row of readRows(upload.buf)) {
      if (headers.length === 0) {
        headers = row;
        continue;
      }
      if (row.every((c) => !c)) continue;
      rowCount++;
      if (sampleRows.length < 5) sampleRows.push(row);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('IMPORT_FILE_INVALID');
  }
  if (headers.length === 0) throw new AppError('IMPORT_FILE_INVALID', '文件中没有表头，请使用下载的模板填写');
  if (rowCount > IMPORT_MAX_ROWS) throw tooManyRows();
  const tpl = await loadTemplate(db, actor.tenantId);
  const byName = new Map(tpl.enabled.filter(IMPORTABLE).map((c) => [c.name, c.id]));
  const mapping = headers.flatMap((h, column): ImportPreview['mapping'] => {
    if (h === '客户名称') return [{ column, target: 'name' }];
    const id = byName.get(h);
    return id ? [{ column, target: id }] : [];
  });
  const saved = await saveUpload(db, dataDir, actor, { name: upload.name, buf: upload.buf, scene: IMPORT_SCENE }, 'server');
  return { fileId: saved.id, headers, sampleRows, rowCount, mapping };
};

/**
 * Imports the rows as a durable background job: each row is checked and saved in its own
 * transaction, so a bad row never stops the good ones and nothing is half-written.
 */
export const startImport = async (db: Db, _log: FastifyBaseLogger, _dataDir: string, actor: Actor, body: ImportStartBody) => {
  const row = await requireOwnFile(db, actor, body.fileId);
  if (row.scene !== IMPORT_SCENE || row.staffId !== actor.staffId) throw new AppError('NOT_FOUND', '导入文件不存在，请重新上传');
  return enqueueJob(db, actor, IMPORT_JOB, { actor: storeActor(actor), body } satisfies ImportPayload);
};
