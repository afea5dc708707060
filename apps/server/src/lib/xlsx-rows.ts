import { PassThrough, Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { XLSX_LIMITS, type XlsxLimits } from '@crm/contracts';
import type ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { AppError } from './app-error';
import { loadExcel } from './lazy-packages';

/**
 * The parts of ExcelJS's streaming WorkbookReader this reader drives itself. Its own parse()
 * reads the archive in one streaming pass that sometimes ends before the last entry
 * (xl/workbook.xml in files ExcelJS writes): the read then fails with "Cannot read properties
 * of undefined (reading 'sheets')", or, when the lost entry is a worksheet or the shared
 * strings, silently loses rows. Reading each part through the zip's central directory, in the
 * order the parts depend on each other, cannot lose one.
 */
type ReaderParts = {
  workbookRels?: { Id: string; Target: string }[];
  model?: { sheets?: { id: number; name: string; rId: string }[] };
  sharedStrings?: unknown[];
  _parseRels: (entry: Readable) => Promise<void>;
  _parseWorkbook: (entry: Readable) => Promise<void>;
  _parseSharedStrings: (entry: Readable) => AsyncGenerator<{ index: number; text: SharedText }>;
  _parseStyles: (entry: Readable) => Promise<void>;
  _parseWorksheet: (iterator: Readable, sheetNo: string) => Generator<{ eventType: string; value: unknown }>;
};
type SharedText = string | null | { richText: { text: string | null }[] };

export type XlsxReadOptions = {
  /** Rows the caller accepts, the header included: reading stops at the next row. */
  maxRows: number;
  /** Thrown at row maxRows + 1, in the caller's words. */
  tooManyRows: () => AppError;
  /** Tighter bounds than XLSX_LIMITS (tests prove the edges with small files). */
  limits?: Partial<XlsxLimits>;
};

const MB = 1024 * 1024;
const refuse = (msg: string) => new AppError('IMPORT_FILE_INVALID', msg);
const tooLongCell = (cellChars: number) => refuse(`单元格内容最多${cellChars}个字符`);
const tooLarge = (limit: number) =>
  refuse(`文件内容过大（解压后超过${Math.max(1, Math.floor(limit / MB))}MB），请删除多余的内容或拆分后再上传`);

/** What a part may hold: unpacked bytes, the longest cell text, and (a worksheet) its rows. */
type PartBounds = { bytes: number; cellChars: number; rows?: { max: number; error: () => AppError } };

/** `<row` followed by whitespace, `>` or `/`: the start of a worksheet row. */
const isRowTag = (b: Buffer, at: number) =>
  b[at] === 0x72 && b[at + 1] === 0x6f && b[at + 2] === 0x77 && [0x20, 0x3e, 0x2f, 0x09, 0x0a, 0x0d].includes(b[at + 3]);

/**
 * The text of one zip part, inflated chunk by chunk. The inflated bytes are counted as they come
 * and the read is refused past the bound: the sizes the zip's headers declare are never trusted.
 * UTF-8 is decoded across chunk boundaries (ExcelJS decodes each chunk on its own and turns a
 * Chinese character split between two chunks into U+FFFD).
 */
async function* partText(zip: JSZip, path: string, bounds: PartBounds): AsyncGenerator<string> {
  const file = zip.file(path);
  if (!file) return;
  // JSZip's node stream is a readable-stream v2 object: its errors (a corrupt deflate stream, a
  // size that differs from the declared one) are not forwarded by pipe() and would be thrown
  // as an unhandled 'error' event that ends the process.
  const source = file.nodeStream('nodebuffer') as unknown as Readable;
  const chunks = new PassThrough();
  source.on('error', (err) => chunks.destroy(err));
  source.pipe(chunks);
  const decoder = new StringDecoder('utf8');
  // The parsers hold a whole text node (a cell's text) before handing it on: the bytes between
  // two tags are bounded by the longest text a cell may hold, written as character references.
  const maxRun = bounds.cellChars * 10;
  const { rows } = bounds;
  let bytes = 0;
  let run = 0;
  let rowCount = 0;
  // the bytes after a '<' that ended the previous chunk, until there are 4 to tell a row tag
  let pending: Buffer | null = null;
  const countRow = () => {
    if (rows && ++rowCount > rows.max) throw rows.error();
  };
  try {
    for await (const chunk of chunks as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > bounds.bytes) throw tooLarge(bounds.bytes);
      if (pending) {
        const head: Buffer = Buffer.concat([pending, chunk.subarray(0, 4 - pending.length)]);
        pending = head.length < 4 ? head : null;
        if (!pending && isRowTag(head, 0)) countRow();
      }
      for (let pos = 0; ; ) {
        const lt = chunk.indexOf(0x3c, pos);
        run += (lt === -1 ? chunk.length : lt) - pos;
        if (run > maxRun) throw tooLongCell(bounds.cellChars);
        if (lt === -1) break;
        if (rows) {
          if (lt + 4 < chunk.length) {
            if (isRowTag(chunk, lt + 1)) countRow();
          } else pending = Buffer.from(chunk.subarray(lt + 1));
        }
        run = 0;
        pos = lt + 1;
      }
      const text = decoder.write(chunk);
      if (text) yield text;
    }
    const rest = decoder.end();
    if (rest) yield rest;
  } finally {
    source.unpipe(chunks);
    chunks.destroy();
  }
}

/** A part as the stream ExcelJS's parsers read. */
const partStream = (zip: JSZip, path: string, bounds: PartBounds): Readable | undefined =>
  zip.file(path) ? Readable.from(partText(zip, path, bounds)) : undefined;

