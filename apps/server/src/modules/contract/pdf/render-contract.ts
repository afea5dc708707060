import type { PDFDict, PDFDocument, PDFFont, PDFPage, RGB } from 'pdf-lib';
import { loadPdfLib, pdfLib } from '../../../lib/lazy-packages';
import { ContractPdfError } from './errors';
import { embedContractFont, textWidth, unsupportedChars } from './font';
import { wrapText } from './layout';
import { savePdf } from './save';
import type { Block, ContractPdfInput, Party, ProductsTable, SignatureSlot } from './types';

/** SPEC §9: A4 in points */
export const A4: [number, number] = [595.28, 841.89];
const MARGIN_X = 56;
const MARGIN_TOP = 64;
const MARGIN_BOTTOM = 64;
const CONTENT_W = A4[0] - 2 * MARGIN_X;
// colours are made on use: pdf-lib is loaded by the first render (lib/lazy-packages.ts)
const ink = () => pdfLib().rgb(0.1, 0.1, 0.1);
const grey = () => pdfLib().rgb(0.45, 0.45, 0.45);
const rule = () => pdfLib().rgb(0.55, 0.55, 0.55);
const BODY = 10.5;
const LEADING = 1.7;
const TABLE_SIZE = 9;
const CELL_PAD = 4;
/** the seal / signature area of each party */
const SLOT_W = 150;
const SLOT_H = 110;
/** the info-dictionary key holding the signing slots (readSignatureSlots) */
export const SLOTS_KEY = 'CrmSignatureSlots';

type Ctx = { doc: PDFDocument; font: PDFFont; page: PDFPage; y: number; pages: PDFPage[] };

const newPage = (ctx: Ctx) => {
  ctx.page = ctx.doc.addPage(A4);
  ctx.pages.push(ctx.page);
  ctx.y = A4[1] - MARGIN_TOP;
};

/** Room left on the page; a new page when `height` does not fit. */
const ensure = (ctx: Ctx, height: number) => {
  if (ctx.y - height < MARGIN_BOTTOM) newPage(ctx);
};

export const drawLine = (
  page: PDFPage,
  font: PDFFont,
  text: string,
  x: number,
  y: number,
  size: number,
  opts: { isBold?: boolean; color?: RGB } = {},
) => {
  if (!text) return;
  const { popGraphicsState, pushGraphicsState, setLineWidth, setStrokingColor, setTextRenderingMode, TextRenderingMode } =
    pdfLib();
  if (opts.isBold) {
    // a Regular face drawn filled and stroked: bold without shipping a second font
    page.pushOperators(
      pushGraphicsState(),
      setTextRenderingMode(TextRenderingMode.FillAndOutline),
      setLineWidth(size * 0.035),
      setStrokingColor(opts.color ?? ink()),
    );
  }
  page.drawText(text, { x, y, size, font, color: opts.color ?? ink() });
  if (opts.isBold) page.pushOperators(popGraphicsState());
};

const alignedX = (text: string, size: number, left: number, width: number, align = 'left') => {
  if (align === 'center') return left + (width - textWidth(text, size)) / 2;
  if (align === 'right') return left + width - textWidth(text, size);
  return left;
};

const drawParagraph = (
  ctx: Ctx,
  text: string,
  size: number,
  opts: { align?: string; isIndented?: boolean; isBold?: boolean; after?: number },
) => {
  const indent = opts.isIndented ? 2 * size : 0;
  const lines = wrapText(text, size, CONTENT_W, indent);
  const lh = size * LEADING;
  lines.forEach((line, i) => {
    ensure(ctx, lh);
    const left = MARGIN_X + (i === 0 ? indent : 0);
    const x = alignedX(line, size, left, CONTENT_W - (i === 0 ? indent : 0), opts.align);
    drawLine(ctx.page, ctx.font, line, x, ctx.y - size, size, { isBold: opts.isBold });
    ctx.y -= lh;
  });
  ctx.y -= opts.after ?? size * 0.5;
};

