import {
  type CascaderOption,
  DM_TYPE,
  IMPORT_MAX_ROWS,
  type ImportPreview,
  type ImportResult,
  type ImportStartBody,
  type SubmittedControl,
} from '@crm/contracts';
import { REGIONS, type Region } from '@crm/regions';
import ExcelJS from 'exceljs';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { xlsxRows } from '../../lib/xlsx-rows';
import { defineJob, enqueueJob, restoreActor, type StoredActor, storeActor } from '../jobs/jobs.service';
import { enabledLabelIdsByName } from '../labels/labels.service';
import { checkUpload, readTenantFile, requireOwnFile, saveUpload, storeGeneratedFile } from '../uploads/uploads.service';
import { parseControlValues } from './control-values';
import { type ControlRow, loadTemplate } from './customer-templates.service';
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

/** Kinds an import column can fill: files and linked companies cannot come from a spreadsheet. */
const IMPORTABLE = (c: ControlRow) =>
  ![DM_TYPE.group, DM_TYPE.staticText, DM_TYPE.file, DM_TYPE.company].includes(c.dmType as 99 | 14 | 12 | 20);
const SPLIT = /[,，、;；|]/;

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as text: dates as YYYY-MM-DD[ HH:mm:ss], rich text joined, formulas by their result. */
export const cellText = (v: ExcelJS.CellValue): string => {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) {
    const d = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    const hasTime = v.getUTCHours() || v.getUTCMinutes() || v.getUTCSeconds();
    return hasTime ? `${d} ${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}:${pad(v.getUTCSeconds())}` : d;
  }
  if (typeof v === 'object') {
    if ('richText' in v)
      return v.richText
        .map((t) => t.text)
        .join('')
        .trim();
    if ('text' in v) return String(v.text).trim();
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    return '';
  }
  return String(v).trim();
};

const SUFFIX = /(省|市|自治区|特别行政区|区|县)$/;
const matchesLabel = (r: Region, piece: string) =>
  piece.startsWith(r.label) || (r.label.length > 2 && piece.startsWith(r.label.replace(SUFFIX, '')));
const labelLength = (r: Region, piece: string) =>
  piece.startsWith(r.label) ? r.label.length : r.label.replace(SUFFIX, '').length;

/**
 * '广东省/深圳市/南山区', '广东 深圳 南山', '北京市/朝阳区' or '广东省深圳市南山区' → region codes.
 * Text that names no region comes back as itself, so the row is rejected rather than silently emptied.
 */
export const regionFromText = (text: string): string[] => {
  const pieces = text.split(/[/\s\-—]+/).filter(Boolean);
  const isJoined = pieces.length === 1;
  let rest = text.trim();
  const path: string[] = [];
  let level: Region[] = REGIONS;
  let i = 0;
  while (path.length < 3 && level.length > 0) {
    const piece = isJoined ? rest : pieces[i];
    if (!piece) break;
    const found = level.find((r) => matchesLabel(r, piece));
    if (!found) {
      // 北京 → 北京市 (a municipality's only city repeats its name): step in without consuming text.
      const only = level.length === 1 && path.length > 0 ? level[0] : undefined;
      if (only && only.children.some((r) => matchesLabel(r, piece))) {
        path.push(String(only.value));
        level = only.children;
        continue;
      }
      break;
    }
    path.push(String(found.value));
    level = found.children;
    if (isJoined) rest = piece.slice(labelLength(found, piece));
    else i++;
  }
  const consumed = isJoined ? rest.length === 0 : i >= pieces.length;
  return path.length > 0 && consumed ? path : [text];
};

const treeFromText = (tree: CascaderOption[], text: string): string[] => {
  const path: string[] = [];
  let level: CascaderOption[] | undefined = tree;
  for (const label of text
    .split('/')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const node: CascaderOption | undefined = level?.find((o) => o.label === label);
    if (!node) return [];
    path.push(node.value);
    level = node.children;
  }
  return path;
};

