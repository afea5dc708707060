/**
 * Builds the contract PDFs' font (issue 26): Noto Sans CJK SC Regular (SIL OFL 1.1, Debian's fonts-noto-cjk)
 * cut down to GB2312 (levels 1 and 2 and its symbol rows) + ASCII + CJK punctuation + a few characters
 * contracts and names need that GB2312 lacks. The result is committed (apps/server/assets/fonts/), so
 * nothing is fetched or read from a Debian package at run time; each PDF then embeds a subset of it.
 *
 *   node --import tsx apps/server/src/scripts/contract-font-subset.ts [path/to/NotoSansCJK-Regular.ttc]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import subsetFont from 'subset-font';

const SOURCE = process.argv[2] ?? '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
const FACE = 'NotoSansCJKsc-Regular';
const OUT = path.resolve(import.meta.dirname, '../../assets/fonts/NotoSansSC-contract.otf');

/** Characters outside GB2312 that Chinese contracts and personal names use. */
const EXTRA =
  '¥€°±×÷·—–‘’“”…‰′″※℃№™①②③④⑤⑥⑦⑧⑨⑩⑴⑵⑶⑷⑸⑹⑺⑻⑼⑽○●□■△▲◇◆☆★√' +
  '、。〈〉《》「」『』【】〔〕〖〗〃々〇' +
  '！＂＃＄％＆＇（）＊＋，－．／：；＜＝＞？＠［＼］＾＿｀｛｜｝～￥' +
  // names and company names: common characters outside GB2312 (通用规范汉字表 additions)
  '喆玥堃赟昇珺犇垚旻祎甯瑢彧晞琇珣瑀璟琤玙瑄珮琬瑭璠璞镕鋆锟焜炜烜煜熠曌昀昕晔暐晟晖暻' +
  '祺禛淏淇沄泓洺浛溦澍瀚頔颢颋骐骕骞鹍鹏鹓凇冼邝邬郄郗亓仉佘佴訾隗厍彭竑翀翯翊翃翚' +
  '锘锜铖铧钖钜钲铎铠锃锠锳镠镤镛恺悦怿忻恒惇愔慜' +
  '嘚噻囧槑';

/** GB2312: rows 0xA1–0xA9 (symbols) and 0xB0–0xF7 (hanzi), decoded with the WHATWG GBK decoder. */
const gb2312 = (): string => {
  const decoder = new TextDecoder('gbk', { fatal: false });
  let out = '';
  const rows = [...range(0xa1, 0xa9), ...range(0xb0, 0xf7)];
  for (const hi of rows) {
    for (const lo of range(0xa1, 0xfe)) {
      if (hi === 0xd7 && lo > 0xf9) continue; // GB2312's row 55 ends at 0xD7F9 (GBK fills the rest)
      const ch = decoder.decode(new Uint8Array([hi, lo]));
      if (ch !== '\ufffd') out += ch;
    }
  }
  return out;
};

function* range(from: number, to: number) {
  for (let i = from; i <= to; i++) yield i;
}

/** One face of a TrueType/OpenType collection as a standalone font file (tables copied, offsets rebuilt). */
const extractFace = (ttc: Buffer, postscriptName: string): Buffer => {
  if (ttc.toString('latin1', 0, 4) !== 'ttcf') return ttc;
  const count = ttc.readUInt32BE(8);
  for (let f = 0; f < count; f++) {
    const dir = ttc.readUInt32BE(12 + 4 * f);
    const numTables = ttc.readUInt16BE(dir + 4);
    const tables = Array.from({ length: numTables }, (_, i) => {
      const rec = dir + 12 + 16 * i;
      return {
        tag: ttc.toString('latin1', rec, rec + 4),
        checksum: ttc.readUInt32BE(rec + 4),
        data: ttc.subarray(ttc.readUInt32BE(rec + 8), ttc.readUInt32BE(rec + 8) + ttc.readUInt32BE(rec + 12)),
      };
    });
    const header = 12 + 16 * numTables;
    let offset = header;
    const placed = tables.map((t) => {
      const at = offset;
      offset += Math.ceil(t.data.length / 4) * 4;
      return { ...t, at };
    });
    const out = Buffer.alloc(offset);
    ttc.copy(out, 0, dir, dir + 12);
    placed.forEach((t, i) => {
      const rec = 12 + 16 * i;
      out.write(t.tag, rec, 'latin1');
      out.writeUInt32BE(t.checksum, rec + 4);
      out.writeUInt32BE(t.at, rec + 8);
      out.writeUInt32BE(t.data.length, rec + 12);
      t.data.copy(out, t.at);
    });
    if (out.includes(Buffer.from(postscriptName, 'utf16le').swap16())) return out; // name table: UTF-16BE
  }
  throw new Error(`${postscriptName} not found in ${SOURCE}`);
};

const ascii = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');
const text = [...new Set(ascii + gb2312() + EXTRA)].join('');
const face = extractFace(readFileSync(SOURCE), FACE);
// No layout closure: HarfBuzz runs out of wasm memory on the whole GSUB closure of 7,700 characters, and the
// PDFs need no vertical or alternate forms; no hinting: PDF viewers do not use CFF hints much (1.8 → 1.5 MiB).
const subset = await subsetFont(face, text, { targetFormat: 'sfnt', noLayoutClosure: true, noHinting: true });
writeFileSync(OUT, subset);
console.log(
  `${FACE}: ${[...text].length} characters → ${path.relative(process.cwd(), OUT)} (${Math.round(subset.length / 1024)} KiB)`,
);
