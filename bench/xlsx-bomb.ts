/**
 * Time to refusal and server memory for hostile .xlsx files sent to the real importpreview route
 * (issue 11, hole 1). Starts the server (apps/server/src/main.ts, demo seed) on 127.0.0.1:3951
 * with its own database, logs in as admin, and posts, one at a time:
 *
 *   - the shared-string bomb: 5,000 shared strings of 1 MB (5.2 GB unpacked, about 5 MB packed);
 *   - 4,000,000 rows (under the 20 MB upload limit);
 *   - for comparison, a real 100,000-row customer file written by ExcelJS (accepted).
 *
 * For each: the answer, the time to it, the server's resident memory sampled every 20 ms while
 * the request runs (peak and rise over the idle server), and whether /api/health answers after.
 *
 *   npx tsx bench/xlsx-bomb.ts
 */

import zlib from 'node:zlib';
import { XLSX_LIMITS } from '@crm/contracts';
import ExcelJS from 'exceljs';
import {
  buildXlsxParts,
  buildZip,
  inlineRow,
  repeatedPart,
  SHEET_HEAD,
  SHEET_TAIL,
  STRINGS_HEAD,
  STRINGS_TAIL,
  sharedRow,
  sharedStringsBomb,
} from '../apps/server/src/test/xlsx-build';
import { BENCH_DB, ensureDatabase, login, peakRssKb, startServer } from './lib';

const PORT = 3951;
const DB = process.env.BENCH_DATABASE_URL ?? BENCH_DB.replace(/\/[^/]*$/, '/crm_bench_xlsx');

/** One-cell rows, deflated in segments of 100,000 rows (never held unpacked). */
const manyRows = (rows: number) => {
  const flush = { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH };
  const segments = [zlib.deflateRawSync(SHEET_HEAD + inlineRow(1, ['客户名称']), flush)];
  let size = Buffer.byteLength(SHEET_HEAD + inlineRow(1, ['客户名称']));
  for (let from = 2; from <= rows; from += 100_000) {
    let xml = '';
    // The same value in every row: only the row number differs, as small as such a file gets.
    for (let r = from; r < Math.min(rows + 1, from + 100_000); r++) xml += `<row r="${r}"><c r="A${r}"><v>1</v></c></row>`;
    segments.push(zlib.deflateRawSync(xml, flush));
    size += Buffer.byteLength(xml);
  }
  segments.push(zlib.deflateRawSync(SHEET_TAIL));
  size += SHEET_TAIL.length;
  const plain = buildZip([
    {
      name: '[Content_Types].xml',
      data: '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
    },
    {
      name: 'xl/workbook.xml',
      data: '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>',
    },
    { name: 'xl/worksheets/sheet1.xml', deflated: Buffer.concat(segments), declaredSize: size },
  ]);
  return { buf: plain, unpacked: size };
};

/** A real customer file of `rows` rows and 15 columns, as Excel users send them. */
const customerFile = async (rows: number) => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('客户');
  ws.addRow([
    '客户名称',
    '联系人',
    '手机',
    '座机',
    '微信',
    '地区',
    '行业',
    '客户来源',
    '客户级别',
    '意向产品',
    '预计成交金额',
    '备注',
    '甲',
    '乙',
    '丙',
  ]);
  for (let i = 0; i < rows; i++)
    ws.addRow([
      `上海某某贸易有限公司${i}`,
      `联系人${i}`,
      `138${String(i).padStart(8, '0')}`,
      `010-${i}`,
      `wx${i}`,
      '广东省/深圳市/南山区',
      '互联网',
      '网络',
      'A',
      '产品一',
      1234.5,
      `备注${i}`,
      `x${i}`,
      `y${i}`,
      `z${i}`,
    ]);
  return Buffer.from(await wb.xlsx.writeBuffer());
};

