import { createHash, randomInt } from 'node:crypto';
import {
  amountInCapitals,
  CONTRACT_LIMITS,
  CONTRACT_MSG_TYPE,
  CONTRACT_STATUS,
  CONTRACT_STATUS_LABEL,
  type ContractDraftBody,
  SEAL_APPROVAL,
  SIGNER_PARTY,
  type SignSubmitBody,
  type SignView,
} from '@crm/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { now } from '../../lib/clock';
import { staffChannel } from '../../lib/pubsub';
import { formatDateTime } from '../../lib/time';
import type { Notifier } from '../approvals/approval-notify';
import { customerNamesOf } from '../customers/customers-for-sales';
import * as repo from './contract.repo';
import { maskedPhone } from './contract.service';
import { appendAudit } from './contract-audit';
import { currentPdf, fileBytes, fileOwner, storeContractFile } from './contract-files';
import { finishIfAllSigned, mayActNow, sealByCompany, sha256 } from './contract-sending';
import { smsSenderOf } from './contract-sms';

/**
 * The customer's signing page without login (issue 26). Everything is reached by the link's token
 * only: the token's hash names one signer of one contract, which is all the page may see. One-time
 * codes are rate-limited (one a minute, ten a day), expire in five minutes and allow five tries.
 */

export type Visitor = { ip: string; userAgent: string };

const codeHash = (signerId: number, code: string) => createHash('sha256').update(`${signerId}:${code}`).digest('hex');

/** The signer of a token and his contract; an unknown, expired or superseded link is refused alike. */
const signerOfToken = async (db: Db, token: string) => {
  const signer = await repo.signerByTokenHash(db, sha256(token));
  if (!signer || signer.party !== SIGNER_PARTY.customer) throw new AppError('CONTRACT_SIGN_LINK_INVALID');
  const c = await repo.findContract(db, signer.tenantId, signer.contractId);
  if (!c || c.discardedById !== null) throw new AppError('CONTRACT_SIGN_LINK_INVALID');
  if (!signer.expiresAt || signer.expiresAt <= now()) throw new AppError('CONTRACT_SIGN_LINK_EXPIRED');
  return { signer, c };
};

/** Why the signer cannot sign now ('' when he can). */
const waitReason = (c: repo.ContractRecord, signers: repo.SignerRecord[], s: repo.SignerRecord) => {
  if (s.signedAt) return '您已签署';
  if (c.status === CONTRACT_STATUS.draft && c.sealApproval === SEAL_APPROVAL.pending)
    return '合同正在内部审批，审批通过后即可签署';
  if (c.status !== CONTRACT_STATUS.signing) return `合同${CONTRACT_STATUS_LABEL[c.status] ?? ''}，无需签署`;
  if (!mayActNow(c, signers, s)) return '请等待对方先签署';
  return '';
};

/** Refuses a signer whose turn has not come (or who signed). */
const requireTurn = (c: repo.ContractRecord, signers: repo.SignerRecord[], s: repo.SignerRecord) => {
  if (s.signedAt) throw new AppError('CONTRACT_SIGN_DONE');
  const reason = waitReason(c, signers, s);
  if (reason) throw new AppError('CONTRACT_SIGN_NOT_YOUR_TURN', reason);
};

/** GET sign/view: what the page shows of its one contract. */
export const signView = async (db: Db, token: string): Promise<SignView> => {
  const { signer, c } = await signerOfToken(db, token);
  const signers = await repo.signersOf(db, c.tenantId, c.id);
  const account = await repo.findAccount(db, c.tenantId);
  const customerName = (await customerNamesOf(db, c.tenantId, [c.customerId])).get(c.customerId) ?? '';
  const reason = waitReason(c, signers, signer);
  return {
    contract_no: c.contractNo,
    title: c.title,
    company_name: account?.companyName ?? '',
    customer_name: customerName,
    signer_name: signer.name,
    phone_masked: maskedPhone(signer.phone),
    amount: c.amount,
    amount_upper: amountInCapitals(c.amount),
    status: c.status,
    status_name: CONTRACT_STATUS_LABEL[c.status] ?? '',
    can_sign: reason === '' ? 1 : 0,
    wait_reason: reason,
    is_signed: signer.signedAt ? 1 : 0,
    signed_at: formatDateTime(signer.signedAt),
    expires_at: formatDateTime(signer.expiresAt),
    pdf_url: `/api/contract/sign/pdf?token=${encodeURIComponent(token)}`,
  };
};