const drawTable = (ctx: Ctx, table: ProductsTable) => {
  const total = table.columns.reduce((s, c) => s + Math.max(c.width, 0.1), 0);
  const widths = table.columns.map((c) => (Math.max(c.width, 0.1) / total) * CONTENT_W);
  const lefts = widths.map((_, i) => MARGIN_X + widths.slice(0, i).reduce((s, w) => s + w, 0));
  const lh = TABLE_SIZE * 1.45;
  const cellLines = (text: string, w: number) => wrapText(text, TABLE_SIZE, w - 2 * CELL_PAD);
  const headerLines = table.columns.map((c, i) => cellLines(c.title, widths[i]));
  const headerH = Math.max(...headerLines.map((l) => l.length)) * lh + 2 * CELL_PAD;

  const drawHeader = () => {
    const top = ctx.y;
    ctx.page.drawRectangle({
      x: MARGIN_X,
      y: top - headerH,
      width: CONTENT_W,
      height: headerH,
      color: pdfLib().rgb(0.93, 0.93, 0.93),
    });
    headerLines.forEach((lines, i) => {
      lines.forEach((line, k) => {
        const x = alignedX(line, TABLE_SIZE, lefts[i] + CELL_PAD, widths[i] - 2 * CELL_PAD, 'center');
        drawLine(ctx.page, ctx.font, line, x, top - CELL_PAD - (k + 1) * lh + lh * 0.28, TABLE_SIZE, { isBold: true });
      });
    });
    drawGrid(top, top - headerH);
    ctx.y = top - headerH;
  };

  /** borders of one row band: outer box and column separators */
  const drawGrid = (top: number, bottom: number, spans = widths.length) => {
    const p = ctx.page;
    const line = (x1: number, y1: number, x2: number, y2: number) =>
      p.drawLine({ start: { x: x1, y: y1 }, end: { x: x2, y: y2 }, thickness: 0.5, color: rule() });
    line(MARGIN_X, top, MARGIN_X + CONTENT_W, top);
    line(MARGIN_X, bottom, MARGIN_X + CONTENT_W, bottom);
    line(MARGIN_X, top, MARGIN_X, bottom);
    line(MARGIN_X + CONTENT_W, top, MARGIN_X + CONTENT_W, bottom);
    const seps = spans === widths.length ? lefts.slice(1) : [lefts[lefts.length - 1]];
    for (const x of seps) line(x, top, x, bottom);
  };

  ensure(ctx, headerH + lh + 2 * CELL_PAD);
  drawHeader();
  const rows: { cells: string[][]; aligns: string[]; isTotal: boolean }[] = table.rows.map((row) => ({
    cells: table.columns.map((_, i) => cellLines(row[i] ?? '', widths[i])),
    aligns: table.columns.map((c) => c.align ?? 'left'),
    isTotal: false,
  }));
  const lastW = widths[widths.length - 1];
  const labelW = CONTENT_W - lastW;
  for (const t of table.totals ?? []) {
    const label = wrapText(t.label, TABLE_SIZE, labelW - 2 * CELL_PAD);
    const value = cellLines(t.value, lastW);
    rows.push({ cells: [label, value], aligns: ['right', table.columns.at(-1)?.align ?? 'right'], isTotal: true });
  }

  for (const row of rows) {
    let done = 0;
    const n = Math.max(...row.cells.map((l) => l.length), 1);
    while (done < n) {
      // as many of the row's lines as fit; the rest continue under a repeated header
      let fit = Math.floor((ctx.y - MARGIN_BOTTOM - 2 * CELL_PAD) / lh);
      if (fit < Math.min(n - done, 1) || (done === 0 && fit < n && n <= 6)) {
        newPage(ctx);
        drawHeader();
        fit = Math.floor((ctx.y - MARGIN_BOTTOM - 2 * CELL_PAD) / lh);
      }
      const take = Math.min(fit, n - done);
      const top = ctx.y;
      const h = take * lh + 2 * CELL_PAD;
      const colLefts = row.isTotal ? [MARGIN_X, lefts[lefts.length - 1]] : lefts;
      const colWidths = row.isTotal ? [labelW, lastW] : widths;
      row.cells.forEach((lines, i) => {
        lines.slice(done, done + take).forEach((line, k) => {
          const x = alignedX(line, TABLE_SIZE, colLefts[i] + CELL_PAD, colWidths[i] - 2 * CELL_PAD, row.aligns[i]);
          drawLine(ctx.page, ctx.font, line, x, top - CELL_PAD - (k + 1) * lh + lh * 0.28, TABLE_SIZE, {
            isBold: row.isTotal,
          });
        });
      });
      drawGrid(top, top - h, row.isTotal ? 2 : widths.length);
      ctx.y = top - h;
      done += take;
      if (done < n) {
        newPage(ctx);
        drawHeader();
      }
    }
  }
  ctx.y -= BODY;
};

const drawBlock = (ctx: Ctx, block: Block) => {
  switch (block.kind) {
    case 'heading':
      if (block.level === 1) drawParagraph(ctx, block.text, 15, { align: 'center', isBold: true, after: 10 });
      else {
        ensure(ctx, 12 * LEADING * 3); // a heading never ends a page alone
        ctx.y -= 4;
        drawParagraph(ctx, block.text, 12, { isBold: true, after: 3 });
      }
      return;
    case 'paragraph':
      drawParagraph(ctx, block.text, BODY, block);
      return;
    case 'table':
      drawTable(ctx, block.table);
      return;
    case 'spacer':
      ctx.y -= Math.max(0, Math.min(block.height, 400));
      if (ctx.y < MARGIN_BOTTOM) newPage(ctx);
      return;
    case 'pageBreak':
      newPage(ctx);
      return;
  }
};

