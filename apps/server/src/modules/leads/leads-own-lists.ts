/**
 * A company's own lists (自有名单): an .xlsx imported through the bounded reader into the registry
 * table as rows of that company only (tenant_id = the company, list_id = the list). Every search
 * of that company shows them (`isOwn`); no other company ever does.
 */
import { LEAD_LIMITS, LEAD_SOURCE, type PageQuery } from '@crm/contracts';
import type ExcelJS from 'exceljs';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { cellText } from '../../lib/xlsx-cells';
import { xlsxRows } from '../../lib/xlsx-rows';
import { staffNames } from '../staff/staff-lookup';
import { readTenantFile } from '../uploads/uploads.service';
import { cleanCreditCode, creditCodeRegion, isValidCreditCode } from './credit-code';
import { normalizeName } from './lead-names';
import * as repo from './leads.repo';
import * as data from './leads-data.repo';
import { isMobile } from './leads-presenter';
import { regionPathOf } from './leads-registry';

const COLUMNS: Record<string, string> = {
  企业名称: 'name',
  公司名称: 'name',
  统一社会信用代码: 'creditCode',
  法定代表人: 'legalRep',
  电话: 'phones',
  联系电话: 'phones',
  地址: 'address',
  '注册资本（万元）': 'capitalWan',
  '注册资本(万元)': 'capitalWan',
  成立日期: 'foundedOn',
};

const dateText = (v: ExcelJS.CellValue) => {
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  const m = cellText(v)
    .trim()
    .replace(/[/.年月]/g, '-')
    .replace(/日$/, '')
    .match(/^(\d{4})-(\d{1,2})-(\d{1,2})$/);
  return m ? `${m[1]}-${(m[2] as string).padStart(2, '0')}-${(m[3] as string).padStart(2, '0')}` : null;
};

/** POST kqhk/own/import */
export const importOwnList = async (db: Db, dataDir: string, actor: Actor, body: { name: string; fileId: number }) => {
  const { buf, row: file } = await readTenantFile(db, dataDir, actor, body.fileId);
  if (!/\.xlsx$/i.test(file.storedName)) throw new AppError('LEAD_FILE_UNREADABLE');
  const tooMany = () => new AppError('LEAD_BATCH_TOO_MANY', `名单最多${LEAD_LIMITS.ownListMaxRows}行`);
  const rows: repo.LeadInsert[] = [];
  const reasons: { row: number; reason: string }[] = [];
  let header: (string | undefined)[] | null = null;
  let line = 0;
  const at = new Date();
  try {
    for await (const values of xlsxRows(buf, { maxRows: LEAD_LIMITS.ownListMaxRows + 1, tooManyRows: tooMany })) {
      line++;
      if (!header) {
        header = values.map((v) => COLUMNS[cellText(v).trim()]);
        if (!header.includes('name')) throw new AppError('LEAD_OWN_LIST_EMPTY');
        continue;
      }
      const get = (field: string) => {
        const i = (header as (string | undefined)[]).indexOf(field);
        return i < 0 ? null : (values[i] ?? null);
      };
      const name = cellText(get('name')).trim().slice(0, 100);
      if (!name) {
        if (values.some((v) => cellText(v).trim())) reasons.push({ row: line, reason: '企业名称为空' });
        continue;
      }
      const code = cleanCreditCode(cellText(get('creditCode')));
      if (code && !isValidCreditCode(code)) {
        reasons.push({ row: line, reason: '统一社会信用代码不正确' });
        continue;
      }
      const phones = cellText(get('phones'))
        .split(/[,，;；/、\s]+/)
        .map((p) => p.trim())
        .filter(Boolean)
        .slice(0, 10);
      const capital = Math.floor(Number(cellText(get('capitalWan')).replace(/[^\d.]/g, '')) || 0);
      rows.push({
        tenantId: actor.tenantId,
        creditCode: code || null,
        name,
        nameNorm: normalizeName(name),
        legalRep: cellText(get('legalRep')).trim().slice(0, 50),
        ...(code ? regionPathOf(creditCodeRegion(code)) : {}),
        capitalWan: Math.min(capital, 100_000_000),
        foundedOn: dateText(get('foundedOn')),
        address: cellText(get('address')).trim().slice(0, 200),
        phones,
        hasPhone: phones.length > 0,
        hasMobile: phones.some(isMobile),
        source: LEAD_SOURCE.import,
        fetchedAt: at,
        raw: {},
      });
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('LEAD_FILE_UNREADABLE');
  }
  if (rows.length === 0) throw new AppError('LEAD_OWN_LIST_EMPTY');
  const id = await db.transaction(async (tx) => {
    const listId = await data.insertList(tx, {
      tenantId: actor.tenantId,
      name: body.name,
      rowCount: rows.length,
      staffId: actor.staffId,
    });
    await repo.insertOwnRows(
      tx,
      rows.map((r) => ({ ...r, listId })),
    );
    return listId;
  });
  return { id, imported: rows.length, rejected: reasons.length, reasons: reasons.slice(0, 200) };
};

/** GET kqhk/own/list: newest first, with who imported each list and when. */
export const ownLists = async (db: Db, actor: Actor, q: PageQuery) => {
  const [list, count] = await Promise.all([
    data.listLists(db, actor.tenantId, q.limit, (q.page - 1) * q.limit),
    data.countLists(db, actor.tenantId),
  ]);
  // 导入人 through the staff module's lookup (a deleted importer keeps his name)
  const names = await staffNames(
    db,
    actor.tenantId,
    list.map((l) => l.staffId),
  );
  return {
    list: list.map((l) => ({
      id: l.id,
      name: l.name,
      rowCount: l.rowCount,
      staffName: names.get(l.staffId) ?? '',
      createTime: formatDateTime(l.createdAt),
    })),
    count: Number(count),
  };
};

export const deleteOwnList = async (db: Db, actor: Actor, id: number) => {
  if (!(await data.findList(db, actor.tenantId, id))) throw new AppError('LEAD_OWN_LIST_NOT_FOUND');
  await db.transaction(async (tx) => {
    await repo.deleteOwnRows(tx, actor.tenantId, id);
    await data.deleteList(tx, actor.tenantId, id);
  });
};
