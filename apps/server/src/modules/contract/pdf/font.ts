import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Font } from 'fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';

type PdfLibFontkit = Parameters<PDFDocument['registerFontkit']>[0];

import { fontkit } from '../../../lib/lazy-packages';
import { SERVER_ROOT } from '../../../server-root';
import { identityCidCharset } from './cff-charset';
import { createFaceSubsetter, type FaceSubsetter } from './hb-subset';

/**
 * The contracts' font: a Noto Sans CJK SC subset shipped in the repo (assets/fonts, OFL; built by
 * scripts/contract-font-subset.ts). Each PDF embeds a further subset holding only its own characters
 * (HarfBuzz, one parsed face: hb-subset.ts), so a contract weighs tens of KiB instead of 1.5 MiB. The last
 * SUBSET_CACHE subsets are kept by character set: a stamp, a void stamp or the certificate page of the same
 * characters reuses its bytes. pdf-lib's own
 * `subset: true` and @pdf-lib/fontkit 1.1.1 lose CJK glyphs (pdf-lib #1232): we subset first and embed
 * the result whole, measured and laid out by upstream fontkit 2.
 */
const FONT_FILE = path.join(SERVER_ROOT, 'assets/fonts/NotoSansSC-contract.otf');

let base: { bytes: Buffer; font: Font } | undefined;
let subsetter: Promise<FaceSubsetter> | undefined;
const widthCache = new Map<string, number>();
const SUBSET_CACHE = 32;
const subsets = new Map<string, Buffer>();

const baseFont = () => {
  if (!base) {
    const bytes = readFileSync(FONT_FILE); // a Buffer: subset-font sniffs the format with Buffer methods
    base = { bytes, font: fontkit().create(bytes) };
  }
  return base;
};

/** The shipped font's glyph outlines (seal text). */
export const outlineFont = (): Font => baseFont().font;

/** pdf-lib calls `fontkit.create`; fontkit 2 has the same entry point (the adapter pdf-lib needs). */
const pdfLibFontkit = { create: (data: Uint8Array) => fontkit().create(data) } as unknown as PdfLibFontkit;

/** Characters the shipped font has no glyph for (line breaks and tabs aside). */
export const unsupportedChars = (text: string): string[] => {
  const { font } = baseFont();
  const missing = new Set<string>();
  for (const ch of text) {
    if (ch === '\n' || ch === '\r' || ch === '\t') continue;
    if (!font.hasGlyphForCodePoint(ch.codePointAt(0) ?? 0)) missing.add(ch);
  }
  return [...missing];
};

/** Width of `text` at `size` points (advance widths; the CJK font has no kerning worth applying here). */
export const textWidth = (text: string, size: number): number => {
  const { font } = baseFont();
  let units = 0;
  for (const ch of text) {
    let w = widthCache.get(ch);
    if (w === undefined) {
      w = font.glyphForCodePoint(ch.codePointAt(0) ?? 0).advanceWidth;
      widthCache.set(ch, w);
    }
    units += w;
  }
  return (units / font.unitsPerEm) * size;
};

/** The font's subset holding the characters of `key` (sorted, unique), CID charset made identity. */
const subsetFor = async (key: string): Promise<Buffer> => {
  const hit = subsets.get(key);
  if (hit) {
    subsets.delete(key); // most recently used last
    subsets.set(key, hit);
    return hit;
  }
  subsetter ??= createFaceSubsetter(baseFont().bytes);
  const bytes = identityCidCharset((await subsetter)(key));
  subsets.set(key, bytes);
  if (subsets.size > SUBSET_CACHE) subsets.delete(subsets.keys().next().value as string);
  return bytes;
};

/** Embeds a subset of the contract font holding `chars` (plus ASCII digits for page numbers). */
export const embedContractFont = async (doc: PDFDocument, chars: Iterable<string>): Promise<PDFFont> => {
  const set = new Set<string>('0123456789/ 第页共-');
  for (const ch of chars) if (ch !== '\n' && ch !== '\r') set.add(ch);
  const bytes = await subsetFor([...set].sort().join(''));
  doc.registerFontkit(pdfLibFontkit);
  return doc.embedFont(bytes, { subset: false });
};

/** Loads the font and HarfBuzz ahead of the first contract (the first render otherwise pays ~1–6 s). */
export const warmContractFont = async (): Promise<void> => {
  await subsetFor('合同');
  textWidth('合同', 10);
};
