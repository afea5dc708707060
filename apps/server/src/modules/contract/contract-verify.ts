import { CONTRACT_PAGE, type ContractVerify, type UploadPdfResult } from '@crm/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { loadPdfLib } from '../../lib/lazy-packages';
import { formatDateTime } from '../../lib/time';
import { saveUpload } from '../uploads/uploads.service';
import * as repo from './contract.repo';
import { verifyArchivedPdf } from './pdf';

const isPdf = (buf: Buffer) => buf.subarray(0, 5).toString('latin1') === '%PDF-';

/** Whether a page is A4 (either orientation), to the point. */
const isA4 = (w: number, h: number) => {
  const [a, b] = w < h ? [w, h] : [h, w];
  return Math.abs(a - CONTRACT_PAGE.width) < 2 && Math.abs(b - CONTRACT_PAGE.height) < 2;
};

/**
 * POST api/uploadPdf {file, scene='contract'} (SPEC §7/§8): a PDF for a template. A file that is not
 * a readable PDF is refused; one whose pages are not A4 is kept with data.code 1 and a warning msg.
 */
export const uploadContractPdf = async (
  db: Db,
  config: Config,
  actor: Actor,
  file: { name: string; buf: Buffer; scene: string },
) => {
  if (file.scene !== 'contract') throw new AppError('VALIDATION', '上传场景不正确');
  if (!isPdf(file.buf)) throw new AppError('CONTRACT_PDF_INVALID');
  let sizes: { w: number; h: number }[];
  const { PDFDocument } = await loadPdfLib();
  try {
    const doc = await PDFDocument.load(file.buf, { updateMetadata: false });
    sizes = doc.getPages().map((p) => {
      const { width, height } = p.getSize();
      return { w: width, h: height };
    });
  } catch (err) {
    const encrypted = err instanceof Error && /encrypt/i.test(err.message);
    throw new AppError('CONTRACT_PDF_INVALID', encrypted ? '不支持加密的PDF，请上传未加密的文件' : undefined);
  }
  if (sizes.length === 0) throw new AppError('CONTRACT_PDF_INVALID');
  const name = /\.pdf$/i.test(file.name) ? file.name : `${file.name}.pdf`;
  const stored = await saveUpload(db, config.dataDir, actor, { name, buf: file.buf, scene: 'contract' });
  const odd = sizes.findIndex((s) => !isA4(s.w, s.h));
  const result: UploadPdfResult = {
    code: odd < 0 ? 0 : 1,
    msg: odd < 0 ? '' : `第${odd + 1}页不是A4尺寸（595.28×841.89），字段位置可能与预览不符`,
    id: stored.id,
    url: stored.url,
    name: stored.name,
    pages: sizes.length,
  };
  return result;
};

/**
 * The public verify page: is this file an unchanged contract archived here? Its signature must be
 * intact and cover the whole file, and its SHA-256 must be one this platform stored at archive time.
 * Says which company sealed it and when; reveals nothing else.
 */
export const verifyContractPdf = async (db: Db, buf: Buffer): Promise<ContractVerify> => {
  if (!isPdf(buf)) throw new AppError('CONTRACT_VERIFY_NOT_PDF');
  const check = await verifyArchivedPdf(new Uint8Array(buf));
  const c = await repo.findArchivedBySha(db, check.sha256);
  const account = c ? await repo.findAccount(db, c.tenantId) : undefined;
  const isKnown = !!c;
  const isValid = check.valid && isKnown;
  return {
    is_valid: isValid ? 1 : 0,
    is_known: isKnown ? 1 : 0,
    contract_no: c?.contractNo ?? '',
    company_name: c ? (account?.companyName ?? check.signerName) : '',
    sealed_at: c ? formatDateTime(c.archivedAt) : '',
    signer_subject: check.signerName,
    message: isValid
      ? '验证通过：该文件是本平台归档的合同，归档后未被修改'
      : !check.valid
        ? `验证未通过：${check.reason || '文件没有有效的电子签名'}`
        : '验证未通过：签名有效，但该文件不是本平台归档的合同',
  };
};
