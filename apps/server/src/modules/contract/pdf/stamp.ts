import type { PDFDocument, PDFImage } from 'pdf-lib';
import { loadPdfLib, pdfLib } from '../../../lib/lazy-packages';
import { ContractPdfError } from './errors';
import { embedContractFont, textWidth, unsupportedChars } from './font';
import { wrapText } from './layout';
import { drawLine, readSignatureSlots } from './render-contract';
import { savePdf } from './save';
import { drawSeal } from './seal';
import type { PdfFieldValue, SignatureSlot, StampSignaturesInput } from './types';

const load = async (pdf: Uint8Array): Promise<PDFDocument> => {
  const { PDFDocument } = await loadPdfLib();
  try {
    return await PDFDocument.load(pdf, { updateMetadata: false });
  } catch {
    throw new ContractPdfError('INVALID_PDF', '合同文件无法读取');
  }
};

const embedPng = async (doc: PDFDocument, png: Uint8Array, what: string): Promise<PDFImage> => {
  try {
    return await doc.embedPng(png);
  } catch {
    throw new ContractPdfError('INVALID_IMAGE', `${what}不是有效的 PNG 图片`);
  }
};

/** Fits an image into a box, keeping its proportions, centred. */
const fit = (img: PDFImage, box: { x: number; y: number; width: number; height: number }) => {
  const k = Math.min(box.width / img.width, box.height / img.height);
  const width = img.width * k;
  const height = img.height * k;
  return { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height };
};

const checkChars = (text: string) => {
  const missing = unsupportedChars(text);
  if (missing.length > 0) {
    throw new ContractPdfError('UNSUPPORTED_CHARS', `签名内容含无法显示的字符：${missing.join('')}`, missing);
  }
};

/** Company seal and customer signature drawn into their slots (the signed, pre-archive version). */
export const stampSignatures = async (pdf: Uint8Array, input: StampSignaturesInput): Promise<Uint8Array> => {
  const doc = await load(pdf);
  const slots: SignatureSlot[] = input.slots ?? (await readSignatureSlots(doc));
  const pages = doc.getPages();
  const typed = input.customer && 'typedName' in input.customer ? input.customer.typedName.trim() : '';
  const timeText = [input.companySignedAt, input.customerSignedAt].filter(Boolean).map((t) => `签署时间：${t}`);
  checkChars(typed + timeText.join(''));
  const font = typed || timeText.length > 0 ? await embedContractFont(doc, typed + timeText.join('')) : undefined;
  const sealImage = input.seal && 'png' in input.seal ? await embedPng(doc, input.seal.png, '印章图片') : undefined;
  const signImage = input.customer && 'png' in input.customer ? await embedPng(doc, input.customer.png, '签名图片') : undefined;

  for (const slot of slots) {
    const page = pages[slot.page];
    if (!page) continue;
    const box = { x: slot.x, y: slot.y, width: slot.width, height: slot.height };
    let when: string | undefined;
    if (slot.signer === 'company' && input.seal) {
      const size = Math.min(slot.width, slot.height);
      if ('generated' in input.seal) {
        drawSeal(page, input.seal.generated, slot.x + (slot.width - size) / 2, slot.y + (slot.height - size) / 2, size);
      } else if (sealImage) {
        page.drawImage(sealImage, {
          ...fit(sealImage, { ...box, width: size, x: slot.x + (slot.width - size) / 2 }),
          opacity: 0.92,
        });
      }
      when = input.companySignedAt;
    }
    if (slot.signer === 'customer' && input.customer) {
      if (signImage) page.drawImage(signImage, fit(signImage, { ...box, y: box.y + 10, height: box.height - 20 }));
      else if (font && typed) {
        const size = Math.min(24, (slot.width - 8) / Math.max([...typed].length, 1));
        drawLine(
          page,
          font,
          typed,
          slot.x + (slot.width - textWidth(typed, size)) / 2,
          slot.y + slot.height / 2 - size / 3,
          size,
          {
            isBold: true,
            color: pdfLib().rgb(0.05, 0.1, 0.35),
          },
        );
      }
      when = input.customerSignedAt;
    }
    if (when && font) drawLine(page, font, `签署时间：${when}`, slot.x, slot.y - 10, 8, { color: pdfLib().rgb(0.4, 0.4, 0.4) });
  }
  return savePdf(doc);
};

/** A new version with 已作废 stamped on every page and the reason on the first. */
export const stampVoid = async (pdf: Uint8Array, input: { reason: string; at: string }): Promise<Uint8Array> => {
  const doc = await load(pdf);
  const note = `本合同已于 ${input.at} 作废。作废原因：${input.reason}`;
  checkChars(note);
  const font = await embedContractFont(doc, `已作废${note}`);
  const { degrees, rgb } = pdfLib();
  const red = rgb(0.8, 0.05, 0.1);
  doc.getPages().forEach((page, i) => {
    const { width, height } = page.getSize();
    const size = 96;
    const w = textWidth('已作废', size);
    const a = Math.PI / 6;
    // centred and turned 30°: the text's origin sits back from the centre along its own direction
    const cx = width / 2 - (w / 2) * Math.cos(a) + (size / 3) * Math.sin(a);
    const cy = height / 2 - (w / 2) * Math.sin(a) - (size / 3) * Math.cos(a);
    page.drawText('已作废', { x: cx, y: cy, size, font, color: red, opacity: 0.35, rotate: degrees(30) });
    if (i === 0) {
      const lines = wrapText(note, 10, width - 112);
      lines.forEach((line, k) => {
        drawLine(page, font, line, 56, height - 30 - k * 14, 10, { color: red });
      });
    }
  });
  return savePdf(doc);
};

/** An uploaded PDF template with its fields' values drawn where they were placed (same font, real text). */
export const fillPdfTemplate = async (pdf: Uint8Array, fields: PdfFieldValue[]): Promise<Uint8Array> => {
  const doc = await load(pdf);
  const all = fields.map((f) => f.value).join('');
  checkChars(all);
  const font = await embedContractFont(doc, all);
  const pages = doc.getPages();
  for (const f of fields) {
    const page = pages[f.page];
    if (!page) throw new ContractPdfError('INVALID_PDF', `字段所在页（第 ${f.page + 1} 页）不存在`);
    const size = f.fontSize ?? 10.5;
    const lines = f.width ? wrapText(f.value, size, f.width) : f.value.split(/\r?\n/);
    lines.forEach((line, k) => {
      drawLine(page, font, line, f.x, f.y - k * size * 1.5, size);
    });
  }
  return savePdf(doc);
};
