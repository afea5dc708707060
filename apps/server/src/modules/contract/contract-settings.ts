import {
  type AccountLogRow,
  type ContractAccount,
  type ContractAccountBody,
  type ContractRuleBody,
  type ContractTemplate,
  type ContractTemplateStoreBody,
  type ContractTemplateUpdateBody,
  isValidCreditCode,
  type ListData,
  SEAL_APPROVAL_TEMPLATE_KIND,
  SEAL_KIND,
  SEAL_KIND_LABEL,
  type Seal,
  type SealStoreBody,
} from '@crm/contracts';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, onlyRefusal } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import { requireTemplate } from '../approvals/approval-templates.service';
import { activeStaffIds, staffNames } from '../staff/staff-lookup';
import { fileInfosByIds, findTenantFileBytes, requireOwnFile } from '../uploads/uploads.service';
import * as repo from './contract.repo';
import { presentRule } from './contract-numbering';
import { smsSenderOf } from './contract-sms';
import { certificateFingerprint, createCompanyCertificate, sealPng } from './pdf';

/** Contract settings (合同设置, issue 26): the e-sign account, credits, seals, templates and the numbering rule. */

export const CONTRACT_SETTING_MENU = '/contract/setting';
export const CONTRACT_LIST_MENU = '/contract/list';

const ACCOUNT_STATUS_LABEL: Record<number, string> = { 0: '未认证', 1: '正常', 2: '停用' };

// ---------- account ----------

export const presentAccount = async (db: Db, config: Config, tenantId: number): Promise<ContractAccount> => {
  const a = await repo.findAccount(db, tenantId);
  const status = a?.status ?? 0;
  return {
    company_name: a?.companyName ?? '',
    credit_code: a?.creditCode ?? '',
    legal_rep: a?.legalRep ?? '',
    status,
    status_name: ACCOUNT_STATUS_LABEL[status] ?? '',
    credits_used: await repo.creditsUsed(db, tenantId),
    cert:
      a?.certPem && a.certNotAfter
        ? { subject: a.certName, not_after: formatDateTime(a.certNotAfter), fingerprint: a.certFingerprint }
        : null,
    sms_live: smsSenderOf(config.sms).isLive ? 1 : 0,
  };
};

/** The account a contract is made and signed under: filled in and 正常. */
export const requireReadyAccount = async (db: DbOrTx, tenantId: number) => {
  const a = await repo.findAccount(db, tenantId);
  if (!a || a.status !== 1) throw new AppError('CONTRACT_ACCOUNT_NOT_READY');
  return a;
};

/**
 * The company's certificate (CN = company name), made when first needed or when the name changed; its
 * private key is sealed with CONTRACT_KEY_SECRET and never leaves the server.
 */
export const companyKeyOf = async (db: Db, config: Config, tenantId: number) => {
  const a = await requireReadyAccount(db, tenantId);
  if (!config.contractKeySecret) throw new AppError('CONTRACT_KEY_NOT_CONFIGURED');
  if (a.certPem && a.encryptedKey && a.certName === a.companyName) return { certPem: a.certPem, encryptedKey: a.encryptedKey };
  const key = await createCompanyCertificate({
    companyName: a.companyName,
    creditCode: a.creditCode,
    keySecret: config.contractKeySecret,
  });
  await repo.saveAccount(db, {
    ...a,
    certPem: key.certPem,
    encryptedKey: key.encryptedKey,
    certName: a.companyName,
    certFingerprint: certificateFingerprint(key.certPem),
    certNotAfter: new Date(now().getTime() + 10 * 365 * 86_400_000),
    updatedAt: now(),
  });
  return key;
};

/** POST info: 统一社会信用代码 checked by its GB 32100 check character. */
export const saveAccount = async (db: Db, config: Config, actor: Actor, body: ContractAccountBody) => {
  if (!isValidCreditCode(body.credit_code)) throw new AppError('CONTRACT_CREDIT_CODE_INVALID');
  const old = await repo.findAccount(db, actor.tenantId);
  await repo.saveAccount(db, {
    tenantId: actor.tenantId,
    companyName: body.company_name,
    creditCode: body.credit_code,
    legalRep: body.legal_rep,
    status: body.status,
    certPem: old?.certPem ?? null,
    encryptedKey: old?.encryptedKey ?? null,
    certName: old?.certName ?? '',
    certFingerprint: old?.certFingerprint ?? '',
    certNotAfter: old?.certNotAfter ?? null,
    updatedAt: now(),
  });
  return presentAccount(db, config, actor.tenantId);
};

