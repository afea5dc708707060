import {
  amountInCapitals,
  amountInFigures,
  CONTRACT_STATUS,
  CONTRACT_STATUS_LABEL,
  type ContractCreateBody,
  type ContractDetail,
  type ContractListQuery,
  type ContractRow,
  type ContractStatusInfo,
  type ListData,
  SEAL_APPROVAL,
  SIGNER_PARTY,
  SIGNER_PARTY_LABEL,
  VERIFY_STATUS,
} from '@crm/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { maskPhone } from '../../lib/phone';
import { formatDateTime, parseDateTime } from '../../lib/time';
import { findCustomerRecord } from '../customers/customers.service';
import { customerNamesOf } from '../customers/customers-for-sales';
import { requireReadableOrder } from '../orders/orders.service';
import { orderDetail } from '../orders/orders-actions';
import { scopeStaffIds } from '../staff/staff.service';
import { staffNames } from '../staff/staff-lookup';
import * as repo from './contract.repo';
import { canReadContract, requireContract } from './contract-access';
import { appendAudit, auditTrail } from './contract-audit';
import { missingGlyphs, renderDraft, textsOf } from './contract-document';
import { currentPdf, fileBytes, storeContractFile } from './contract-files';
import { nextContractNo } from './contract-numbering';
import { checkPaymentTerms } from './contract-receipt-plans';
import { mayActNow } from './contract-sending';
import { canUseSeal, requireReadyAccount } from './contract-settings';
import { smsSenderOf } from './contract-sms';

/**
 * Contracts (issue 26): made from an approved order, listed in the caller's data scope. Sending for
 * signing is contract-sending.ts.
 */

const day = (at: Date | null) => formatDateTime(at).slice(0, 10);

// ---------- presenting ----------

const presentRows = async (db: Db, tenantId: number, rows: repo.ContractRecord[]): Promise<ContractRow[]> => {
  const [customers, owners] = await Promise.all([
    customerNamesOf(
      db,
      tenantId,
      rows.map((r) => r.customerId),
    ),
    staffNames(
      db,
      tenantId,
      rows.map((r) => r.ownerId),
    ),
  ]);
  return rows.map((c) => ({
    id: c.id,
    contract_no: c.contractNo,
    title: c.title,
    order_id: c.orderId,
    customer_id: c.customerId,
    customer_name: customers.get(c.customerId) ?? '',
    owner_id: c.ownerId,
    owner_name: owners.get(c.ownerId) ?? '',
    amount: c.amount,
    amount_upper: amountInCapitals(c.amount),
    status: c.status,
    status_name: CONTRACT_STATUS_LABEL[c.status] ?? '',
    sign_order: c.signOrder,
    seal_approval: c.sealApproval,
    version: c.version,
    parent_id: c.parentId ?? 0,
    created_at: formatDateTime(c.createdAt),
    signed_at: formatDateTime(c.signedAt),
    archived_at: formatDateTime(c.archivedAt),
  }));
};

const filterOf = async (db: Db, actor: Actor, q: Omit<ContractListQuery, 'page' | 'limit' | 'status'>) => {
  const end = q.end ? parseDateTime(q.end) : null;
  return {
    tenantId: actor.tenantId,
    ownerIds: await scopeStaffIds(db, actor),
    customerId: q.customer_id,
    orderId: q.order_id,
    ownerId: q.owner_id,
    number: q.number.trim(),
    customerName: q.customer_name.trim(),
    from: q.start ? parseDateTime(q.start) : null,
    // a day alone means the whole day
    to: end && q.end.length === 10 ? new Date(end.getTime() + 86_400_000) : end,
  };
};

/** /api/contract/list: the caller's data scope, newest first. */
export const listContracts = async (db: Db, actor: Actor, q: ContractListQuery): Promise<ListData<ContractRow>> => {
  const f = { ...(await filterOf(db, actor, q)), status: q.status };
  const { rows, total } = await repo.listContracts(db, f, q.page, q.limit);
  return { list: await presentRows(db, actor.tenantId, rows), count: total };
};

/** /api/contract/statusInfo: counts by status under the same filters. */
export const statusInfo = async (
  db: Db,
  actor: Actor,
  q: Omit<ContractListQuery, 'page' | 'limit' | 'status'>,
): Promise<ContractStatusInfo> => {
  const counts = await repo.countByStatus(db, await filterOf(db, actor, q));
  const list = Object.values(CONTRACT_STATUS).map((status) => ({
    status,
    name: CONTRACT_STATUS_LABEL[status],
    count: counts.find((c) => c.status === status)?.n ?? 0,
  }));
  return { list, total: list.reduce((a, b) => a + b.count, 0) };
};

