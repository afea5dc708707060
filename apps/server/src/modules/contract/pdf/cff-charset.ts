/**
 * Makes a CID-keyed CFF font's CIDs equal to its glyph ids (an identity charset), in place.
 *
 * pdf-lib writes glyph ids into the text as CIDs (Identity-H). In a CID-keyed CFF the viewer maps a CID
 * to a glyph through the font's charset; HarfBuzz's subset keeps the source CIDs (購 → CID 11949 at
 * glyph 3), so a strict viewer would look up CID 3 and draw nothing. Poppler happens to use glyph ids,
 * which hides the fault. Rewriting the charset to identity makes every viewer agree.
 */
export const identityCidCharset = (sfnt: Buffer): Buffer => {
  const numTables = sfnt.readUInt16BE(4);
  let cff = -1;
  for (let i = 0; i < numTables; i++) {
    const rec = 12 + 16 * i;
    if (sfnt.toString('latin1', rec, rec + 4) === 'CFF ') cff = sfnt.readUInt32BE(rec + 8);
  }
  if (cff < 0) return sfnt;
  const out = Buffer.from(sfnt);
  const at = (p: number) => out[cff + p];
  const card16 = (p: number) => out.readUInt16BE(cff + p);

  /** an INDEX at p: its items' [start, end) and where it ends */
  const index = (p: number) => {
    const count = card16(p);
    if (count === 0) return { items: [] as [number, number][], end: p + 2 };
    const offSize = at(p + 2);
    const off = (i: number) => {
      let v = 0;
      for (let k = 0; k < offSize; k++) v = v * 256 + at(p + 3 + i * offSize + k);
      return v;
    };
    const base = p + 2 + (count + 1) * offSize;
    const items = Array.from({ length: count }, (_, i) => [base + off(i), base + off(i + 1)] as [number, number]);
    return { items, end: base + off(count) };
  };

  /** the Top DICT's operators we need: 15 charset, 17 CharStrings, 12 30 ROS (CID-keyed) */
  const dict = (start: number, end: number) => {
    const ops = new Map<number, number[]>();
    let operands: number[] = [];
    let p = start;
    while (p < end) {
      const b0 = at(p);
      if (b0 === 28) {
        operands.push(out.readInt16BE(cff + p + 1));
        p += 3;
      } else if (b0 === 29) {
        operands.push(out.readInt32BE(cff + p + 1));
        p += 5;
      } else if (b0 === 30) {
        p++;
        while ((at(p) & 0x0f) !== 0x0f && (at(p) & 0xf0) !== 0xf0) p++;
        p++;
        operands.push(0); // reals are not needed here
      } else if (b0 >= 32 && b0 <= 246) {
        operands.push(b0 - 139);
        p++;
      } else if (b0 >= 247 && b0 <= 250) {
        operands.push((b0 - 247) * 256 + at(p + 1) + 108);
        p += 2;
      } else if (b0 >= 251 && b0 <= 254) {
        operands.push(-(b0 - 251) * 256 - at(p + 1) - 108);
        p += 2;
      } else {
        const op = b0 === 12 ? 1200 + at(p + 1) : b0;
        p += b0 === 12 ? 2 : 1;
        ops.set(op, operands);
        operands = [];
      }
    }
    return ops;
  };

  const names = index(at(2));
  const topDicts = index(names.end);
  const [start, end] = topDicts.items[0];
  const top = dict(start, end);
  if (!top.has(1230)) return sfnt; // not CID-keyed: glyph names, nothing to do
  const charsetOffset = top.get(15)?.[0];
  const charStrings = top.get(17)?.[0];
  if (!charsetOffset || charStrings === undefined) return sfnt;
  const numGlyphs = card16(charStrings);
  const format = at(charsetOffset);
  const p = cff + charsetOffset;
  if (format === 0) {
    for (let gid = 1; gid < numGlyphs; gid++) out.writeUInt16BE(gid, p + 1 + 2 * (gid - 1));
    return out;
  }
  // ranges (format 1 or 2): one range of format 2 says "glyph i is CID i" in 5 bytes
  const oldSize = format === 1 ? rangesSize(out, p, numGlyphs, 1) : format === 2 ? rangesSize(out, p, numGlyphs, 2) : 0;
  if (numGlyphs <= 1) return out;
  if (oldSize >= 5) {
    out[p] = 2;
    out.writeUInt16BE(1, p + 1);
    out.writeUInt16BE(numGlyphs - 2, p + 3);
    return out;
  }
  if (numGlyphs - 2 <= 255 && oldSize >= 4) {
    out[p] = 1;
    out.writeUInt16BE(1, p + 1);
    out[p + 3] = numGlyphs - 2;
    return out;
  }
  throw new Error('CFF charset: no room for an identity charset');
};

const rangesSize = (buf: Buffer, p: number, numGlyphs: number, format: 1 | 2) => {
  const entry = format === 1 ? 3 : 4;
  let covered = 1;
  let q = p + 1;
  while (covered < numGlyphs) {
    const nLeft = format === 1 ? buf[q + 2] : buf.readUInt16BE(q + 2);
    covered += nLeft + 1;
    q += entry;
  }
  return q - p;
};
