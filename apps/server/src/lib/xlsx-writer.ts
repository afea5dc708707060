/** A streaming one-sheet .xlsx writer: rows are pulled batch by batch and written to disk as they come. */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { zipStream } from './xlsx-zip';

export type XlsxColumn = { header: string; key: string; width: number };
export type XlsxCell = string | number | boolean | null | undefined;
export type XlsxRow = Record<string, XlsxCell>;
export type XlsxSheet = { sheet: string; columns: XlsxColumn[] };

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

const contentTypes = `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${CT}.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="${CT}.styles+xml"/></Types>`;
const rootRels = `${XML}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const workbookRels = `${XML}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/styles" Target="styles.xml"/><Relationship Id="rId2" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;
/** style 0: the default; style 1: bold (the header row) */
const styles = `${XML}<styleSheet xmlns="${MAIN}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

/** Text as XML character data: the five entities escaped, characters XML cannot hold dropped (as ExcelJS does). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this removes
const UNSAFE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f"&'<>]/g;
const ENTITY: Record<string, string> = { '"': '&quot;', '&': '&amp;', "'": '&apos;', '<': '&lt;', '>': '&gt;' };
export const xmlText = (s: string) => s.replace(UNSAFE, (c) => ENTITY[c] ?? '');

/** A, B, …, Z, AA, … for a 0-based column index. */
const columnLetters = (i: number): string =>
  (i < 26 ? '' : columnLetters(Math.floor(i / 26) - 1)) + String.fromCharCode(65 + (i % 26));

/** One cell, or '' for an empty one (null, undefined, a number that is not finite): strings as ExcelJS writes them (t="str"). */
const cellXml = (ref: string, v: XlsxCell, style: string): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return Number.isFinite(v) ? `<c r="${ref}"${style}><v>${v}</v></c>` : '';
  if (typeof v === 'boolean') return `<c r="${ref}"${style} t="b"><v>${v ? 1 : 0}</v></c>`;
  return `<c r="${ref}"${style} t="str"><v>${xmlText(String(v))}</v></c>`;
};

/** Bytes of sheet XML handed to the zip at a time. */
const CHUNK = 64 * 1024;

/**
 * A batch's rows as sheet XML in chunks of about CHUNK bytes (Buffers, outside the JS heap). Each
 * row's XML goes into the chunk as soon as it is built, so no string grows past one row.
 */
const rowsXml = (columns: XlsxColumn[], letters: string[], batch: XlsxRow[], first: number): Buffer[] => {
  const out: Buffer[] = [];
  let chunk = Buffer.allocUnsafe(CHUNK);
  let used = 0;
  let r = first;
  for (const row of batch) {
    let xml = `<row r="${r}">`;
    for (let i = 0; i < columns.length; i++) xml += cellXml(`${letters[i]}${r}`, row[columns[i].key], '');
    xml += '</row>';
    r++;
    // a UTF-16 code unit takes at most 3 bytes of UTF-8
    if (used + xml.length * 3 > CHUNK) {
      if (used > 0) {
        out.push(chunk.subarray(0, used));
        chunk = Buffer.allocUnsafe(CHUNK);
        used = 0;
      }
      if (xml.length * 3 > CHUNK) {
        out.push(Buffer.from(xml));
        continue;
      }
    }
    used += chunk.write(xml, used);
  }
  if (used > 0) out.push(chunk.subarray(0, used));
  return out;
};

/**
 * The worksheet part: the header row in bold, then each batch's rows. A batch is turned into XML
 * bytes at once and the next one asked for before those bytes are compressed: the source lets go
 * of its rows and reads the next batch meanwhile. Rows that stayed referenced while the zip works
 * would outlive V8's young generation and pile up as old garbage (hundreds of MB over an export).
 */
async function* sheetXml(columns: XlsxColumn[], batches: AsyncIterable<XlsxRow[]>): AsyncGenerator<Buffer> {
  const letters = columns.map((_, i) => columnLetters(i));
  const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`).join('');
  const header = columns.map((c, i) => cellXml(`${letters[i]}1`, c.header, ' s="1"')).join('');
  yield Buffer.from(
    `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><cols>${cols}</cols><sheetData><row r="1" s="1" customFormat="1">${header}</row>`,
  );
  const source = batches[Symbol.asyncIterator]();
  let rowNo = 2;
  // the batch itself never lands in this frame: only its XML does
  const nextXml = async (pending: Promise<IteratorResult<XlsxRow[]>>) => {
    const next = await pending;
    if (next.done) return undefined;
    const xml = rowsXml(columns, letters, next.value, rowNo);
    rowNo += next.value.length;
    return xml;
  };
  let done = false;
  try {
    let pending = source.next();
    for (;;) {
      const xml = await nextXml(pending);
      if (!xml) break;
      pending = source.next();
      // awaited on the next turn; until then a failed read must not count as unhandled
      pending.catch(() => {});
      for (const b of xml) yield b;
    }
    done = true;
  } finally {
    // the zip stopped early (a failure downstream): let the source close its reads
    if (!done) await source.return?.().catch(() => undefined);
  }
  yield Buffer.from(
    '</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>',
  );
}

/**
 * Writes a one-sheet workbook to `file`: a bold header row of the columns' headers, then the
 * batches' rows (each row's values by column key). A batch is pulled only once the previous one is
 * handed to the zip, and the zip is pulled only as fast as the disk takes it: memory stays at about
 * one batch whatever the number of rows.
 */
export const writeXlsxFile = async (file: string, spec: XlsxSheet, batches: AsyncIterable<XlsxRow[]>) => {
  const workbook = `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="${xmlText(spec.sheet)}" sheetId="1" r:id="rId2"/></sheets></workbook>`;
  const zip = zipStream([
    { name: '[Content_Types].xml', data: Buffer.from(contentTypes) },
    { name: '_rels/.rels', data: Buffer.from(rootRels) },
    { name: 'xl/workbook.xml', data: Buffer.from(workbook) },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(workbookRels) },
    { name: 'xl/styles.xml', data: Buffer.from(styles) },
    { name: 'xl/worksheets/sheet1.xml', data: sheetXml(spec.columns, batches) },
  ]);
  await pipeline(Readable.from(zip, { objectMode: false }), fs.createWriteStream(file));
};
