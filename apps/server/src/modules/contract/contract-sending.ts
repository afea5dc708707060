import { createHash, randomBytes } from 'node:crypto';
import {
  CONTRACT_STATUS,
  type ContractSendResult,
  DOC_LINK_DM_TYPE,
  SEAL_APPROVAL,
  SIGN_ORDER,
  SIGNER_PARTY,
  type TemplateCreateBody,
} from '@crm/contracts';
import type { Db, Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import type { Notifier } from '../approvals/approval-notify';
import { requireTemplate } from '../approvals/approval-templates.service';
import { flushOutbox, newOutbox, startInstanceIn } from '../approvals/approvals.service';
import * as repo from './contract.repo';
import { requireContract } from './contract-access';
import { appendAudit } from './contract-audit';
import { canUseSeal, requireReadyAccount } from './contract-settings';

/**
 * Sending a contract for signing (issue 26): the customer's link, the signing order, the platform's
 * seal when the company's turn comes, and 已签署 once every party signed. The customer's own page
 * is contract-signing.ts; 用印审批 opening signing after approval is contract-approval.ts.
 */

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A signing link's token: 192 random bits, only its hash is kept. */
export const newLinkToken = () => randomBytes(24).toString('base64url');
export const signPath = (token: string) => `/sign/${token}`;

/** Whether a signer's turn has come under the signing order (the other party signed first when it must). */
export const mayActNow = (c: repo.ContractRecord, signers: repo.SignerRecord[], s: repo.SignerRecord) => {
  if (c.signOrder === SIGN_ORDER.parallel) return true;
  const first = c.signOrder === SIGN_ORDER.companyFirst ? SIGNER_PARTY.company : SIGNER_PARTY.customer;
  if (s.party === first) return true;
  return signers.filter((o) => o.party === first).every((o) => o.signedAt !== null);
};

/** Opens signing: 签署中, and the platform applies the company's seal at once unless the customer signs first. */
export const openSigning = async (tx: Tx, c: repo.ContractRecord, actorName: string) => {
  const at = now();
  await repo.updateContract(tx, c.tenantId, c.id, { status: CONTRACT_STATUS.signing, sentAt: at });
  if (c.signOrder !== SIGN_ORDER.customerFirst) await sealByCompany(tx, c, actorName);
};

/** The platform applies the company's seal (its signer's turn has come). */
export const sealByCompany = async (tx: Tx, c: repo.ContractRecord, actorName: string) => {
  const signers = await repo.signersOf(tx, c.tenantId, c.id);
  const company = signers.find((s) => s.party === SIGNER_PARTY.company);
  if (!company || company.signedAt) return;
  await repo.updateSigner(tx, c.tenantId, company.id, { signedAt: now(), userAgent: '平台自动盖章' });
  await appendAudit(tx, { tenantId: c.tenantId, contractId: c.id, action: 'seal', actorName, detail: company.name });
  await finishIfAllSigned(tx, c, actorName);
};

/** Every party signed → 已签署. Returns whether it happened now. */
export const finishIfAllSigned = async (tx: Tx, c: repo.ContractRecord, actorName: string) => {
  const signers = await repo.signersOf(tx, c.tenantId, c.id);
  if (!signers.every((s) => s.signedAt)) return false;
  await repo.updateContract(tx, c.tenantId, c.id, { status: CONTRACT_STATUS.signed, signedAt: now() });
  await appendAudit(tx, { tenantId: c.tenantId, contractId: c.id, action: 'signed', actorName });
  return true;
};

const issueLink = async (tx: Tx, c: repo.ContractRecord, linkDays: number, actorName: string) => {
  const signers = await repo.signersOf(tx, c.tenantId, c.id);
  const customer = signers.find((s) => s.party === SIGNER_PARTY.customer);
  if (!customer) throw new AppError('CONTRACT_NOT_FOUND');
  const token = newLinkToken();
  const expiresAt = new Date(now().getTime() + linkDays * 86_400_000);
  await repo.updateSigner(tx, c.tenantId, customer.id, { tokenHash: sha256(token), expiresAt });
  await appendAudit(tx, {
    tenantId: c.tenantId,
    contractId: c.id,
    action: 'link',
    actorName,
    detail: `有效期至 ${formatDateTime(expiresAt)}`,
  });
  return { token, expiresAt };
};

/**
 * /api/contract/create/sign: a draft goes out for signing. The customer's link is made now (shown
 * once). A seal that needs 用印审批 starts the company's seal flow instead: the contract stays 草稿
 * until the flow approves, then signing opens by itself (contract-approval.ts).
 */
export const sendForSigning = async (
  db: Db,
  bus: Notifier | undefined,
  actor: Actor,
  body: { id: number; link_days: number; staffApproveNode: TemplateCreateBody['staffApproveNode'] },
): Promise<ContractSendResult> => {
  const c0 = await requireContract(db, actor, body.id);
  await requireReadyAccount(db, actor.tenantId);
  const seal = await repo.findSeal(db, actor.tenantId, c0.sealId);
  if (!seal || seal.status !== 0) throw new AppError('CONTRACT_SEAL_NOT_FOUND');
  if (!canUseSeal(seal, actor)) throw new AppError('CONTRACT_SEAL_NOT_ALLOWED');
  const flow =
    seal.needsApproval && seal.approvalTemplateId ? await requireTemplate(db, actor.tenantId, seal.approvalTemplateId) : null;
  const out = newOutbox();
  const result = await db.transaction(async (tx) => {
    const c = await repo.lockContract(tx, actor.tenantId, c0.id);
    if (!c || c.discardedById !== null) throw new AppError('CONTRACT_DISCARDED');
    if (c.status !== CONTRACT_STATUS.draft) throw new AppError('CONTRACT_NOT_DRAFT');
    if (c.sealApproval === SEAL_APPROVAL.pending) throw new AppError('CONTRACT_SEAL_APPROVAL_PENDING');
    const customer = (await repo.signersOf(tx, c.tenantId, c.id)).find((s) => s.party === SIGNER_PARTY.customer);
    if (!customer?.phone || !/^1\d{10}$/.test(customer.phone)) throw new AppError('CONTRACT_PHONE_REQUIRED');
    await repo.updateContract(tx, c.tenantId, c.id, { linkDays: body.link_days });
    await appendAudit(tx, { tenantId: c.tenantId, contractId: c.id, action: 'send', actorName: actor.name });
    const link = await issueLink(tx, c, body.link_days, actor.name);
    if (flow) {
      const docLink = flow.version.controls.find((x) => x.dmType === DOC_LINK_DM_TYPE);
      await startInstanceIn(tx, out, actor, {
        isSave: 2,
        coMatid: flow.template.id,
        templateControls: docLink ? [{ coTacid: docLink.coTacid, dmValue: [String(c.id)] }] : [],
        staffApproveNode: body.staffApproveNode,
      } as TemplateCreateBody);
    } else {
      await openSigning(tx, c, actor.name);
    }
    const after = await repo.findContract(tx, c.tenantId, c.id);
    return {
      status: after?.status ?? c.status,
      seal_approval: after?.sealApproval ?? SEAL_APPROVAL.none,
      sign_path: signPath(link.token),
      link_expires_at: formatDateTime(link.expiresAt),
    };
  });
  await flushOutbox(db, bus, out);
  return result;
};

/** /api/contract/signer/link: a new link for the customer (the old one stops working). */
export const renewLink = async (db: Db, actor: Actor, body: { id: number; link_days: number }): Promise<ContractSendResult> => {
  const c0 = await requireContract(db, actor, body.id);
  return db.transaction(async (tx) => {
    const c = await repo.lockContract(tx, actor.tenantId, c0.id);
    if (!c || c.discardedById !== null) throw new AppError('CONTRACT_DISCARDED');
    if (c.status !== CONTRACT_STATUS.signing && !(c.status === CONTRACT_STATUS.draft && c.sealApproval === SEAL_APPROVAL.pending))
      throw new AppError('CONTRACT_NOT_FOUND', '合同不在签署中，无需重新生成链接');
    const link = await issueLink(tx, c, body.link_days, actor.name);
    return {
      status: c.status,
      seal_approval: c.sealApproval,
      sign_path: signPath(link.token),
      link_expires_at: formatDateTime(link.expiresAt),
    };
  });
};