/** The contracts of an order the caller may read (the order drawer). */
export const contractsOfOrder = async (db: Db, actor: Actor, orderId: number) => {
  await requireReadableOrder(db, actor, orderId);
  const { rows, total } = await repo.listContracts(db, { tenantId: actor.tenantId, ownerIds: null, orderId }, 1, 200);
  return { list: await presentRows(db, actor.tenantId, rows), count: total };
};

/** The contracts of a customer, within the caller's data scope (the customer drawer). */
export const contractsOfCustomer = async (db: Db, actor: Actor, customerId: number) => {
  const f = { tenantId: actor.tenantId, ownerIds: await scopeStaffIds(db, actor), customerId };
  const { rows, total } = await repo.listContracts(db, f, 1, 200);
  return { list: await presentRows(db, actor.tenantId, rows), count: total };
};

const pdfUrl = (id: number, kind: string, fileId: number | null) => (fileId ? `/api/contract/pdf?id=${id}&kind=${kind}` : '');

export const contractDetail = async (db: Db, config: Config, actor: Actor, id: number): Promise<ContractDetail> => {
  const c = await requireContract(db, actor, id);
  const [[row], signers, seal, trail] = await Promise.all([
    presentRows(db, actor.tenantId, [c]),
    repo.signersOf(db, actor.tenantId, c.id),
    repo.findSeal(db, actor.tenantId, c.sealId),
    auditTrail(db, actor.tenantId, c.id),
  ]);
  // the sim line without an SMS provider: the code is shown to the agent so the demo works
  const showsCode = !smsSenderOf(config.sms).isLive && config.telephony === 'sim';
  const isLatest = c.discardedById === null;
  return {
    ...row,
    template_id: c.templateId,
    seal_id: c.sealId,
    seal_name: seal?.name ?? '',
    fields: c.fields,
    products: c.products,
    payment_terms: c.paymentTerms,
    receipt_plan_ids: c.receiptPlanIds ?? [],
    discard_reason: c.discardReason,
    discarded_by_id: c.discardedById ?? 0,
    signers: signers.map((s) => ({
      id: s.id,
      party: s.party,
      party_name: SIGNER_PARTY_LABEL[s.party] ?? '',
      name: s.name,
      phone: s.phone,
      state: s.signedAt ? 2 : c.status === CONTRACT_STATUS.signing && mayActNow(c, signers, s) ? 1 : 0,
      signed_at: formatDateTime(s.signedAt),
      ip: s.ip,
      user_agent: s.userAgent,
      link_expires_at: formatDateTime(s.expiresAt),
      demo_code: showsCode && s.otpExpiresAt && s.otpExpiresAt > now() ? s.demoCode : '',
    })),
    pdf: {
      draft: pdfUrl(c.id, 'draft', c.draftFileId),
      signed: c.status === CONTRACT_STATUS.signing || c.signedFileId ? `/api/contract/pdf?id=${c.id}&kind=signed` : '',
      archived: pdfUrl(c.id, 'archived', c.archivedFileId),
      dismissed: pdfUrl(c.id, 'dismissed', c.dismissedFileId),
    },
    file_urls: [pdfUrl(c.id, 'draft', c.draftFileId), pdfUrl(c.id, 'archived', c.archivedFileId)].filter((u) => u !== ''),
    archived_sha256: c.archivedSha256,
    approval_instance_id: c.approvalInstanceId ?? 0,
    audit: trail.entries,
    audit_ok: trail.isOk ? 1 : 0,
    can_send: isLatest && c.status === CONTRACT_STATUS.draft && c.sealApproval !== SEAL_APPROVAL.pending ? 1 : 0,
    can_archive: isLatest && c.status === CONTRACT_STATUS.signed ? 1 : 0,
    can_discard: isLatest && c.status !== CONTRACT_STATUS.discarded ? 1 : 0,
  };
};

/** A contract PDF by kind, for staff who may read the contract. */
export const contractPdf = async (db: Db, config: Config, actor: Actor, id: number, kind: string) => {
  const c = await requireContract(db, actor, id);
  const bytes =
    kind === 'signed'
      ? await currentPdf(db, config, c)
      : await fileBytes(
          db,
          config,
          c.tenantId,
          kind === 'archived' ? c.archivedFileId : kind === 'dismissed' ? c.dismissedFileId : c.draftFileId,
        );
  return { bytes, name: `${c.contractNo}${c.version > 1 ? `_v${c.version}` : ''}_${kind}.pdf` };
};

// ---------- create ----------

/** Refuses text the shipped font cannot draw (before any row or file is written). */
const requireDrawable = (texts: string[]) => {
  const missing = missingGlyphs(texts);
  if (missing.length) throw new AppError('CONTRACT_FIELD_INVALID', `合同内容含无法显示的字符：${missing.slice(0, 10).join(' ')}`);
};