export const accountLog = async (db: Db, actor: Actor, q: { page: number; limit: number }): Promise<ListData<AccountLogRow>> => {
  const { rows, total } = await repo.listCreditUses(db, actor.tenantId, q.page, q.limit);
  const names = await staffNames(
    db,
    actor.tenantId,
    rows.map((r) => r.staffId),
  );
  return {
    list: rows.map((r) => ({
      id: r.id,
      contract_id: r.contractId,
      contract_no: r.contractNo ?? '',
      credits: r.credits,
      kind: r.kind === 'archive' ? '合同归档' : r.kind,
      staff_name: names.get(r.staffId) ?? '',
      created_at: formatDateTime(r.createdAt),
    })),
    count: total,
  };
};

// ---------- seals ----------

export const canUseSeal = (seal: repo.SealRecord, actor: Actor) =>
  seal.status === 0 && (seal.staffIds.length === 0 || seal.staffIds.includes(actor.staffId) || actor.isSystemRole);

export const sealImageUrl = (id: number) => `/api/contract/seal_sign/image?id=${id}`;

export const listSeals = async (db: Db, actor: Actor, withDestroyed: boolean): Promise<ListData<Seal>> => {
  const rows = await repo.listSeals(db, actor.tenantId, withDestroyed);
  const names = await staffNames(
    db,
    actor.tenantId,
    rows.flatMap((r) => r.staffIds),
  );
  return {
    list: rows.map((s) => ({
      id: s.id,
      name: s.name,
      kind: s.kind,
      kind_name: SEAL_KIND_LABEL[s.kind] ?? '',
      image_url: sealImageUrl(s.id),
      staff_ids: s.staffIds,
      staff_names: s.staffIds.map((id) => names.get(id) ?? ''),
      needs_approval: s.needsApproval,
      approval_template_id: s.approvalTemplateId ?? 0,
      status: s.status,
      destroyed_at: formatDateTime(s.destroyedAt),
      created_at: formatDateTime(s.createdAt),
      can_use: canUseSeal(s, actor) ? 1 : 0,
    })),
    count: rows.length,
  };
};

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG that can be transparent: colour type with alpha (4, 6) or a tRNS chunk. */
export const isTransparentPng = (buf: Buffer) =>
  buf.length > 33 &&
  buf.subarray(0, 8).equals(PNG_SIGNATURE) &&
  buf.subarray(12, 16).toString('latin1') === 'IHDR' &&
  ([4, 6].includes(buf[25]) || buf.includes(Buffer.from('tRNS', 'latin1')));

const requireSealApprovalTemplate = async (db: Db, tenantId: number, id: number | undefined) => {
  if (!id) throw new AppError('CONTRACT_SEAL_APPROVAL_INVALID');
  const t = await requireTemplate(db, tenantId, id).catch(onlyRefusal(undefined));
  if (!t || t.template.isOrder !== SEAL_APPROVAL_TEMPLATE_KIND || t.template.actionState !== 0)
    throw new AppError('CONTRACT_SEAL_APPROVAL_INVALID');
};

/** seal_sign/store: a new seal or an edit of one still in use. */
export const storeSeal = async (db: Db, config: Config, actor: Actor, body: SealStoreBody) => {
  if (body.kind === SEAL_KIND.uploaded) {
    const row = await requireOwnFile(db, actor, body.file_id as number).catch(() => {
      throw new AppError('CONTRACT_SEAL_IMAGE_INVALID');
    });
    const bytes = await findTenantFileBytes(db, config.dataDir, actor.tenantId, row.id);
    if (!bytes || !isTransparentPng(bytes.buf)) throw new AppError('CONTRACT_SEAL_IMAGE_INVALID');
  }
  const staffIds = [...new Set(body.staff_ids)];
  if ((await activeStaffIds(db, actor.tenantId, staffIds)).length !== staffIds.length)
    throw new AppError('VALIDATION', '可使用印章的员工不存在或已停用');
  if (body.needs_approval) await requireSealApprovalTemplate(db, actor.tenantId, body.approval_template_id);
  const values = {
    name: body.name,
    kind: body.kind,
    fileId: body.kind === SEAL_KIND.uploaded ? (body.file_id ?? null) : null,
    staffIds,
    needsApproval: body.needs_approval,
    approvalTemplateId: body.needs_approval ? (body.approval_template_id ?? null) : null,
  };
  if (body.id) {
    const seal = await repo.findSeal(db, actor.tenantId, body.id);
    if (!seal || seal.status !== 0) throw new AppError('CONTRACT_SEAL_NOT_FOUND');
    await repo.updateSeal(db, actor.tenantId, seal.id, values);
    return seal.id;
  }
  return repo.insertSeal(db, { tenantId: actor.tenantId, ...values, createdBy: actor.staffId, createdAt: now() });
};

/** seal_sign/destroy: the seal can no longer be used; contracts it sealed keep it (and its history). */
export const destroySeal = async (db: Db, actor: Actor, id: number) => {
  const seal = await repo.findSeal(db, actor.tenantId, id);
  if (!seal || seal.status !== 0) throw new AppError('CONTRACT_SEAL_NOT_FOUND');
  await repo.updateSeal(db, actor.tenantId, id, { status: 1, destroyedAt: now(), destroyedBy: actor.staffId });
};