const rssKb = async (pid: number) => {
  const fs = await import('node:fs/promises');
  return Number(/VmRSS:\s+(\d+)/.exec(await fs.readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
};

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

await ensureDatabase(DB);
const cases: { label: string; buf: Buffer; unpacked: string }[] = [];
const bomb = sharedStringsBomb();
cases.push({ label: 'shared strings 5,000 × 1 MB', buf: bomb, unpacked: '5.2 GB' });
const rows = manyRows(4_000_000);
cases.push({ label: '4,000,000 rows', buf: rows.buf, unpacked: `${(rows.unpacked / 1024 / 1024).toFixed(0)} MB` });
// The worst files still accepted: every bound just met.
const atCount = buildXlsxParts({
  sheet: `${SHEET_HEAD}${inlineRow(1, ['客户名称'])}${sharedRow(2, [0])}${SHEET_TAIL}`,
  strings: repeatedPart(STRINGS_HEAD, '<si><t>甲乙丙</t></si>'.repeat(1_000), XLSX_LIMITS.sharedStrings / 1_000, STRINGS_TAIL),
});
cases.push({
  label: `${XLSX_LIMITS.sharedStrings.toLocaleString('en')} shared strings (the count limit)`,
  buf: atCount,
  unpacked: '48 MB',
});
const longRow = (r: number) =>
  `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>${'长'.repeat(XLSX_LIMITS.cellChars)}</t></is></c></row>`;
const rowBytes = Buffer.byteLength(longRow(10_000));
const longRows = Math.floor((XLSX_LIMITS.sheetBytes - 1_000) / rowBytes);
let sheetXml = `${SHEET_HEAD}${inlineRow(1, ['客户名称'])}`;
for (let r = 2; r < longRows; r++) sheetXml += longRow(r);
sheetXml += SHEET_TAIL;
cases.push({
  label: `sheet of ${longRows.toLocaleString('en')} rows of one 32,767-character cell (just under the 256 MB limit)`,
  buf: buildXlsxParts({ sheet: sheetXml }),
  unpacked: `${(Buffer.byteLength(sheetXml) / 1024 / 1024).toFixed(0)} MB`,
});
sheetXml = '';
cases.push({ label: '100,000 customers × 15 columns (real)', buf: await customerFile(100_000), unpacked: '84 MB' });

const { child, base } = await startServer(PORT, DB);
const pid = child.pid as number;
try {
  const token = await login(base, 'admin');
  console.log(`server pid ${pid}, idle RSS ${mb(await rssKb(pid))}, VmHWM so far ${mb(await peakRssKb(pid))}\n`);
  console.log('| file | packed | unpacked | answer | time | server peak RSS (rise) | /api/health after |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const c of cases) {
    const idle = await rssKb(pid);
    let peak = idle;
    const sampler = setInterval(() => {
      rssKb(pid).then(
        (kb) => {
          peak = Math.max(peak, kb);
        },
        () => undefined,
      );
    }, 20);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(c.buf)]), 'bench.xlsx');
    const t0 = performance.now();
    const res = await fetch(`${base}/api/frontend/customer/importpreview`, {
      method: 'POST',
      headers: { authorization: token },
      body: form,
    });
    const ms = performance.now() - t0;
    clearInterval(sampler);
    const body = (await res.json()) as { code: number; msg: string; data?: { rowCount: number } };
    const health = await fetch(`${base}/api/health`).then(
      (r) => r.status,
      (e: Error) => e.message,
    );
    const answer = body.code === 0 ? `200, ${body.data?.rowCount} rows` : `${res.status} ${body.code} ${body.msg}`;
    console.log(
      `| ${c.label} | ${(c.buf.length / 1024 / 1024).toFixed(1)} MB | ${c.unpacked} | ${answer} | ${(ms / 1000).toFixed(2)} s | ${mb(peak)} (+${mb(peak - idle)}) | ${health} |`,
    );
    await new Promise((r) => setTimeout(r, 1000));
  }
  console.log(`\nserver VmHWM (lifetime peak) ${mb(await peakRssKb(pid))}`);
} finally {
  child.kill();
}
