import zlib from 'node:zlib';

/**
 * Hand-built .xlsx files for the reader's bounds: zip parts of any unpacked size (gigabytes
 * included) made without ever holding them unpacked, and sizes declared in the zip that lie.
 */

/** A zip part: plain bytes, or raw deflate data with the sizes the zip will declare. */
export type ZipPart = { name: string; data: Buffer | string } | { name: string; deflated: Buffer; declaredSize: number };

/**
 * A part that unpacks to head + unit × times + tail, built from three small compressions, and
 * declaring its true size unless told otherwise (a size past 4 GB must be declared otherwise).
 */
export const repeatedPart = (
  head: string,
  unit: string,
  times: number,
  tail: string,
  declaredSize?: number,
): { deflated: Buffer; declaredSize: number } => {
  // A full flush ends a segment without back-references into it, so segments concatenate.
  const segment = (s: string) => zlib.deflateRawSync(s, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const one = segment(unit);
  const body = Buffer.alloc(one.length * times);
  for (let i = 0; i < times; i++) one.copy(body, i * one.length);
  const deflated = Buffer.concat([segment(head), body, zlib.deflateRawSync(tail)]);
  const size = Buffer.byteLength(head) + Buffer.byteLength(unit) * times + Buffer.byteLength(tail);
  return { deflated, declaredSize: declaredSize ?? size };
};

const crc32 = (buf: Buffer) => zlib.crc32(buf);

/** A zip archive of the parts, in this order (deflated, UTF-8 names, no zip64). */
export const buildZip = (parts: ZipPart[]): Buffer => {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const p of parts) {
    const name = Buffer.from(p.name, 'utf8');
    let deflated: Buffer;
    let size: number;
    let crc = 0;
    if ('data' in p) {
      const raw = Buffer.from(p.data);
      deflated = zlib.deflateRawSync(raw);
      size = raw.length;
      crc = crc32(raw);
    } else {
      deflated = p.deflated;
      size = p.declaredSize;
    }
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, deflated);
    centrals.push(central, name);
    offset += local.length + name.length + deflated.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
};

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

export const SHEET_HEAD = `${XML}<worksheet xmlns="${NS}"><sheetData>`;
export const SHEET_TAIL = '</sheetData></worksheet>';
export const STRINGS_HEAD = `${XML}<sst xmlns="${NS}">`;
export const STRINGS_TAIL = '</sst>';

/** XML text escaping for cell texts. */
export const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** A row of inline-string cells (A, B, C, …; up to column ZZ). */
export const inlineRow = (r: number, cells: string[]) =>
  `<row r="${r}">${cells
    .map((v, i) => `<c r="${columnName(i + 1)}${r}" t="inlineStr"><is><t>${xmlText(v)}</t></is></c>`)
    .join('')}</row>`;
/** A row whose cells refer to shared strings by index. */
export const sharedRow = (r: number, indexes: number[]) =>
  `<row r="${r}">${indexes.map((x, i) => `<c r="${columnName(i + 1)}${r}" t="s"><v>${x}</v></c>`).join('')}</row>`;
/** Excel's column letters: 1 → A, 27 → AA, 1024 → AMJ. */
export const columnName = (n: number): string => {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
};
export const sharedStringsXml = (texts: string[]) =>
  `${STRINGS_HEAD}${texts.map((t) => `<si><t>${xmlText(t)}</t></si>`).join('')}${STRINGS_TAIL}`;

/**
 * An .xlsx of one worksheet. `sheet` and `strings` are the parts' full XML, or raw deflate data
 * (repeatedPart) with the size the zip declares for it.
 */
export const buildXlsxParts = (opts: {
  sheet: string | { deflated: Buffer; declaredSize: number };
  strings?: string | { deflated: Buffer; declaredSize: number };
  workbook?: string;
}): Buffer => {
  const part = (name: string, v: string | { deflated: Buffer; declaredSize: number }): ZipPart =>
    typeof v === 'string' ? { name, data: v } : { name, ...v };
  return buildZip([
    {
      name: '[Content_Types].xml',
      data: `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>${opts.strings ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : ''}</Types>`,
    },
    {
      name: '_rels/.rels',
      data: `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data:
        opts.workbook ??
        `${XML}<workbook xmlns="${NS}" xmlns:r="${REL_NS}"><sheets><sheet name="客户" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>${opts.strings ? `<Relationship Id="rId2" Type="${REL_NS}/sharedStrings" Target="sharedStrings.xml"/>` : ''}</Relationships>`,
    },
    part('xl/worksheets/sheet1.xml', opts.sheet),
    ...(opts.strings ? [part('xl/sharedStrings.xml', opts.strings)] : []),
  ]);
};

/** The 5 MB bomb of the issue: 5,000 shared strings of 1 MB each (5.2 GB unpacked), declared tiny. */
export const sharedStringsBomb = (count = 5_000, bytes = 1024 * 1024) =>
  buildXlsxParts({
    sheet: `${SHEET_HEAD}${sharedRow(1, [0])}${SHEET_TAIL}`,
    strings: repeatedPart(STRINGS_HEAD, `<si><t>${'a'.repeat(bytes)}</t></si>`, count, STRINGS_TAIL, 4096),
  });