/** The seal's image: the uploaded PNG, or the round seal drawn with the company's name. */
export const sealImage = async (db: Db, config: Config, tenantId: number, seal: repo.SealRecord) => {
  if (seal.kind === SEAL_KIND.uploaded && seal.fileId) {
    const f = await findTenantFileBytes(db, config.dataDir, tenantId, seal.fileId);
    if (!f) throw new AppError('CONTRACT_SEAL_NOT_FOUND');
    return new Uint8Array(f.buf);
  }
  const companyName = (await repo.findAccount(db, tenantId))?.companyName || '（请先完善企业信息）';
  return sealPng({ companyName, kind: seal.kind === SEAL_KIND.official ? '公章' : '合同专用章', size: 240 });
};

export const sealImageOf = async (db: Db, config: Config, actor: Actor, id: number) => {
  const seal = await repo.findSeal(db, actor.tenantId, id);
  if (!seal) throw new AppError('CONTRACT_SEAL_NOT_FOUND');
  return sealImage(db, config, actor.tenantId, seal);
};

// ---------- templates ----------

export const presentTemplate = (t: repo.TemplateRecord, pdfUrl: string): ContractTemplate => ({
  id: t.id,
  name: t.name,
  kind: t.kind,
  body: t.body,
  pdf_file_id: t.pdfFileId ?? 0,
  pdf_url: pdfUrl,
  fields: t.fields,
  sign_areas: t.signAreas.map((a) => ({ party: a.party === 1 ? 1 : 2, page: a.page, x: a.x, y: a.y })),
  status: t.status,
  created_at: formatDateTime(t.createdAt),
  updated_at: formatDateTime(t.updatedAt),
});

export const listTemplates = async (db: Db, actor: Actor, isAll: boolean): Promise<ListData<ContractTemplate>> => {
  const rows = await repo.listTemplates(db, actor.tenantId, isAll);
  const files = await fileInfosByIds(
    db,
    actor.tenantId,
    rows.flatMap((r) => (r.pdfFileId ? [r.pdfFileId] : [])),
  );
  return {
    list: rows.map((r) => presentTemplate(r, r.pdfFileId ? (files.get(r.pdfFileId)?.url ?? '') : '')),
    count: rows.length,
  };
};

const checkTemplatePdf = async (db: Db, actor: Actor, body: ContractTemplateStoreBody) => {
  if (body.kind !== 2) return null;
  const row = await requireOwnFile(db, actor, body.pdf_file_id as number).catch(() => {
    throw new AppError('CONTRACT_PDF_INVALID');
  });
  if (!row.storedName.endsWith('.pdf')) throw new AppError('CONTRACT_PDF_INVALID');
  return row.id;
};

const templateValues = (body: ContractTemplateStoreBody, pdfFileId: number | null) => ({
  name: body.name,
  kind: body.kind,
  body: body.kind === 1 ? body.body : '',
  pdfFileId,
  fields: body.fields,
  signAreas: body.sign_areas,
  status: body.status,
});

export const storeTemplate = async (db: Db, actor: Actor, body: ContractTemplateStoreBody) => {
  if (await repo.templateNameTaken(db, actor.tenantId, body.name, 0)) throw new AppError('CONTRACT_TEMPLATE_NAME_TAKEN');
  const pdfFileId = await checkTemplatePdf(db, actor, body);
  const at = now();
  return repo.insertTemplate(db, {
    tenantId: actor.tenantId,
    ...templateValues(body, pdfFileId),
    createdBy: actor.staffId,
    createdAt: at,
    updatedAt: at,
  });
};

/** template/update: contracts already made keep their own fields and PDF. */
export const updateTemplate = async (db: Db, actor: Actor, body: ContractTemplateUpdateBody) => {
  const t = await repo.findTemplate(db, actor.tenantId, body.id);
  if (!t) throw new AppError('CONTRACT_TEMPLATE_NOT_FOUND');
  if (await repo.templateNameTaken(db, actor.tenantId, body.name, t.id)) throw new AppError('CONTRACT_TEMPLATE_NAME_TAKEN');
  const pdfFileId = await checkTemplatePdf(db, actor, body);
  await repo.updateTemplate(db, actor.tenantId, t.id, { ...templateValues(body, pdfFileId), updatedAt: now() });
};

// ---------- numbering rule ----------

export const getRule = (db: Db, actor: Actor) => presentRule(db, actor.tenantId);

export const saveRule = async (db: Db, actor: Actor, body: ContractRuleBody) => {
  await repo.saveRule(db, {
    tenantId: actor.tenantId,
    prefix: body.prefix,
    dateFormat: body.date_format,
    seqDigits: body.seq_digits,
    updatedAt: now(),
  });
  return presentRule(db, actor.tenantId);
};