/** Spreadsheet text of one control → the submitted dmValue list. */
const toDmValue = (c: ControlRow, text: string, labelIds: Map<string, number>): string[] => {
  if (!text) return [];
  switch (c.dmType) {
    case DM_TYPE.multiSelect:
      return text
        .split(SPLIT)
        .map((s) => s.trim())
        .filter(Boolean);
    case DM_TYPE.address:
      return regionFromText(text);
    case DM_TYPE.customCascader:
    case DM_TYPE.cascader:
      return treeFromText(c.tree as CascaderOption[], text);
    case DM_TYPE.tags:
      return text
        .split(SPLIT)
        .map((s) => labelIds.get(s.trim()))
        .filter((id): id is number => id !== undefined)
        .map(String);
    case DM_TYPE.date:
      return [text.slice(0, 10)];
    default:
      return [text];
  }
};

/** The .xlsx template built from the company's customer form. */
export const buildImportTemplate = async (db: Db, actor: Actor): Promise<Buffer> => {
  const tpl = await loadTemplate(db, actor.tenantId);
  const controls = tpl.enabled.filter(IMPORTABLE);
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('客户');
  ws.columns = [{ header: '客户名称', width: 28 }, ...controls.map((c) => ({ header: c.name, width: 18 }))];
  ws.getRow(1).font = { bold: true };
  const help = wb.addWorksheet('填写说明');
  help.columns = [
    { header: '列名', width: 16 },
    { header: '是否必填', width: 10 },
    { header: '填写说明', width: 80 },
  ];
  help.getRow(1).font = { bold: true };
  help.addRow(['客户名称', tpl.isMustName ? '必填' : '选填', '最多50个字符']);
  for (const c of controls) {
    let hint = '最多50个字符';
    if (c.dmType === DM_TYPE.textarea) hint = '最多500个字符';
    if (c.dmType === DM_TYPE.integer) hint = '整数';
    if (c.dmType === DM_TYPE.number) hint = '数字';
    if (c.dmType === DM_TYPE.date) hint = '日期，如 2026-01-31';
    if (c.dmType === DM_TYPE.datetime) hint = '日期时间，如 2026-01-31 09:30';
    if (c.dmType === DM_TYPE.phone) hint = '手机或座机，如 13812345678、010-12345678';
    if (c.dmType === DM_TYPE.select || c.dmType === DM_TYPE.selectByText) hint = `可选：${c.options.join('、')}`;
    if (c.dmType === DM_TYPE.multiSelect) hint = `可选（多个用逗号分隔）：${c.options.join('、')}`;
    if (c.dmType === DM_TYPE.address) hint = '省/市/区，如 广东省/深圳市/南山区';
    if (TREE(c)) hint = '级联选项用 / 分隔，如 一级/二级';
    if (c.dmType === DM_TYPE.tags) hint = '标签名称，多个用逗号分隔';
    help.addRow([c.name, c.dmMust ? '必填' : '选填', `${hint}${c.isJudge ? '；不能与已有客户重复' : ''}`]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
};
const TREE = (c: ControlRow) => c.dmType === DM_TYPE.customCascader || c.dmType === DM_TYPE.cascader;

const tooManyRows = () => new AppError('IMPORT_FILE_INVALID', `单次最多导入${IMPORT_MAX_ROWS}条客户`);

/**
 * The rows of the first worksheet as texts, row by row, within XLSX_LIMITS. Reading stops at the
 * row after the header and IMPORT_MAX_ROWS rows (blank rows count: each costs reading).
 */
async function* readRows(buf: Buffer): AsyncGenerator<string[]> {
  for await (const values of xlsxRows(buf, { maxRows: IMPORT_MAX_ROWS + 1, tooManyRows })) yield values.map(cellText);
}

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

type ImportPayload = { actor: StoredActor; body: ImportStartBody };

/**
 * Imports the rows as a durable background job: each row is checked and saved in its own
 * transaction, so a bad row never stops the good ones and nothing is half-written.
 */
export const startImport = async (db: Db, _log: FastifyBaseLogger, _dataDir: string, actor: Actor, body: ImportStartBody) => {
  const row = await requireOwnFile(db, actor, body.fileId);
  if (row.scene !== IMPORT_SCENE || row.staffId !== actor.staffId) throw new AppError('NOT_FOUND', '导入文件不存在，请重新上传');
  return enqueueJob(db, actor, 'import', { actor: storeActor(actor), body } satisfies ImportPayload);
};

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
defineJob<ImportPayload>('import', {
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