/** GET sign/pdf: the contract as it stands (with the seal once the company signed; the archived file once archived). */
export const signPdf = async (db: Db, config: Config, token: string) => {
  const { c } = await signerOfToken(db, token);
  // once archived, the customer keeps the sealed and digitally signed file
  const bytes = c.archivedFileId ? await fileBytes(db, config, c.tenantId, c.archivedFileId) : await currentPdf(db, config, c);
  return { bytes, name: `${c.contractNo}.pdf` };
};

const businessDay = () => formatDateTime(now()).slice(0, 10);

/**
 * POST /api/contract/draft {token, price, name, phone} (SPEC §7 contract draft): the signer confirms
 * the amount he read and his name and phone, which must match the contract; a one-time code then goes
 * to the phone on file. On the sim line without an SMS provider the code is kept for the agent's view.
 */
export const sendCode = async (db: Db, config: Config, body: ContractDraftBody, visitor: Visitor) => {
  const { signer: s0, c } = await signerOfToken(db, body.token);
  const sms = smsSenderOf(config.sms);
  if (!sms.isLive && config.telephony !== 'sim') throw new AppError('CONTRACT_SMS_NOT_CONFIGURED');
  if (body.name.trim() !== s0.name || body.phone.replace(/\D/g, '') !== s0.phone || body.price !== c.amount)
    throw new AppError('CONTRACT_SIGN_CONFIRM_MISMATCH');
  return db.transaction(async (tx) => {
    const signer = await repo.lockSigner(tx, c.tenantId, s0.id);
    if (!signer || signer.tokenHash !== s0.tokenHash) throw new AppError('CONTRACT_SIGN_LINK_INVALID');
    const contract = await repo.lockContract(tx, c.tenantId, c.id);
    if (!contract) throw new AppError('CONTRACT_SIGN_LINK_INVALID');
    requireTurn(contract, await repo.signersOf(tx, c.tenantId, c.id), signer);
    const at = now();
    if (signer.otpSentAt && at.getTime() - signer.otpSentAt.getTime() < CONTRACT_LIMITS.otpResendSeconds * 1000)
      throw new AppError('CONTRACT_OTP_TOO_SOON');
    const today = businessDay();
    const sends = signer.otpDay === today ? signer.otpSends : 0;
    if (sends >= CONTRACT_LIMITS.otpPerDay) throw new AppError('CONTRACT_OTP_DAILY_LIMIT');
    const code = String(randomInt(0, 10 ** CONTRACT_LIMITS.otpDigits)).padStart(CONTRACT_LIMITS.otpDigits, '0');
    await repo.updateSigner(tx, c.tenantId, signer.id, {
      otpHash: codeHash(signer.id, code),
      otpExpiresAt: new Date(at.getTime() + CONTRACT_LIMITS.otpMinutes * 60_000),
      otpAttempts: 0,
      otpSentAt: at,
      otpDay: today,
      otpSends: sends + 1,
      demoCode: sms.isLive ? '' : code,
    });
    await appendAudit(tx, {
      tenantId: c.tenantId,
      contractId: c.id,
      action: 'code',
      actorName: signer.name,
      detail: `发送至 ${maskedPhone(signer.phone)}`,
      ip: visitor.ip,
    });
    // sent inside the transaction: a provider refusal leaves no code behind
    if (sms.isLive) await sms.sendCode(signer.phone, code);
    return {
      phone_masked: maskedPhone(signer.phone),
      expires_in: CONTRACT_LIMITS.otpMinutes * 60,
      resend_in: CONTRACT_LIMITS.otpResendSeconds,
    };
  });
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A drawn signature: a PNG data URL of at most 512 KiB. */
const signaturePng = (dataUrl: string) => {
  const m = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(dataUrl);
  if (!m) throw new AppError('CONTRACT_SIGNATURE_INVALID');
  const buf = Buffer.from(m[1], 'base64');
  if (buf.length < 67 || buf.length > CONTRACT_LIMITS.signatureBytes || !buf.subarray(0, 8).equals(PNG_SIGNATURE))
    throw new AppError('CONTRACT_SIGNATURE_INVALID');
  return buf;
};

/** Checks the code; a wrong one is counted (in its own transaction, so the count survives the refusal). */
const checkCode = async (db: Db, tenantId: number, signer: repo.SignerRecord, code: string) => {
  if (!signer.otpHash || !signer.otpExpiresAt) throw new AppError('CONTRACT_OTP_EXPIRED');
  if (signer.otpAttempts >= CONTRACT_LIMITS.otpAttempts) throw new AppError('CONTRACT_OTP_LOCKED');
  if (signer.otpExpiresAt <= now()) throw new AppError('CONTRACT_OTP_EXPIRED');
  if (codeHash(signer.id, code) === signer.otpHash) return;
  await repo.updateSigner(db, tenantId, signer.id, { otpAttempts: signer.otpAttempts + 1 });
  throw new AppError(signer.otpAttempts + 1 >= CONTRACT_LIMITS.otpAttempts ? 'CONTRACT_OTP_LOCKED' : 'CONTRACT_OTP_WRONG');
};

/**
 * POST sign/submit {token, code, signature}: the customer signs. With the customer first, the
 * platform applies the company's seal right after; once everyone signed the contract is 已签署 and
 * its signed PDF is kept. The owner hears of it on his socket (msg_type CONTRACT_MSG_TYPE).
 */
export const submitSignature = async (
  db: Db,
  config: Config,
  bus: Notifier | undefined,
  body: SignSubmitBody,
  visitor: Visitor,
) => {
  const { signer: s0, c } = await signerOfToken(db, body.token);
  requireTurn(c, await repo.signersOf(db, c.tenantId, c.id), s0);
  await checkCode(db, c.tenantId, s0, body.code);
  const png = body.signature_png ? signaturePng(body.signature_png) : null;
  const owner = fileOwner(c.tenantId, c.ownerId);
  const signatureFileId = png ? await storeContractFile(db, config, owner, `${c.contractNo}_签名.png`, 'png', png) : null;
  const at = now();
  const isDone = await db.transaction(async (tx) => {
    const contract = await repo.lockContract(tx, c.tenantId, c.id);
    const signer = await repo.lockSigner(tx, c.tenantId, s0.id);
    if (!contract || !signer || contract.discardedById !== null || signer.tokenHash !== s0.tokenHash)
      throw new AppError('CONTRACT_SIGN_LINK_INVALID');
    requireTurn(contract, await repo.signersOf(tx, c.tenantId, c.id), signer);
    // the code is used once: a second submit with it finds none
    if (signer.otpHash !== s0.otpHash) throw new AppError('CONTRACT_OTP_EXPIRED');
    await repo.updateSigner(tx, c.tenantId, signer.id, {
      signedAt: at,
      ip: visitor.ip.slice(0, 100),
      userAgent: visitor.userAgent.slice(0, 500),
      signatureFileId,
      typedName: png ? '' : body.typed_name,
      otpHash: null,
      otpExpiresAt: null,
      demoCode: '',
    });
    await appendAudit(tx, {
      tenantId: c.tenantId,
      contractId: c.id,
      action: 'sign',
      actorName: signer.name,
      detail: png ? '手写签名' : `输入姓名：${body.typed_name}`,
      ip: visitor.ip,
    });
    // the company's turn (customer first): the platform applies the seal now
    await sealByCompany(tx, contract, '系统');
    const after = await repo.findContract(tx, c.tenantId, c.id);
    return after?.status === CONTRACT_STATUS.signed || (await finishIfAllSigned(tx, contract, '系统'));
  });
  const final = await repo.findContract(db, c.tenantId, c.id);
  if (isDone && final && !final.signedFileId) {
    const signed = await currentPdf(db, config, final);
    const fileId = await storeContractFile(db, config, owner, `${c.contractNo}_已签署.pdf`, 'pdf', signed);
    await repo.updateContract(db, c.tenantId, c.id, { signedFileId: fileId });
  }
  await bus
    ?.publish(staffChannel(c.ownerId), {
      kind: 'frame',
      frame: {
        code: 0,
        msg_type: CONTRACT_MSG_TYPE,
        msg: `客户已签署合同 ${c.contractNo}${isDone ? '，可归档' : ''}`,
        data: { contractId: c.id, contractNo: c.contractNo, status: final?.status ?? c.status, event: 'customer_signed' },
      },
    })
    .catch(() => undefined);
  const status = final?.status ?? c.status;
  return { status, status_name: CONTRACT_STATUS_LABEL[status] ?? '', signed_at: formatDateTime(at) };
};
