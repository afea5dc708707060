import { extensionOf, MONEY_MAX, PRODUCT_IMPORT_HEADERS, PRODUCT_LIMITS, productBody } from '@crm/contracts';
import type ExcelJS from 'exceljs';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { xlsxRows } from '../../lib/xlsx-rows';
import { readTenantFile } from '../uploads/uploads.service';
import * as repo from './products.repo';

const cellText = (v: ExcelJS.CellValue): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('text' in v) return String(v.text);
    if ('result' in v) return String(v.result ?? '');
    if (v instanceof Date) return v.toISOString().slice(0, 10);
  }
  return String(v).trim();
};

/** 元 text → 1/1000 yuan; undefined when not a number in 0 … MONEY_MAX. */
const toMoney = (s: string): number | undefined => {
  if (s === '') return 0;
  if (!/^\d+(\.\d{1,3})?$/.test(s)) return undefined;
  const v = Math.round(Number(s) * 1000);
  return v <= MONEY_MAX ? v : undefined;
};

/**
 * product/import: up to 5,000 rows of 产品名称 | 产品编号 | 分类 | 售价(元) | 成本价(元) | 最低价(元) | 状态 | 备注,
 * read with the bounded reader and added in one transaction (small enough to answer at once).
 * Rows with errors are reported and skipped; categories named in the file are created at the top level.
 */
export const importProducts = async (db: Db, dataDir: string, actor: Actor, fileId: number) => {
  const { buf, row: file } = await readTenantFile(db, dataDir, actor, fileId);
  if (extensionOf(file.storedName) !== 'xlsx') throw new AppError('IMPORT_FILE_INVALID', '请上传 .xlsx 文件');
  const rows: string[][] = [];
  try {
    for await (const cells of xlsxRows(buf, {
      maxRows: PRODUCT_LIMITS.importRows + 1,
      tooManyRows: () => new AppError('PRODUCT_IMPORT_TOO_MANY'),
    })) {
      rows.push(cells.slice(0, PRODUCT_IMPORT_HEADERS.length).map(cellText));
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('IMPORT_FILE_INVALID');
  }
  const [header, ...data] = rows;
  if (!header || header[0] !== PRODUCT_IMPORT_HEADERS[0]) throw new AppError('IMPORT_FILE_INVALID');
  const failed: { row: number; reason: string }[] = [];
  const categories = new Map(
    (await repo.listCategories(db, actor.tenantId)).filter((c) => c.pid === 0).map((c) => [c.name, c.id]),
  );
  const codes = new Set<string>();
  let added = 0;
  await db.transaction(async (tx) => {
    for (const [i, cells] of data.entries()) {
      const rowNo = i + 2;
      if (cells.every((c) => c === '')) continue;
      const [name, code, categoryName, price, cost, minimumPrice, status, remark] = cells;
      const money = [toMoney(price ?? ''), toMoney(cost ?? ''), toMoney(minimumPrice ?? '')];
      if (money.some((m) => m === undefined)) {
        failed.push({ row: rowNo, reason: `价格须为0到${MONEY_MAX / 1000}之间的数字` });
        continue;
      }
      const parsed = productBody.safeParse({
        name: name ?? '',
        code: code ?? '',
        remark: remark ?? '',
        status: status === '下架' ? 0 : 1,
        price: money[0],
        cost: money[1],
        minimum_price: money[2],
      });
      if (!parsed.success) {
        failed.push({ row: rowNo, reason: parsed.error.issues[0]?.message ?? '数据格式不正确' });
        continue;
      }
      const p = parsed.data;
      if (p.minimum_price > p.price) {
        failed.push({ row: rowNo, reason: '最低价不能高于售价' });
        continue;
      }
      if (p.code && (codes.has(p.code) || (await repo.findProductByCode(tx, actor.tenantId, p.code, 0)))) {
        failed.push({ row: rowNo, reason: '产品编号已存在' });
        continue;
      }
      let categoryId = 0;
      const cat = (categoryName ?? '').slice(0, PRODUCT_LIMITS.categoryName);
      if (cat) {
        categoryId = categories.get(cat) ?? (await repo.insertCategory(tx, { tenantId: actor.tenantId, pid: 0, name: cat }));
        categories.set(cat, categoryId);
      }
      if (p.code) codes.add(p.code);
      await repo.insertProduct(tx, {
        tenantId: actor.tenantId,
        categoryId,
        name: p.name,
        code: p.code,
        remark: p.remark,
        status: p.status,
        price: p.price,
        cost: p.cost,
        minimumPrice: p.minimum_price,
        createdAt: now(),
        updatedAt: now(),
      });
      added++;
    }
  });
  return { added, failed: failed.slice(0, 200) };
};
