import zlib from 'node:zlib';
import { XLSX_LIMITS } from '@crm/contracts';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  buildXlsxParts,
  columnName,
  inlineRow,
  repeatedPart,
  SHEET_HEAD,
  SHEET_TAIL,
  STRINGS_HEAD,
  STRINGS_TAIL,
  sharedRow,
  sharedStringsBomb,
  sharedStringsXml,
} from '../test/xlsx-build';
import { AppError } from './app-error';
import { type XlsxReadOptions, xlsxRows } from './xlsx-rows';

const tooManyRows = () => new AppError('IMPORT_FILE_INVALID', '行数超出上限');
const rowsOf = async (buf: Buffer, options: Partial<XlsxReadOptions> = {}) => {
  const rows: ExcelJS.CellValue[][] = [];
  for await (const r of xlsxRows(buf, { maxRows: 1000, tooManyRows, ...options })) rows.push(r);
  return rows;
};

const customerSheet = async () => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('客户');
  ws.addRow(['客户名称', '联系人', '手机', '地区', '预计成交金额']);
  ws.addRow(['导入-北京朝阳', '北京人', '13912600030', '北京市/朝阳区', 1200.5]);
  ws.addRow(['导入-火星', '火星人', '13912600031', '火星/奥林匹斯山', 0]);
  return Buffer.from(await wb.xlsx.writeBuffer());
};

afterEach(() => {
  vi.useRealTimers();
});

describe('xlsxRows', () => {
  it('reads the first worksheet row by row: shared strings, numbers, dates', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('客户');
    ws.addRow(['客户名称', '金额', '日期']);
    ws.addRow(['上海某某贸易有限公司', 42, new Date(Date.UTC(2026, 10, 24))]);
    wb.addWorksheet('说明').addRow(['不应读到']);
    const rows = await rowsOf(Buffer.from(await wb.xlsx.writeBuffer()));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(['客户名称', '金额', '日期']);
    expect(rows[1].slice(0, 2)).toEqual(['上海某某贸易有限公司', 42]);
    expect(rows[1][2]).toBeInstanceOf(Date);
  });

  it('takes the first sheet in the workbook’s order, whatever the order of the parts in the zip', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('甲').addRow(['第一张']);
    wb.addWorksheet('乙').addRow(['第二张']);
    // Re-pack with xl/workbook.xml first and sheet2 before sheet1, as other producers may write it.
    const src = await JSZip.loadAsync(Buffer.from(await wb.xlsx.writeBuffer()));
    const names = Object.keys(src.files).filter((n) => !src.files[n].dir);
    const order = ['xl/workbook.xml', 'xl/worksheets/sheet2.xml', ...names];
    const out = new JSZip();
    for (const n of [...new Set(order)]) out.file(n, (await src.file(n)?.async('nodebuffer')) ?? '');
    const rows = await rowsOf(await out.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
    expect(rows).toEqual([['第一张']]);
  });

  it('never loses a part: every read of freshly written workbooks yields all their rows', async () => {
    // ExcelJS's own streaming parse lost the last zip entry now and then (its time stamps
    // vary the bytes); 400 workbooks written at different times caught it in earlier runs.
    vi.useFakeTimers({ toFake: ['Date'] });
    for (let i = 0; i < 400; i++) {
      vi.setSystemTime(Date.UTC(2026, 0, 1) + i * 7_777_777);
      const rows = await rowsOf(await customerSheet());
      expect(rows.map((r) => r[0])).toEqual(['客户名称', '导入-北京朝阳', '导入-火星']);
    }
  });

  it('refuses bytes that are not a workbook', async () => {
    await expect(rowsOf(Buffer.from('not a zip at all'))).rejects.toBeInstanceOf(AppError);
    const zip = new JSZip();
    zip.file('hello.txt', 'hi');
    const notXlsx = await zip.generateAsync({ type: 'nodebuffer' });
    await expect(rowsOf(notXlsx)).rejects.toMatchObject({ key: 'IMPORT_FILE_INVALID' });
  });
});

const sheetOf = (rows: string[]) => `${SHEET_HEAD}${rows.join('')}${SHEET_TAIL}`;
const refusal = async (buf: Buffer, options: Partial<XlsxReadOptions> = {}) => {
  const err = await rowsOf(buf, options).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the file should be refused').toBeInstanceOf(AppError);
  return err as AppError;
};

