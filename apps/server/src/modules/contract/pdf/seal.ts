import type { PDFPage } from 'pdf-lib';
import { loadResvg, pdfLib } from '../../../lib/lazy-packages';
import { ContractPdfError } from './errors';
import { outlineFont, unsupportedChars } from './font';
import type { SealOptions } from './types';

/** 印章红 */
const SEAL_RED = '#d0021b';

type SealGeometry = {
  size: number;
  color: string;
  /** ring: centre, radius and stroke width */
  ring: { c: number; r: number; width: number };
  /** filled outlines (star and glyphs), SVG coordinates (y down, origin top-left) */
  paths: string[];
  /** glyph strokes widen the Regular face into a seal's heavy lettering */
  glyphStroke: number;
};

/** Glyph outline of `ch`, its centre at (x, y) (SVG coordinates), rotated so its top points along `up`. */
const glyphPath = (ch: string, fontSize: number, x: number, y: number, upAngle: number): string => {
  const font = outlineFont();
  const glyph = font.glyphForCodePoint(ch.codePointAt(0) ?? 0);
  const s = fontSize / font.unitsPerEm;
  // glyph box: advance wide, about 0.88 em tall above the baseline for CJK; centre it on (0, 0)
  const centred = glyph.path.translate(-glyph.advanceWidth / 2, -font.unitsPerEm * 0.38);
  // font units are y-up, SVG is y-down: up vector (ux, uy) in SVG terms, right vector = up rotated 90° clockwise
  const ux = Math.cos(upAngle);
  const uy = -Math.sin(upAngle);
  const rx = -uy;
  const ry = ux;
  return centred.transform(s * rx, s * ry, s * ux, s * uy, x, y).toSVG();
};

const starPath = (cx: number, cy: number, outer: number): string => {
  const inner = outer * 0.382;
  const pts: string[] = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    pts.push(`${(cx + r * Math.cos(a)).toFixed(2)} ${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return `M${pts.join('L')}Z`;
};

/** The round red seal: company name on the upper arc, a star in the middle, the kind across the bottom. */
export const sealGeometry = (options: SealOptions): SealGeometry => {
  const size = options.size ?? 120;
  const name = options.companyName.trim();
  if (!name) throw new ContractPdfError('INVALID_IMAGE', '印章名称不能为空');
  const missing = unsupportedChars(name + options.kind);
  if (missing.length > 0) {
    throw new ContractPdfError('UNSUPPORTED_CHARS', `印章名称含无法显示的字符：${missing.join('')}`, missing);
  }
  const c = size / 2;
  const ringWidth = size * 0.035;
  const r = c - ringWidth / 2 - size * 0.01;
  const chars = [...name];
  const n = chars.length;
  // the name spans up to 215° of the arc (the kind sits in the gap below); long names get smaller letters
  const span = Math.min((215 * Math.PI) / 180, n * 0.4);
  let fontSize = size * 0.15;
  let textR = r - ringWidth / 2 - size * 0.045 - fontSize * 0.5;
  const perChar = (textR * span) / Math.max(n, 1);
  if (perChar < fontSize * 1.02) {
    fontSize = Math.max(size * 0.07, perChar / 1.02);
    textR = r - ringWidth / 2 - size * 0.045 - fontSize * 0.5;
  }
  const paths: string[] = [];
  chars.forEach((ch, i) => {
    // from the left end of the arc clockwise; angle measured y-up from the positive x axis
    const theta = Math.PI / 2 + span / 2 - (n === 1 ? span / 2 : (i * span) / (n - 1));
    const x = c + textR * Math.cos(theta);
    const y = c - textR * Math.sin(theta);
    paths.push(glyphPath(ch, fontSize, x, y, theta));
  });
  paths.push(starPath(c, c, size * 0.16));
  const kindSize = size * 0.105;
  const kind = [...options.kind];
  const kindWidth = kindSize * kind.length;
  kind.forEach((ch, i) => {
    const x = c - kindWidth / 2 + kindSize * (i + 0.5);
    paths.push(glyphPath(ch, kindSize, x, c + size * 0.28, Math.PI / 2));
  });
  return {
    size,
    color: options.color ?? SEAL_RED,
    ring: { c, r, width: ringWidth },
    paths,
    glyphStroke: size * 0.006,
  };
};

/** The seal as a self-contained SVG (text as outlines, no font needed). */
export const sealSvg = (options: SealOptions): string => {
  const g = sealGeometry(options);
  const body = g.paths
    .map((d) => `<path d="${d}" fill="${g.color}" stroke="${g.color}" stroke-width="${g.glyphStroke.toFixed(2)}"/>`)
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${g.size}" height="${g.size}" viewBox="0 0 ${g.size} ${g.size}">` +
    `<circle cx="${g.ring.c}" cy="${g.ring.c}" r="${g.ring.r.toFixed(2)}" fill="none" stroke="${g.color}" stroke-width="${g.ring.width.toFixed(2)}"/>` +
    `${body}</svg>`
  );
};

/** The seal as a transparent PNG, `size` pixels wide (default 240 for a crisp preview). */
export const sealPng = async (options: SealOptions): Promise<Uint8Array> => {
  const svg = sealSvg({ ...options, size: options.size ?? 240 });
  const { Resvg } = await loadResvg();
  return new Uint8Array(new Resvg(svg, { background: 'rgba(0,0,0,0)' }).render().asPng());
};

const hexColor = (hex: string) => {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex) ?? ['', 'd0', '02', '1b'];
  return pdfLib().rgb(Number.parseInt(m[1], 16) / 255, Number.parseInt(m[2], 16) / 255, Number.parseInt(m[3], 16) / 255);
};

/** Draws the seal as vector paths, its box's lower-left corner at (x, y), `size` points wide. */
export const drawSeal = (page: PDFPage, options: SealOptions, x: number, y: number, size = 120) => {
  const g = sealGeometry({ ...options, size });
  const color = hexColor(g.color);
  // drawSvgPath puts the SVG origin (top-left) at (x, y) and flips y
  const top = y + size;
  page.drawCircle({
    x: x + g.ring.c,
    y: y + g.ring.c,
    size: g.ring.r,
    borderColor: color,
    borderWidth: g.ring.width,
    opacity: 0,
    borderOpacity: 0.92,
  });
  for (const d of g.paths) {
    page.drawSvgPath(d, { x, y: top, color, borderColor: color, borderWidth: g.glyphStroke, opacity: 0.92, borderOpacity: 0.92 });
  }
};
