import {
  BLACK_LIMITS,
  type BlackCheckBody,
  type BlackCheckResult,
  type BlackFile,
  type BlackFileCreateBody,
  type BlackFileEditBody,
  type BlackFileListQuery,
  type BlackNumber,
  type BlackNumberCreateBody,
  type BlackNumberListQuery,
  type ListData,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { loadExcel } from '../../lib/lazy-packages';
import { normalisePhone } from '../../lib/phone';
import { formatDateTime, parseDateTime } from '../../lib/time';
import { staffNames } from '../staff/staff-lookup';
import { readNumberFileTokens, textTokens } from '../uploads/number-file';
import { storeGeneratedFile } from '../uploads/uploads.service';
import * as repo from './blacklist.repo';

/** Is this normalised number blacklisted for the company (dialing, SPEC §8 code 100011)? */
export const isNumberBlacklisted = async (db: DbOrTx, tenantId: number, phone: string) =>
  (await repo.blacklistedAmong(db, tenantId, [phone])).has(phone);

/** Which of these normalised numbers are blacklisted (seat tasks leave them out at import). */
export const blacklistedNumbers = (db: DbOrTx, tenantId: number, phones: string[]) => repo.blacklistedAmong(db, tenantId, phones);

type NumberList = { valid: string[]; invalid: string[]; total: number };

const classify = (tokens: Iterable<string>): NumberList => {
  const seen = new Set<string>();
  const invalid: string[] = [];
  let total = 0;
  for (const token of tokens) {
    total++;
    if (total > BLACK_LIMITS.checkMaxNumbers) throw new AppError('BLACK_TOO_MANY');
    const n = normalisePhone(token);
    if (n) seen.add(n.phone);
    else invalid.push(token);
  }
  return { valid: [...seen], invalid, total };
};

/** Reads the numbers of an uploaded .xlsx or .txt of the tenant. */
const readNumberFile = async (db: Db, dataDir: string, actor: Actor, fileId: number): Promise<NumberList> =>
  classify(
    await readNumberFileTokens(db, dataDir, actor, fileId, {
      maxTokens: BLACK_LIMITS.checkMaxNumbers,
      tooMany: () => new AppError('BLACK_TOO_MANY'),
      tooManyRows: () => new AppError('BLACK_TOO_MANY', '文件行数超出上限（20万行）'),
    }),
  );

const dayStart = (s?: string) => (s ? (parseDateTime(s.length === 10 ? `${s} 00:00:00` : s) ?? undefined) : undefined);
const dayEnd = (s?: string) => (s ? (parseDateTime(s.length === 10 ? `${s} 23:59:59` : s) ?? undefined) : undefined);

/** black/file/list */
export const listFiles = async (db: Db, actor: Actor, q: BlackFileListQuery): Promise<ListData<BlackFile>> => {
  const f: repo.FileFilter = {
    tenantId: actor.tenantId,
    name: q.name?.trim(),
    dmState: q.dmState,
    from: dayStart(q.createStartTime),
    to: dayEnd(q.createEndTime),
  };
  const [rows, n] = await Promise.all([repo.listFiles(db, f, q.limit, (q.page - 1) * q.limit), repo.countFiles(db, f)]);
  const names = await staffNames(
    db,
    actor.tenantId,
    rows.map((r) => r.file.staffId),
  );
  return {
    count: n,
    list: rows.map(({ file }) => ({
      cmBfid: file.id,
      name: file.name,
      dmState: file.dmState,
      numberCount: file.numberCount,
      invalidCount: file.invalidCount,
      cmSidName: names.get(file.staffId) ?? '',
      createTime: formatDateTime(file.createdAt),
    })),
  };
};

/** black/file/create: imports the numbers of an uploaded .xlsx/.txt as a blacklist file. */
export const createFile = async (db: Db, dataDir: string, actor: Actor, body: BlackFileCreateBody): Promise<number> => {
  const list = await readNumberFile(db, dataDir, actor, body.fileId);
  if (list.valid.length === 0) throw new AppError('BLACK_FILE_EMPTY');
  const at = now();
  return db.transaction(async (tx) => {
    const id = await repo.insertFile(tx, {
      tenantId: actor.tenantId,
      name: body.name,
      numberCount: list.valid.length,
      invalidCount: list.invalid.length,
      staffId: actor.staffId,
      createdAt: at,
    });
    await repo.insertNumbers(
      tx,
      list.valid.map((phone) => ({
        tenantId: actor.tenantId,
        fileId: id,
        phone,
        remark: '',
        staffId: actor.staffId,
        createdAt: at,
      })),
    );
    return id;
  });
};

const requireFile = async (db: DbOrTx, actor: Actor, id: number) => {
  const file = await repo.findFile(db, actor.tenantId, id);
  if (!file) throw new AppError('BLACK_FILE_NOT_FOUND');
  return file;
};

export const editFile = async (db: Db, actor: Actor, body: BlackFileEditBody): Promise<void> => {
  const file = await requireFile(db, actor, body.cmBfid);
  await repo.updateFile(db, actor.tenantId, file.id, { name: body.name, dmState: body.dmState });
};

export const deleteFile = async (db: Db, actor: Actor, id: number): Promise<void> => {
  const file = await requireFile(db, actor, id);
  await db.transaction(async (tx) => {
    await repo.updateFile(tx, actor.tenantId, file.id, { deletedAt: now() });
    await repo.deleteFileNumbers(tx, actor.tenantId, file.id);
  });
};

/** black/number/list: the numbers of a file, or the manual entries (cmBfid 0). */
export const listNumbers = async (db: Db, actor: Actor, q: BlackNumberListQuery): Promise<ListData<BlackNumber>> => {
  const fileId = q.cmBfid ?? 0;
  if (fileId) await requireFile(db, actor, fileId);
  const f: repo.NumberFilter = { tenantId: actor.tenantId, fileId, phone: q.phone?.replace(/\D/g, '') };
  const [rows, n] = await Promise.all([repo.listNumbers(db, f, q.limit, (q.page - 1) * q.limit), repo.countNumbers(db, f)]);
  const names = await staffNames(
    db,
    actor.tenantId,
    rows.map((r) => r.n.staffId),
  );
  return {
    count: n,
    list: rows.map(({ n: r }) => ({
      id: r.id,
      cmBfid: r.fileId,
      phone: r.phone,
      remark: r.remark,
      cmSidName: names.get(r.staffId) ?? '',
      createTime: formatDateTime(r.createdAt),
    })),
  };
};

/** black/number/create: a manual entry. */
export const createNumber = async (db: Db, actor: Actor, body: BlackNumberCreateBody): Promise<void> => {
  const n = normalisePhone(body.phone);
  if (!n) throw new AppError('BLACK_NUMBER_INVALID');
  if (await repo.manualNumberExists(db, actor.tenantId, n.phone)) throw new AppError('BLACK_NUMBER_EXISTS');
  await repo.insertNumbers(db, [
    { tenantId: actor.tenantId, fileId: 0, phone: n.phone, remark: body.remark, staffId: actor.staffId, createdAt: now() },
  ]);
};

export const deleteNumbers = async (db: Db, actor: Actor, ids: number[]): Promise<number> =>
  db.transaction(async (tx) => {
    const { count, fileIds } = await repo.deleteNumbers(tx, actor.tenantId, ids);
    for (const fileId of fileIds) if (fileId) await repo.recountFile(tx, actor.tenantId, fileId);
    return count;
  });

/**
 * black/check (/call/blackcheck): filters a number list against the company's blacklist and
 * writes the result workbook (可拨打号码, 黑名单号码, 无效号码) for download by its creator.
 */
export const checkNumbers = async (db: Db, dataDir: string, actor: Actor, body: BlackCheckBody): Promise<BlackCheckResult> => {
  const list = body.fileId ? await readNumberFile(db, dataDir, actor, body.fileId) : classify(textTokens(body.numbers ?? ''));
  const black = await repo.blacklistedAmong(db, actor.tenantId, list.valid);
  const clean = list.valid.filter((p) => !black.has(p));
  const blacklisted = list.valid.filter((p) => black.has(p));
  const stamp = formatDateTime(now()).replace(/[-: ]/g, '').slice(0, 12);
  const file = await storeGeneratedFile(
    db,
    dataDir,
    actor,
    { originalName: `黑名单检测结果_${stamp}.xlsx`, ext: 'xlsx', scene: 'export' },
    async (fullPath) => {
      const ExcelJS = await loadExcel();
      const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: fullPath, useStyles: true, useSharedStrings: false });
      const sheets: [string, string[]][] = [
        ['可拨打号码', clean],
        ['黑名单号码', blacklisted],
        ['无效号码', list.invalid],
      ];
      for (const [name, numbers] of sheets) {
        const ws = wb.addWorksheet(name);
        ws.columns = [{ header: '号码', key: 'phone', width: 20 }];
        ws.getRow(1).font = { bold: true };
        for (const phone of numbers) ws.addRow({ phone }).commit();
        await ws.commit();
      }
      await wb.commit();
    },
  );
  return {
    total: list.total,
    cleanCount: clean.length,
    blackCount: blacklisted.length,
    invalidCount: list.invalid.length,
    blackSample: blacklisted.slice(0, 20),
    url: file.url,
  };
};