describe('xlsxRows bounds (XLSX_LIMITS)', () => {
  it('bounds the unpacked bytes of each part it reads, counted while inflating, at both edges', async () => {
    const strings = sharedStringsXml(['客户名称', '上海某某贸易有限公司']);
    const sheet = sheetOf([sharedRow(1, [0]), sharedRow(2, [1])]);
    const buf = buildXlsxParts({ sheet, strings });
    const zip = await JSZip.loadAsync(buf);
    const bytesOf = async (part: string) => (await zip.file(part)?.async('nodebuffer'))?.length ?? 0;
    // The small parts read: the workbook and its relationships (no styles in this file).
    const smallParts = Math.max(await bytesOf('xl/workbook.xml'), await bytesOf('xl/_rels/workbook.xml.rels'));
    const edges = [
      { sharedStringsBytes: Buffer.byteLength(strings) },
      { sheetBytes: Buffer.byteLength(sheet) },
      { partBytes: smallParts },
    ];
    for (const edge of edges) {
      const [key, limit] = Object.entries(edge)[0];
      expect(await rowsOf(buf, { limits: { [key]: limit } }), key).toEqual([['客户名称'], ['上海某某贸易有限公司']]);
      const err = await refusal(buf, { limits: { [key]: limit - 1 } });
      expect(err).toMatchObject({ key: 'IMPORT_FILE_INVALID', status: 400 });
      expect(err.message).toBe('文件内容过大（解压后超过1MB），请删除多余的内容或拆分后再上传');
    }
  });

  it('never trusts the sizes the zip declares: a part declared small that unpacks big is refused', async () => {
    // 300 MB of rows declared as 1 KB: refused once 256 MB have been inflated.
    const row = `<row><c r="A1" t="inlineStr"><is><t>${'a'.repeat(30_000)}</t></is></c></row>`;
    const buf = buildXlsxParts({
      sheet: repeatedPart(SHEET_HEAD, row, 10_000, SHEET_TAIL, 1024),
    });
    expect(buf.length).toBeLessThan(XLSX_LIMITS.sheetBytes / 100);
    const err = await refusal(buf, { maxRows: 10_000 });
    expect(err.message).toBe('文件内容过大（解压后超过256MB），请删除多余的内容或拆分后再上传');
  });

  it('a declared size that does not match the data is a clean refusal, not an unhandled stream error', async () => {
    const buf = buildXlsxParts({
      sheet: { deflated: zlib.deflateRawSync(sheetOf([inlineRow(1, ['客户名称'])])), declaredSize: 10 },
    });
    expect((await refusal(buf)).message).toBe('导入文件无法读取，请使用下载的模板填写');
    const corrupt = buildXlsxParts({ sheet: { deflated: Buffer.alloc(64, 0xff), declaredSize: 64 } });
    expect((await refusal(corrupt)).key).toBe('IMPORT_FILE_INVALID');
  });

  it('the 5 MB bomb of 5,000 shared strings of 1 MB (5.2 GB unpacked) is refused at once', async () => {
    const bomb = sharedStringsBomb();
    expect(bomb.length).toBeLessThan(6 * 1024 * 1024);
    const started = performance.now();
    const err = await refusal(bomb);
    expect(err.message).toBe('单元格内容最多32767个字符');
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('bounds the shared strings part of short strings by its unpacked bytes (128 MB)', async () => {
    const unit = '<si><t>a</t></si>'.repeat(10_000);
    const times = Math.floor(XLSX_LIMITS.sharedStringsBytes / unit.length) + 1;
    const buf = buildXlsxParts({
      sheet: sheetOf([sharedRow(1, [0])]),
      strings: repeatedPart(STRINGS_HEAD, unit, times, STRINGS_TAIL, 1024),
    });
    expect((await refusal(buf)).message).toBe('文件内容过大（解压后超过128MB），请删除多余的内容或拆分后再上传');
  });

  it('bounds the number of shared strings, at both edges', async () => {
    const buf = (n: number) =>
      buildXlsxParts({
        sheet: sheetOf([sharedRow(1, [0, n - 1])]),
        strings: sharedStringsXml(Array.from({ length: n }, (_, i) => `文本${i}`)),
      });
    expect(await rowsOf(buf(3), { limits: { sharedStrings: 3 } })).toEqual([['文本0', '文本2']]);
    expect((await refusal(buf(4), { limits: { sharedStrings: 3 } })).message).toBe('文件中不同的文本超过3个，请拆分后再上传');
  });

  it('refuses one string past the real limit of 2,000,000 shared strings', async () => {
    const unit = '<si><t>a</t></si>'.repeat(1_000);
    const buf = buildXlsxParts({
      sheet: sheetOf([sharedRow(1, [0])]),
      strings: repeatedPart(`${STRINGS_HEAD}<si><t>b</t></si>`, unit, XLSX_LIMITS.sharedStrings / 1_000, STRINGS_TAIL),
    });
    expect((await refusal(buf)).message).toBe('文件中不同的文本超过2000000个，请拆分后再上传');
  });

  it('a cell holds at most 32,767 characters (Excel’s limit), shared, rich or inline, at both edges', async () => {
    const max = XLSX_LIMITS.cellChars;
    const shared = (text: string) => buildXlsxParts({ sheet: sheetOf([sharedRow(1, [0])]), strings: sharedStringsXml([text]) });
    const inline = (text: string) => buildXlsxParts({ sheet: sheetOf([inlineRow(1, ['名称', text])]) });
    const rich = (a: number, b: number) =>
      buildXlsxParts({
        sheet: sheetOf([sharedRow(1, [0])]),
        strings: `${STRINGS_HEAD}<si><r><t>${'甲'.repeat(a)}</t></r><r><t>${'乙'.repeat(b)}</t></r></si>${STRINGS_TAIL}`,
      });
    expect((await rowsOf(shared('长'.repeat(max))))[0][0]).toHaveLength(max);
    expect((await rowsOf(inline('a'.repeat(max))))[0][1]).toHaveLength(max);
    expect(await rowsOf(rich(max - 1, 1))).toHaveLength(1);
    for (const buf of [shared('长'.repeat(max + 1)), inline('a'.repeat(max + 1)), rich(max, 1)]) {
      expect((await refusal(buf)).message).toBe('单元格内容最多32767个字符');
    }
  });

  it('a row holds at most 1,024 columns, at both edges', async () => {
    const cellAt = (column: number) =>
      buildXlsxParts({ sheet: sheetOf([`<row r="1"><c r="${columnName(column)}1"><v>7</v></c></row>`]) });
    expect(columnName(XLSX_LIMITS.columns)).toBe('AMJ');
    const [row] = await rowsOf(cellAt(XLSX_LIMITS.columns));
    expect(row).toHaveLength(XLSX_LIMITS.columns);
    expect(row[XLSX_LIMITS.columns - 1]).toBe(7);
    expect(row[0]).toBeNull();
    expect((await refusal(cellAt(XLSX_LIMITS.columns + 1))).message).toBe('文件最多1024列');
  });

  it('refuses row maxRows + 1 with the caller’s error before parsing any row, at both edges', async () => {
    const buf = buildXlsxParts({ sheet: sheetOf(Array.from({ length: 50 }, (_, i) => inlineRow(i + 1, [`第${i + 1}行`]))) });
    expect(await rowsOf(buf, { maxRows: 50 })).toHaveLength(50);
    const seen: ExcelJS.CellValue[][] = [];
    const err = await (async () => {
      for await (const r of xlsxRows(buf, { maxRows: 49, tooManyRows })) seen.push(r);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toBe('行数超出上限');
    // the rows are counted while inflating: not one was parsed
    expect(seen).toHaveLength(0);
  });

  it('counts rows across the inflated chunks exactly: every <row is seen, whatever chunk it falls in', async () => {
    // 50,000 rows of varied length (about 2.4 MB) cross some 150 chunk boundaries.
    const n = 50_000;
    const rows = Array.from({ length: n }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${i % 97}</v></c></row>`);
    const buf = buildXlsxParts({ sheet: sheetOf(rows) });
    expect(await rowsOf(buf, { maxRows: n })).toHaveLength(n);
    const seen: ExcelJS.CellValue[][] = [];
    const err = await (async () => {
      for await (const r of xlsxRows(buf, { maxRows: n - 1, tooManyRows })) seen.push(r);
    })().catch((e: unknown) => e);
    expect((err as AppError).message).toBe('行数超出上限');
    expect(seen).toHaveLength(0);
  });

  it('keeps Chinese text whole when a character is split between two inflated chunks', async () => {
    // Thousands of distinct Chinese texts: the inflated parts come in chunks of about 16 KB, and
    // a 3-byte character falls across a chunk boundary many times.
    const texts = Array.from({ length: 4_000 }, (_, i) => `上海某某贸易有限公司第${i}号客户`);
    const viaShared = buildXlsxParts({
      sheet: sheetOf(texts.map((_, i) => sharedRow(i + 1, [i]))),
      strings: sharedStringsXml(texts),
    });
    const viaInline = buildXlsxParts({ sheet: sheetOf(texts.map((t, i) => inlineRow(i + 1, [t]))) });
    for (const buf of [viaShared, viaInline]) {
      const rows = await rowsOf(buf, { maxRows: texts.length });
      expect(rows.map((r) => r[0])).toEqual(texts);
    }
  });
});
