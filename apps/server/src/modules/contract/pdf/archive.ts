import { createHash } from 'node:crypto';
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { loadLibPdf, loadPdfLib, pdfLib } from '../../../lib/lazy-packages';
import { openCompanyKey } from './company-key';
import { ContractPdfError } from './errors';
import { embedContractFont, textWidth, unsupportedChars } from './font';
import { wrapText } from './layout';
import { A4, drawLine } from './render-contract';
import { savePdf } from './save';
import type { ArchiveResult, CertificateInput, CompanyKey } from './types';

export const sha256Hex = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const M = 50;
const W = A4[0] - 2 * M;
// colours are made on use: pdf-lib is loaded by the first archive (lib/lazy-packages.ts)
const red = () => pdfLib().rgb(0.75, 0.05, 0.1);
const grey = () => pdfLib().rgb(0.45, 0.45, 0.45);

/** The certificate pages' lines: [text, size, bold, grey] */
const certificateLines = (c: CertificateInput, sha256Before: string): [string, number, boolean, boolean][] => {
  const out: [string, number, boolean, boolean][] = [];
  out.push([`合同名称：${c.contractTitle}`, 10.5, false, false]);
  out.push([`合同编号：${c.contractNumber}`, 10.5, false, false]);
  out.push([`发起方：${c.companyName}`, 10.5, false, false]);
  out.push([`归档时间：${c.archivedAt}`, 10.5, false, false]);
  out.push([`签署前文件 SHA-256：${sha256Before}`, 9, false, false]);
  out.push(['', 6, false, false]);
  out.push(['签署方', 12, true, false]);
  for (const s of c.signers) {
    out.push([`${s.role}：${s.name}`, 10.5, true, false]);
    out.push([`签署方式：${s.method}`, 9.5, false, false]);
    out.push([`签署时间：${s.signedAt}${s.phone ? `　　手机号：${s.phone}` : ''}`, 9.5, false, false]);
    out.push([`IP 地址：${s.ip}`, 9.5, false, false]);
    out.push([`设备信息：${s.userAgent}`, 8.5, false, true]);
    out.push(['', 4, false, false]);
  }
  out.push(['签署记录', 12, true, false]);
  for (const line of c.auditTrail) out.push([line, 9, false, false]);
  out.push(['', 6, false, false]);
  out.push([
    '说明：本证书页由平台在全部签署方完成签署后自动生成并附于合同之后，随后平台以发起方的数字证书对整份文件施加一个数字签名（PAdES）。文件的任何改动都会使该签名失效，可在平台的合同验证页上传本文件核验。',
    8.5,
    false,
    true,
  ]);
  return out;
};

const drawCertificate = (doc: PDFDocument, font: PDFFont, c: CertificateInput, sha256Before: string) => {
  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - 60;
  let pageNo = 1;
  const header = () => {
    const title = pageNo === 1 ? '电子签署证书' : '电子签署证书（续）';
    drawLine(page, font, title, (A4[0] - textWidth(title, 18)) / 2, y - 18, 18, { isBold: true, color: red() });
    y -= 40;
    page.drawLine({ start: { x: M, y }, end: { x: A4[0] - M, y }, thickness: 0.8, color: red() });
    y -= 14;
  };
  header();
  for (const [text, size, isBold, isGrey] of certificateLines(c, sha256Before)) {
    const lines = text === '' ? [''] : wrapText(text, size, W);
    for (const line of lines) {
      const lh = size * 1.6;
      if (y - lh < 60) {
        page = doc.addPage(A4);
        y = A4[1] - 60;
        pageNo++;
        header();
      }
      drawLine(page, font, line, M, y - size, size, { isBold, color: isGrey ? grey() : undefined });
      y -= lh;
    }
  }
};

const allCertificateText = (c: CertificateInput, sha: string) =>
  `电子签署证书（续）${certificateLines(c, sha)
    .map(([t]) => t)
    .join('')}`;

/** Flatten, append the Chinese certificate page, then ONE PAdES signature over the whole file. */
export const archiveContractPdf = async (input: {
  pdf: Uint8Array;
  certificate: CertificateInput;
  companyKey: CompanyKey;
  keySecret: string;
}): Promise<ArchiveResult> => {
  const sha256Before = sha256Hex(input.pdf);
  const key = await openCompanyKey(input.companyKey, input.keySecret);
  const { PDFDocument } = await loadPdfLib();
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(input.pdf, { updateMetadata: false });
  } catch {
    throw new ContractPdfError('INVALID_PDF', '合同文件无法读取');
  }
  // form fields of uploaded templates become plain page content
  try {
    doc.getForm().flatten();
  } catch {
    // no AcroForm, or a broken one: nothing interactive to keep
  }
  const text = allCertificateText(input.certificate, sha256Before);
  const missing = unsupportedChars(text);
  const safe = missing.length === 0 ? input.certificate : replaceMissing(input.certificate, new Set(missing));
  const font = await embedContractFont(doc, allCertificateText(safe, sha256Before));
  drawCertificate(doc, font, safe, sha256Before);
  const flattened = await savePdf(doc);

  // one signature at the very end (pdf-lib cannot save incrementally, so nothing may be written after it)
  const { CryptoKeySigner, PDF } = await loadLibPdf();
  const pdf = await PDF.load(flattened);
  const signer = new CryptoKeySigner(key.privateKey, key.certDer, 'RSA', 'RSASSA-PKCS1-v1_5');
  const { bytes } = await pdf.sign({
    signer,
    reason: '合同归档',
    location: 'CN',
    contactInfo: input.certificate.companyName,
    subFilter: 'ETSI.CAdES.detached',
    level: 'B-B',
    fieldName: 'CrmArchiveSignature',
  });
  return { bytes, sha256Before, sha256After: sha256Hex(bytes) };
};

/** User agents and names may carry characters the font lacks (emoji…): the certificate shows them as U+FFFD-free '?' */
const replaceMissing = (c: CertificateInput, missing: Set<string>): CertificateInput => {
  const clean = (s: string) => [...s].map((ch) => (missing.has(ch) ? '?' : ch)).join('');
  return {
    ...c,
    contractTitle: clean(c.contractTitle),
    companyName: clean(c.companyName),
    signers: c.signers.map((s) => ({
      ...s,
      role: clean(s.role),
      name: clean(s.name),
      method: clean(s.method),
      signedAt: clean(s.signedAt),
      ip: clean(s.ip),
      userAgent: clean(s.userAgent),
      phone: s.phone === undefined ? undefined : clean(s.phone),
    })),
    auditTrail: c.auditTrail.map(clean),
    archivedAt: clean(c.archivedAt),
    contractNumber: clean(c.contractNumber),
  };
};
