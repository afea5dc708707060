import { CONTRACT_STATUS, SIGNER_PARTY } from '@crm/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import * as repo from './contract.repo';
import { maskedPhone } from './contract.service';
import { requireContract } from './contract-access';
import { appendAudit, auditTrail } from './contract-audit';
import { currentPdf, fileBytes, fileOwner, storeContractFile } from './contract-files';
import { plansFromTerms } from './contract-receipt-plans';
import { companyKeyOf } from './contract-settings';
import { archiveContractPdf, stampVoid } from './pdf';

/** Archive (归档) and discard (作废) of a contract (issue 26). */

/**
 * What happens when a contract consumed a signing credit. Billing (消费明细) is not built yet: when it
 * is, it registers here at startup and charges the credit; the log row is already the record.
 */
type CreditListener = (e: { tenantId: number; contractId: number; credits: number; at: Date }) => Promise<void>;
const creditListeners: CreditListener[] = [];
export const onContractCredit = (listener: CreditListener) => {
  creditListeners.push(listener);
};

/**
 * /api/contract/placeOnFile: only once every party signed. The signed PDF is flattened, the Chinese
 * certificate page appended and ONE PAdES signature with the company's certificate applied (nothing
 * is added after it); the file is stored read-only, its SHA-256 kept for the verify page, and one
 * signing credit is logged (once per contract, however often the call races). The payment terms become
 * the order's receipt plans in the same transaction (contract-receipt-plans.ts).
 */
export const archiveContract = async (db: Db, config: Config, actor: Actor, id: number) => {
  const c = await requireContract(db, actor, id);
  if (c.discardedById !== null || c.status === CONTRACT_STATUS.discarded) throw new AppError('CONTRACT_DISCARDED');
  if (c.status === CONTRACT_STATUS.archived) throw new AppError('CONTRACT_ARCHIVED');
  const signers = await repo.signersOf(db, actor.tenantId, c.id);
  if (c.status !== CONTRACT_STATUS.signed || !signers.every((s) => s.signedAt)) throw new AppError('CONTRACT_NOT_SIGNED');
  const companyKey = await companyKeyOf(db, config, actor.tenantId);
  const account = await repo.findAccount(db, actor.tenantId);
  const trail = await auditTrail(db, actor.tenantId, c.id);
  const archivedAt = now();
  const signed = await currentPdf(db, config, c);
  const result = await archiveContractPdf({
    pdf: signed,
    companyKey,
    keySecret: config.contractKeySecret,
    certificate: {
      contractNumber: c.contractNo,
      contractTitle: c.title,
      companyName: account?.companyName ?? '',
      archivedAt: `${formatDateTime(archivedAt)} (UTC+8)`,
      auditTrail: [
        ...trail.entries.map((e) => `${e.at} ${e.actor} ${e.action_name}${e.detail ? `：${e.detail}` : ''}`),
        `${formatDateTime(archivedAt)} ${actor.name} 归档`,
      ],
      signers: signers.map((s) =>
        s.party === SIGNER_PARTY.company
          ? {
              role: '甲方',
              name: s.name,
              method: '平台自动盖章（电子印章）',
              signedAt: `${formatDateTime(s.signedAt)} (UTC+8)`,
              ip: '-',
              userAgent: '-',
            }
          : {
              role: '乙方',
              name: s.name,
              method: s.signatureFileId ? '短信验证码 + 手写签名' : '短信验证码 + 输入姓名',
              signedAt: `${formatDateTime(s.signedAt)} (UTC+8)`,
              ip: s.ip,
              userAgent: s.userAgent,
              phone: maskedPhone(s.phone),
            },
      ),
    },
  });
  const owner = fileOwner(actor.tenantId, c.ownerId);
  const fileId = await storeContractFile(db, config, owner, `${c.contractNo}_已归档.pdf`, 'pdf', result.bytes);
  const signedFileId =
    c.signedFileId ?? (await storeContractFile(db, config, owner, `${c.contractNo}_已签署.pdf`, 'pdf', signed));
  const { charged, plans } = await db.transaction(async (tx) => {
    const locked = await repo.lockContract(tx, actor.tenantId, c.id);
    // a racing archive won: this one's file stays unreferenced, nothing is charged twice
    if (!locked || locked.status !== CONTRACT_STATUS.signed || locked.discardedById !== null)
      throw new AppError('CONTRACT_ARCHIVED');
    await repo.updateContract(tx, actor.tenantId, c.id, {
      status: CONTRACT_STATUS.archived,
      archivedFileId: fileId,
      signedFileId,
      archivedSha256: result.sha256After,
      sha256Before: result.sha256Before,
      archivedAt,
    });
    await appendAudit(tx, {
      tenantId: actor.tenantId,
      contractId: c.id,
      action: 'archive',
      actorName: actor.name,
      detail: `SHA-256 ${result.sha256After}`,
    });
    const plans = await plansFromTerms(tx, actor, locked);
    const charged = await repo.insertCreditUse(tx, {
      tenantId: actor.tenantId,
      contractId: c.id,
      credits: 1,
      kind: 'archive',
      staffId: actor.staffId,
      createdAt: archivedAt,
    });
    return { charged, plans };
  });
  if (charged)
    for (const l of creditListeners) await l({ tenantId: actor.tenantId, contractId: c.id, credits: 1, at: archivedAt });
  return {
    status: CONTRACT_STATUS.archived,
    archived_url: `/api/contract/pdf?id=${c.id}&kind=archived`,
    sha256: result.sha256After,
    receipt_plans: plans.count,
    receipt_plan_msg: plans.msg,
  };
};

