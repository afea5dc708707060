import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { AppError } from './app-error';

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
  _parseRels: (entry: Readable) => Promise<void>;
  _parseWorkbook: (entry: Readable) => Promise<void>;
  _parseSharedStrings: (entry: Readable) => AsyncGenerator<unknown>;
  _parseStyles: (entry: Readable) => Promise<void>;
  _parseWorksheet: (iterator: Readable, sheetNo: string) => Generator<{ eventType: string; value: unknown }>;
};

const partStream = (zip: JSZip, path: string): Readable | undefined => {
  const file = zip.file(path);
  // JSZip's node stream is a readable-stream v2 object: piping it into a core stream gives
  // the async iteration the worksheet reader needs.
  return file ? (file.nodeStream('nodebuffer') as unknown as Readable).pipe(new PassThrough()) : undefined;
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

/**
 * Streams the rows of the first worksheet of an .xlsx held in memory (uploads are at most
 * 20 MB): cell values as ExcelJS reads them, row by row, without building the workbook.
 * Throws IMPORT_FILE_INVALID when the bytes are not a workbook.
 */
export async function* xlsxRows(buf: Buffer): AsyncGenerator<ExcelJS.CellValue[]> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(buf);
  } catch {
    throw new AppError('IMPORT_FILE_INVALID');
  }
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(new PassThrough(), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  }) as unknown as ReaderParts;

  const rels = partStream(zip, 'xl/_rels/workbook.xml.rels');
  if (rels) await reader._parseRels(rels);
  const workbook = partStream(zip, 'xl/workbook.xml');
  if (!workbook) throw new AppError('IMPORT_FILE_INVALID');
  await reader._parseWorkbook(workbook);
  const strings = partStream(zip, 'xl/sharedStrings.xml');
  if (strings) for await (const _ of reader._parseSharedStrings(strings));
  const styles = partStream(zip, 'xl/styles.xml');
  if (styles) await reader._parseStyles(styles);

  const part = firstSheetPart(reader, zip);
  const sheet = part && partStream(zip, part);
  if (!part || !sheet) return;
  const sheetNo = part.match(/(\d+)\.xml$/)?.[1] ?? '1';
  for (const { eventType, value } of reader._parseWorksheet(sheet, sheetNo)) {
    if (eventType !== 'worksheet') continue;
    for await (const row of value as AsyncIterable<ExcelJS.Row>) {
      yield (row.values as ExcelJS.CellValue[]).slice(1);
    }
  }
}