/**
 * /api/contract/create: a draft from an APPROVED order the caller may read. The template is filled
 * with the order's customer, contact, products and amount (大写 from the integer), the number comes
 * from the rule in the same transaction as the row; a PDF that cannot be made leaves nothing behind.
 */
export const createContract = async (db: Db, config: Config, actor: Actor, body: ContractCreateBody) => {
  const order = await requireReadableOrder(db, actor, body.order_id);
  if (order.verifyStatus !== VERIFY_STATUS.approved) throw new AppError('CONTRACT_ORDER_NOT_APPROVED');
  const template = await repo.findTemplate(db, actor.tenantId, body.template_id);
  if (!template || template.status !== 0) throw new AppError('CONTRACT_TEMPLATE_NOT_FOUND');
  const seal = await repo.findSeal(db, actor.tenantId, body.seal_id);
  if (!seal || seal.status !== 0) throw new AppError('CONTRACT_SEAL_NOT_FOUND');
  if (!canUseSeal(seal, actor)) throw new AppError('CONTRACT_SEAL_NOT_ALLOWED');
  const account = await requireReadyAccount(db, actor.tenantId);
  const detail = await orderDetail(db, actor, order.id);
  const customer = await findCustomerRecord(db, actor.tenantId, order.customerId);
  const signerName = body.signer_name || customer?.contactName || detail.customer.name;
  const signerPhone = body.signer_phone || order.contactPhone;
  const products = detail.product.map((p) => ({
    name: p.product_name,
    spec: p.spec_name,
    price: p.cost_price,
    num: p.num,
    total: p.total_price,
  }));
  const orderDay = day(order.dealAt ?? order.createdAt);
  const fields: Record<string, string> = {
    // 付款条款 is drawn from payment_terms, never from a value typed for it
    ...Object.fromEntries(Object.entries(body.fields).filter(([key]) => key !== 'payment_terms')),
    customer_name: detail.customer.name,
    contact_name: signerName,
    contact_phone: signerPhone,
    amount_upper: amountInCapitals(order.amount),
    amount_lower: amountInFigures(order.amount),
    sign_date: body.fields.sign_date || orderDay,
    company_name: account.companyName,
  };
  const title = body.title || `${detail.customer.name}合同`;
  checkPaymentTerms(body.payment_terms, order.amount);
  requireDrawable(textsOf({ title, fields, products, paymentTerms: body.payment_terms }));
  const templatePdf = template.kind === 2 ? await fileBytes(db, config, actor.tenantId, template.pdfFileId) : undefined;

  const { id, contractNo } = await db.transaction(async (tx) => {
    const contractNo = await nextContractNo(tx, actor.tenantId, (no) => repo.numberTaken(tx, actor.tenantId, no));
    const id = await repo.insertContract(tx, {
      tenantId: actor.tenantId,
      contractNo,
      title,
      orderId: order.id,
      customerId: order.customerId,
      ownerId: order.ownerId,
      creatorId: actor.staffId,
      templateId: template.id,
      sealId: seal.id,
      status: CONTRACT_STATUS.draft,
      amount: order.amount,
      fields: { ...fields, contract_no: contractNo },
      products,
      paymentTerms: body.payment_terms,
      signOrder: body.sign_order,
      createdAt: now(),
    });
    await repo.insertSigners(tx, [
      { tenantId: actor.tenantId, contractId: id, party: SIGNER_PARTY.company, name: account.companyName },
      { tenantId: actor.tenantId, contractId: id, party: SIGNER_PARTY.customer, name: signerName, phone: signerPhone },
    ]);
    await appendAudit(tx, {
      tenantId: actor.tenantId,
      contractId: id,
      action: 'create',
      actorName: actor.name,
      detail: `订单 ${order.id}`,
    });
    return { id, contractNo };
  });
  try {
    const draft = await renderDraft({
      template,
      templatePdf,
      contract: {
        title,
        contractNo,
        fields: { ...fields, contract_no: contractNo },
        products,
        amount: order.amount,
        paymentTerms: body.payment_terms,
      },
      companyName: account.companyName,
    });
    const fileId = await storeContractFile(db, config, actor, `${contractNo}.pdf`, 'pdf', draft);
    await repo.updateContract(db, actor.tenantId, id, { draftFileId: fileId });
  } catch (err) {
    await db.transaction((tx) => repo.deleteNewContract(tx, actor.tenantId, id));
    throw err;
  }
  return { id, contract_no: contractNo };
};

/** The phone as the public page shows it. */
export const maskedPhone = (phone: string) => (phone ? maskPhone(phone) : '');

export { canReadContract };