/**
 * Inflates a part without parsing it: an oversized part, an overlong text or a sheet of too many
 * rows costs only the inflation of what comes before the breach, never any parsing.
 */
const checkPart = async (zip: JSZip, path: string, bounds: PartBounds) => {
  for await (const _ of partText(zip, path, bounds));
};

/** The worksheet part of the workbook's first sheet (its order in the workbook, not in the zip). */
const firstSheetPart = (reader: ReaderParts, zip: JSZip): string | undefined => {
  const first = reader.model?.sheets?.[0];
  const rel = first && reader.workbookRels?.find((r) => r.Id === first.rId);
  if (rel) {
    const target = rel.Target.replace(/^\/?xl\//, '').replace(/^\//, '');
    if (zip.file(`xl/${target}`)) return `xl/${target}`;
  }
  return Object.keys(zip.files)
    .filter((p) => /^xl\/worksheets\/sheet\d+\.xml$/.test(p))
    .sort((a, b) => Number(a.match(/\d+/)?.[0]) - Number(b.match(/\d+/)?.[0]))[0];
};

const sharedLength = (t: SharedText) =>
  t === null ? 0 : typeof t === 'string' ? t.length : t.richText.reduce((n, r) => n + (r.text?.length ?? 0), 0);

/** The length of a cell's text, whatever shape ExcelJS gave the value. */
const cellLength = (v: ExcelJS.CellValue): number => {
  if (typeof v === 'string') return v.length;
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    if ('richText' in v) return v.richText.reduce((n, r) => n + r.text.length, 0);
    if ('text' in v) return String(v.text).length;
    if ('result' in v) return cellLength(v.result as ExcelJS.CellValue);
  }
  return 0;
};

/**
 * Streams the rows of the first worksheet of an .xlsx held in memory (uploads are at most
 * 20 MB): cell values as ExcelJS reads them, row by row, without building the workbook.
 * Every bound of XLSX_LIMITS holds while reading. The big parts are inflated once without parsing
 * (counting bytes, text lengths and the sheet's rows) so that a breach costs no parsing at all;
 * a sheet of more than maxRows rows is refused after inflating maxRows + 1 of them.
 * Throws IMPORT_FILE_INVALID (with the reason) when the bytes are not a workbook or break a bound.
 */
export async function* xlsxRows(buf: Buffer, options: XlsxReadOptions): AsyncGenerator<ExcelJS.CellValue[]> {
  const limits: XlsxLimits = { ...XLSX_LIMITS, ...options.limits };
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(buf);
  } catch {
    throw new AppError('IMPORT_FILE_INVALID');
  }
  try {
    yield* readRows(zip, limits, options);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('IMPORT_FILE_INVALID');
  }
}

async function* readRows(zip: JSZip, limits: XlsxLimits, options: XlsxReadOptions): AsyncGenerator<ExcelJS.CellValue[]> {
  const { stream } = await loadExcel();
  const reader = new stream.xlsx.WorkbookReader(new PassThrough(), {
    worksheets: 'emit',
    sharedStrings: 'emit',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  }) as unknown as ReaderParts;

  const small = { bytes: limits.partBytes, cellChars: limits.cellChars };
  const rels = partStream(zip, 'xl/_rels/workbook.xml.rels', small);
  if (rels) await reader._parseRels(rels);
  const workbook = partStream(zip, 'xl/workbook.xml', small);
  if (!workbook) throw new AppError('IMPORT_FILE_INVALID');
  await reader._parseWorkbook(workbook);
  const part = firstSheetPart(reader, zip);
  if (!part) return;
  // The big parts are measured before any of them is parsed: an oversized one costs only its inflation.
  const stringsBounds = { bytes: limits.sharedStringsBytes, cellChars: limits.cellChars };
  const sheetBounds = { bytes: limits.sheetBytes, cellChars: limits.cellChars };
  await checkPart(zip, 'xl/sharedStrings.xml', stringsBounds);
  await checkPart(zip, part, { ...sheetBounds, rows: { max: options.maxRows, error: options.tooManyRows } });

  // Shared strings are held for the whole read: their number and each one's length are bounded.
  const strings: SharedText[] = [];
  const stringsPart = partStream(zip, 'xl/sharedStrings.xml', stringsBounds);
  if (stringsPart)
    for await (const { text } of reader._parseSharedStrings(stringsPart)) {
      if (strings.length >= limits.sharedStrings) throw refuse(`文件中不同的文本超过${limits.sharedStrings}个，请拆分后再上传`);
      if (sharedLength(text) > limits.cellChars) throw tooLongCell(limits.cellChars);
      strings.push(text);
    }
  reader.sharedStrings = strings;
  const styles = partStream(zip, 'xl/styles.xml', small);
  if (styles) await reader._parseStyles(styles);

  const sheet = partStream(zip, part, sheetBounds);
  if (!sheet) return;
  const sheetNo = part.match(/(\d+)\.xml$/)?.[1] ?? '1';
  let rows = 0;
  for (const { eventType, value } of reader._parseWorksheet(sheet, sheetNo)) {
    if (eventType !== 'worksheet') continue;
    for await (const row of value as AsyncIterable<ExcelJS.Row>) {
      if (++rows > options.maxRows) throw options.tooManyRows();
      const values = row.values as ExcelJS.CellValue[];
      if (values.length - 1 > limits.columns) throw refuse(`文件最多${limits.columns}列`);
      const cells = Array.from(values.slice(1), (v) => v ?? null);
      for (const v of cells) if (cellLength(v) > limits.cellChars) throw tooLongCell(limits.cellChars);
      yield cells;
    }
  }
}