/**
 * /api/contract/discard (作废): a new version of the contract, its PDF stamped 已作废 with the reason
 * (SPEC §4 `destory`: stored as the dismissed file). The original stays as it was, files included;
 * its signing link stops working and lists show the 已作废 version in its place.
 */
export const discardContract = async (db: Db, config: Config, actor: Actor, body: { id: number; reason: string }) => {
  const c = await requireContract(db, actor, body.id);
  if (c.discardedById !== null || c.status === CONTRACT_STATUS.discarded) throw new AppError('CONTRACT_DISCARDED');
  const at = now();
  const source = c.archivedFileId ? await fileBytes(db, config, c.tenantId, c.archivedFileId) : await currentPdf(db, config, c);
  const stamped = await stampVoid(source, { reason: body.reason, at: formatDateTime(at) });
  const fileId = await storeContractFile(
    db,
    config,
    fileOwner(actor.tenantId, c.ownerId),
    `${c.contractNo}_已作废.pdf`,
    'pdf',
    stamped,
  );
  const newId = await db.transaction(async (tx) => {
    const locked = await repo.lockContract(tx, actor.tenantId, c.id);
    if (!locked || locked.discardedById !== null || locked.status === CONTRACT_STATUS.discarded)
      throw new AppError('CONTRACT_DISCARDED');
    const { id: _id, ...copy } = locked;
    const newId = await repo.insertContract(tx, {
      ...copy,
      version: locked.version + 1,
      parentId: locked.id,
      status: CONTRACT_STATUS.discarded,
      approvalInstanceId: null,
      draftFileId: null,
      signedFileId: null,
      archivedFileId: null,
      dismissedFileId: fileId,
      archivedSha256: '',
      sha256Before: '',
      discardReason: body.reason,
      discardedAt: at,
      createdAt: at,
    });
    await repo.updateContract(tx, actor.tenantId, locked.id, {
      discardedById: newId,
      discardReason: body.reason,
      discardedAt: at,
    });
    await appendAudit(tx, {
      tenantId: actor.tenantId,
      contractId: locked.id,
      action: 'discard',
      actorName: actor.name,
      detail: body.reason,
    });
    await appendAudit(tx, {
      tenantId: actor.tenantId,
      contractId: newId,
      action: 'discard',
      actorName: actor.name,
      detail: `作废 ${locked.contractNo}（第${locked.version}版）：${body.reason}`,
    });
    return newId;
  });
  return { id: c.id, discarded_id: newId };
};