/** The parties side by side (two per row), each with its seal/signature area, kept on one page. */
const drawParties = (ctx: Ctx, parties: Party[]): SignatureSlot[] => {
  const slots: SignatureSlot[] = [];
  const colW = CONTENT_W / 2;
  const lh = BODY * LEADING;
  for (let i = 0; i < parties.length; i += 2) {
    const pair = parties.slice(i, i + 2);
    const blockLines = pair.map((p) => [
      ...wrapText(`${p.role}：${p.name}`, BODY, colW - 12),
      ...(p.lines ?? []).flatMap((l) => wrapText(`${l.label}：${l.value}`, BODY, colW - 12)),
    ]);
    const height = Math.max(...blockLines.map((l) => l.length)) * lh + SLOT_H + lh + 16;
    ensure(ctx, height);
    const top = ctx.y;
    pair.forEach((party, k) => {
      const left = MARGIN_X + k * colW;
      let y = top;
      blockLines[k].forEach((line, n) => {
        drawLine(ctx.page, ctx.font, line, left, y - BODY, BODY, { isBold: n === 0 });
        y -= lh;
      });
      const label = party.signer === 'company' ? '（盖章）' : '（签字）';
      drawLine(ctx.page, ctx.font, `${party.role}${label}：`, left, y - BODY - 4, BODY, { color: grey() });
      const slotY = y - 8 - SLOT_H;
      slots.push({
        signer: party.signer,
        page: ctx.pages.indexOf(ctx.page),
        x: left + 60,
        y: slotY,
        width: SLOT_W,
        height: SLOT_H,
      });
    });
    ctx.y = top - height;
  }
  return slots;
};

const footers = (ctx: Ctx, input: ContractPdfInput) => {
  const total = ctx.pages.length;
  ctx.pages.forEach((page, i) => {
    const size = 8;
    const left = `合同编号：${input.number}${input.footer ? `　${input.footer}` : ''}`;
    const right = `第 ${i + 1} 页 / 共 ${total} 页`;
    page.drawLine({
      start: { x: MARGIN_X, y: 44 },
      end: { x: A4[0] - MARGIN_X, y: 44 },
      thickness: 0.4,
      color: pdfLib().rgb(0.75, 0.75, 0.75),
    });
    drawLine(page, ctx.font, left, MARGIN_X, 32, size, { color: grey() });
    drawLine(page, ctx.font, right, A4[0] - MARGIN_X - textWidth(right, size), 32, size, { color: grey() });
  });
};

const allText = (input: ContractPdfInput): string => {
  const parts = [input.title, input.number, input.companyName, input.footer ?? '', '合同编号：（盖章）（签字）'];
  for (const b of input.body) {
    if (b.kind === 'heading' || b.kind === 'paragraph') parts.push(b.text);
    if (b.kind === 'table') {
      parts.push(...b.table.columns.map((c) => c.title), ...b.table.rows.flat());
      for (const t of b.table.totals ?? []) parts.push(t.label, t.value);
    }
  }
  for (const p of input.parties) {
    parts.push(p.role, p.name, ...(p.lines ?? []).flatMap((l) => [l.label, `${l.value}：`]));
  }
  return parts.join('');
};

/** A4 contract PDF with real Chinese text; signing slots recorded in the file (readSignatureSlots). */
export const renderContractPdf = async (input: ContractPdfInput): Promise<Uint8Array> => {
  const text = allText(input);
  const missing = unsupportedChars(text);
  if (missing.length > 0) {
    throw new ContractPdfError('UNSUPPORTED_CHARS', `合同内容含无法显示的字符：${missing.join('')}`, missing);
  }
  const { PDFDocument, PDFHexString, PDFName } = await loadPdfLib();
  const doc = await PDFDocument.create();
  const font = await embedContractFont(doc, text);
  doc.setTitle(input.title, { showInWindowTitleBar: true });
  doc.setAuthor(input.companyName);
  doc.setSubject(`合同编号 ${input.number}`);
  doc.setProducer('CRM 电子合同');
  doc.setCreator('CRM 电子合同');
  doc.setLanguage('zh-CN');
  const ctx: Ctx = { doc, font, page: undefined as unknown as PDFPage, y: 0, pages: [] };
  newPage(ctx);
  drawParagraph(ctx, input.title, 18, { align: 'center', isBold: true, after: 4 });
  drawParagraph(ctx, `合同编号：${input.number}`, 9, { align: 'right', after: 10 });
  for (const block of input.body) drawBlock(ctx, block);
  ctx.y -= BODY;
  const slots = drawParties(ctx, input.parties);
  footers(ctx, input);
  infoDict(doc).set(PDFName.of(SLOTS_KEY), PDFHexString.fromText(JSON.stringify(slots)));
  return savePdf(doc);
};

/** pdf-lib keeps the document information dictionary's getter private; custom keys need it */
const infoDict = (doc: PDFDocument) => (doc as unknown as { getInfoDict(): PDFDict }).getInfoDict();

/** The signing slots renderContractPdf recorded in a PDF's metadata ([] when none). */
export const readSignatureSlots = async (pdf: Uint8Array | PDFDocument): Promise<SignatureSlot[]> => {
  const { PDFDocument, PDFHexString, PDFName } = await loadPdfLib();
  const doc = pdf instanceof PDFDocument ? pdf : await PDFDocument.load(pdf, { updateMetadata: false });
  const raw = infoDict(doc).get(PDFName.of(SLOTS_KEY));
  if (!(raw instanceof PDFHexString)) return [];
  try {
    const parsed = JSON.parse(raw.decodeText());
    return Array.isArray(parsed) ? (parsed as SignatureSlot[]) : [];
  } catch {
    return [];
  }
};
