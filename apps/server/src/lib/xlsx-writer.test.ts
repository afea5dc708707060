import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { writeXlsxFile, type XlsxColumn, type XlsxRow } from './xlsx-writer';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xlsx-writer-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const columns: XlsxColumn[] = [
  { header: '编号', key: 'id', width: 10 },
  { header: '客户名称', key: 'name', width: 28 },
  { header: '金额(元)', key: 'amount', width: 14 },
  { header: '备注 <&>', key: 'remark', width: 40 },
  { header: '是否', key: 'flag', width: 8 },
];

/** The workbook as the export wrote it before this writer: ExcelJS's streaming writer. */
const writeWithExcelJS = async (file: string, sheet: string, rows: XlsxRow[]) => {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(sheet);
  ws.columns = columns;
  ws.getRow(1).font = { bold: true };
  for (const row of rows) ws.addRow(row).commit();
  await ws.commit();
  await wb.commit();
};

/** What a reader sees: sheet name, widths, the header's boldness and every cell value. */
const readBack = async (file: string) => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.worksheets[0];
  const rows: unknown[][] = [];
  ws.eachRow({ includeEmpty: true }, (row) => rows.push((row.values as unknown[]).slice(1)));
  return {
    name: ws.name,
    widths: columns.map((_, i) => ws.getColumn(i + 1).width),
    bold: ws.getRow(1).getCell(1).font?.bold ?? false,
    rows,
  };
};

async function* inBatches(rows: XlsxRow[], size: number) {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

describe('writeXlsxFile', () => {
  it('writes the workbook ExcelJS wrote: same sheet, widths, bold header and cell values', async () => {
    const rows: XlsxRow[] = [
      { id: 1, name: '北京华信科技有限公司', amount: 1234.5, remark: '', flag: true },
      { id: 2, name: 'a<b>&"c\'', amount: 0, remark: 'tab\there\nnew line\u0001gone', flag: false },
      { id: 3, name: null, amount: -7, remark: undefined, flag: null },
      { id: 4, name: '  spaced  ', amount: 1e-7, remark: '长'.repeat(30_000), flag: undefined },
      { id: 5, name: '🙂 emoji', amount: 99999999.99, remark: '=SUM(A1)', flag: true, extra: 'not a column' },
    ];
    const mine = path.join(dir, 'mine.xlsx');
    const theirs = path.join(dir, 'theirs.xlsx');
    await writeXlsxFile(mine, { sheet: '客户', columns }, inBatches(rows, 2));
    await writeWithExcelJS(theirs, '客户', rows);
    const [a, b] = [await readBack(mine), await readBack(theirs)];
    expect(a).toEqual(b);
    expect(a.rows[0]).toEqual(['编号', '客户名称', '金额(元)', '备注 <&>', '是否']);
    expect(a.rows[2]).toEqual([2, 'a<b>&"c\'', 0, 'tab\there\nnew linegone', false]);
    expect(a.bold).toBe(true);
  });

  it('a large export: every row, batches pulled one at a time while the file grows on disk', async () => {
    const file = path.join(dir, 'large.xlsx');
    const total = 5000;
    const size = 100;
    const fetches: { batch: number; bytesOnDisk: number }[] = [];
    async function* source() {
      for (let b = 0; b * size < total; b++) {
        fetches.push({ batch: b, bytesOnDisk: fs.existsSync(file) ? fs.statSync(file).size : 0 });
        // the read of a batch takes a moment, like a database query
        await new Promise((r) => setTimeout(r, 1));
        yield Array.from({ length: size }, (_, i) => {
          const id = b * size + i + 1;
          return { id, name: `客户${id}`, amount: id / 100, remark: `备注 ${id} `.repeat(10), flag: id % 2 === 0 };
        });
      }
    }
    await writeXlsxFile(file, { sheet: '客户', columns }, source());

    expect(fetches.map((f) => f.batch)).toEqual(Array.from({ length: total / size }, (_, i) => i));
    // the workbook was written while batches were still being read, not after the last one
    const mid = fetches[fetches.length / 2].bytesOnDisk;
    const last = fetches[fetches.length - 1].bytesOnDisk;
    expect(mid).toBeGreaterThan(10_000);
    expect(last).toBeGreaterThan(mid);
    expect(fs.statSync(file).size).toBeGreaterThan(last);

    const { rows } = await readBack(file);
    expect(rows).toHaveLength(total + 1);
    expect(rows[1]).toEqual([1, '客户1', 0.01, `${'备注 1 '.repeat(10)}`, false]);
    expect(rows[2500]).toEqual([2500, '客户2500', 25, `${'备注 2500 '.repeat(10)}`, true]);
    expect(rows[total]).toEqual([total, `客户${total}`, 50, `${`备注 ${total} `.repeat(10)}`, true]);
  });

  it('a failing read fails the write (no hang) and the source is closed', async () => {
    let closed = false;
    async function* failing() {
      try {
        yield [{ id: 1 }];
        throw new Error('database went away');
      } finally {
        closed = true;
      }
    }
    await expect(writeXlsxFile(path.join(dir, 'failed.xlsx'), { sheet: 'x', columns }, failing())).rejects.toThrow(
      'database went away',
    );
    expect(closed).toBe(true);
  });
});
