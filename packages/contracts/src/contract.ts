import { z } from 'zod';
import { staffApproveNodeInput } from './approvals';
import { qId, qNum, zId, zText } from './common';
import { amountInCapitals, amountInFigures } from './contract-amount';
import { MONEY_MAX } from './products';

// Contracts and e-signature (issue 26; SPEC §4 Contract PDF, §7 the contract paths and api/uploadPdf,
// §8 the data.code 1 warning, §9 A4). Money in 1/1000 yuan integers, like orders.

/** A4 in PDF points (SPEC §9). */
export const CONTRACT_PAGE = { width: 595.28, height: 841.89 } as const;

export const CONTRACT_LIMITS = {
  pageSize: 10,
  name: 50,
  body: 50_000,
  fields: 60,
  fieldLabel: 30,
  fieldValue: 2_000,
  reason: 200,
  prefix: 20,
  /** ids of one batch download */
  batch: 1_000,
  /** days a signing link stays valid (default / max) */
  linkDays: 7,
  linkDaysMax: 30,
  /** a one-time code: digits, minutes valid, wrong tries, seconds between two sends, sends a day */
  otpDigits: 6,
  otpMinutes: 5,
  otpAttempts: 5,
  otpResendSeconds: 60,
  otpPerDay: 10,
  /** a drawn signature (PNG data URL), bytes of the decoded image */
  signatureBytes: 512 * 1024,
  typedName: 20,
  sealStaff: 200,
  /** 付款条款: instalments of one contract, remark characters (a receipt plan's remark holds 50) */
  paymentTerms: 24,
  termRemark: 30,
} as const;

/** Socket frame msg_type of contract notices (the customer signed …); approvals 20, receipts 21, work orders 22, AI 23, billing 24. */
export const CONTRACT_MSG_TYPE = 25;

/** 草稿/签署中/已签署/已归档/已作废 */
export const CONTRACT_STATUS = { draft: 0, signing: 1, signed: 2, archived: 3, discarded: 4 } as const;
export const CONTRACT_STATUS_LABEL: Record<number, string> = { 0: '草稿', 1: '签署中', 2: '已签署', 3: '已归档', 4: '已作废' };
export const contractStatusSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);

/** Signing order: 1 company first, 2 customer first, 3 parallel. */
export const SIGN_ORDER = { companyFirst: 1, customerFirst: 2, parallel: 3 } as const;
export const SIGN_ORDER_LABEL: Record<number, string> = { 1: '我方先签', 2: '客户先签', 3: '同时签署' };
export const signOrderSchema = z.union([z.literal(1), z.literal(2), z.literal(3)]);

/** A signer's party: 1 the company (the platform applies its seal), 2 the customer (link + code). */
export const SIGNER_PARTY = { company: 1, customer: 2 } as const;
export const SIGNER_PARTY_LABEL: Record<number, string> = { 1: '甲方（我方）', 2: '乙方（客户）' };

/** 用印审批 of a send: 0 none needed, 1 waiting, 2 approved, 3 rejected (or withdrawn). */
export const SEAL_APPROVAL = { none: 0, pending: 1, approved: 2, rejected: 3 } as const;
export const SEAL_APPROVAL_LABEL: Record<number, string> = { 0: '无需审批', 1: '用印审批中', 2: '用印已批准', 3: '用印被驳回' };

/** Seal kinds: 1 合同专用章 and 2 公章 are drawn by the platform; 3 an uploaded transparent PNG. */
export const SEAL_KIND = { contract: 1, official: 2, uploaded: 3 } as const;
export const SEAL_KIND_LABEL: Record<number, string> = { 1: '合同专用章', 2: '公章', 3: '上传印章' };
export const SEAL_STATUS = { active: 0, destroyed: 1 } as const;

/** Template kinds: 1 a body with fields edited in the browser, 2 an uploaded PDF with fields placed on its pages. */
export const TEMPLATE_KIND = { body: 1, pdf: 2 } as const;

/** Approval templates serving seal use carry isOrder 3 (1 orders, 2 receipts). */
export const SEAL_APPROVAL_TEMPLATE_KIND = 3;

/**
 * The fields a template may use. In a body they appear as `{{key}}`; `products` is the products
 * table, `payment_terms` the payment terms table (both when alone on their line); free fields are
 * `custom_<n>` with their own label, filled when the contract is created.
 */
export const CONTRACT_FIELDS = [
  { key: 'customer_name', label: '客户名称' },
  { key: 'contact_name', label: '联系人' },
  { key: 'contact_phone', label: '电话' },
  { key: 'amount_upper', label: '订单金额（大写）' },
  { key: 'amount_lower', label: '订单金额（小写）' },
  { key: 'products', label: '产品明细表' },
  { key: 'payment_terms', label: '付款条款' },
  { key: 'sign_date', label: '签约日期' },
  { key: 'service_period', label: '服务期限' },
  { key: 'bank_account', label: '收款账户' },
  { key: 'company_name', label: '我方名称' },
  { key: 'contract_no', label: '合同编号' },
] as const;
export const CONTRACT_FIELD_KEY =
  /^(customer_name|contact_name|contact_phone|amount_upper|amount_lower|products|payment_terms|sign_date|service_period|bank_account|company_name|contract_no|custom_\d{1,3})$/;

const text = (what: string, max: number) => zText().trim().min(1, `请输入${what}`).max(max, `${what}最多${max}个字符`);
const qDate = z
  .string()
  .max(19)
  .regex(/^$|^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/, '日期格式不正确')
  .default('');
const page = z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), zId().default(1));
const limit = (d: number) =>
  z.preprocess((v) => (v === '' || v === undefined ? d : Number(v)), z.number().int().min(1).max(200).default(d));

// ---------- contracts ----------

export const contractListQuery = z.object({
  page,
  limit: limit(CONTRACT_LIMITS.pageSize),
  status: z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), contractStatusSchema.optional()),
  customer_id: qNum,
  order_id: qNum,
  owner_id: qNum,
  /** contract number, contains */
  number: z.string().max(50).default(''),
  /** the customer's name as the contract holds it (its filled 客户名称), contains */
  customer_name: z.string().max(50).default(''),
  /** created between (YYYY-MM-DD[ HH:mm:ss]) */
  start: qDate,
  end: qDate,
});
export type ContractListQuery = z.infer<typeof contractListQuery>;
export const contractStatusInfoQuery = contractListQuery.omit({ status: true, page: true, limit: true });

export const contractRowSchema = z.object({
  id: z.number(),
  contract_no: z.string(),
  title: z.string(),
  order_id: z.number(),
  customer_id: z.number(),
  customer_name: z.string(),
  owner_id: z.number(),
  owner_name: z.string(),
  /** 1/1000 yuan */
  amount: z.number(),
  amount_upper: z.string(),
  status: z.number(),
  status_name: z.string(),
  sign_order: z.number(),
  seal_approval: z.number(),
  version: z.number(),
  /** the contract this one replaces (a discard's stamped copy points at its original) */
  parent_id: z.number(),
  created_at: z.string(),
  signed_at: z.string(),
  archived_at: z.string(),
});
export type ContractRow = z.infer<typeof contractRowSchema>;
export const contractStatusInfoSchema = z.object({
  list: z.array(z.object({ status: z.number(), name: z.string(), count: z.number() })),
  total: z.number(),
});
export type ContractStatusInfo = z.infer<typeof contractStatusInfoSchema>;

/** One instalment of the payment terms (分期): amount in 1/1000 yuan and its day; archiving makes it a receipt plan. */
export const paymentTermSchema = z.object({
  amount: z
    .number({ message: '请输入分期金额' })
    .int('分期金额格式不正确')
    .positive('分期金额须大于0')
    .max(MONEY_MAX, `分期金额不能超过${MONEY_MAX}`),
  plan_at: z
    .string({ message: '请选择分期日期' })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, '请选择分期日期'),
  remark: zText().trim().max(CONTRACT_LIMITS.termRemark, `分期备注最多${CONTRACT_LIMITS.termRemark}个字符`).default(''),
});
export type PaymentTerm = z.infer<typeof paymentTermSchema>;

/** What a contract says of its payment when it has no instalments (the `{{payment_terms}}` line, inline). */
export const PAYMENT_TERMS_NONE = { line: '一次性付清全部合同款项。', inline: '一次性付清' } as const;
export const PAYMENT_TERM_COLUMNS = ['期次', '金额', '约定日期', '备注'] as const;

/** One instalment as the payment terms table shows it: 第n期, ¥ figure with its 大写 under it, day, remark. */
export const paymentTermCells = (t: Pick<PaymentTerm, 'amount' | 'plan_at' | 'remark'>, i: number): string[] => [
  `第${i + 1}期`,
  `${amountInFigures(t.amount)}\n（${amountInCapitals(t.amount)}）`,
  t.plan_at,
  t.remark || '-',
];

/** `{{payment_terms}}` inside a sentence: the instalments in one line, or 一次性付清. */
export const paymentTermsText = (terms: Pick<PaymentTerm, 'amount' | 'plan_at' | 'remark'>[]): string =>
  terms.length === 0
    ? PAYMENT_TERMS_NONE.inline
    : `分${terms.length}期支付：${terms
        .map(
          (t, i) =>
            `第${i + 1}期于${t.plan_at}前支付${amountInFigures(t.amount)}（${amountInCapitals(t.amount)}）${t.remark ? `，${t.remark}` : ''}`,
        )
        .join('；')}`;

/** POST /api/contract/create: a draft from an APPROVED order. */
export const contractCreateBody = z.object({
  order_id: zId(),
  template_id: zId(),
  seal_id: zId(),
  sign_order: signOrderSchema.default(1),
  title: zText().trim().max(CONTRACT_LIMITS.name).default(''),
  /** the customer signer; defaults to the order's contact */
  signer_name: zText().trim().max(30).default(''),
  signer_phone: zText().trim().max(20).default(''),
  /** values of the template's fields the order does not give (service_period, bank_account, custom_n …) */
  fields: z.record(zText().regex(CONTRACT_FIELD_KEY), zText().max(CONTRACT_LIMITS.fieldValue)).default({}),
  /** 付款条款 (分期); together at most the order's amount */
  payment_terms: z
    .array(paymentTermSchema)
    .max(CONTRACT_LIMITS.paymentTerms, `最多${CONTRACT_LIMITS.paymentTerms}期`)
    .default([]),
});
export type ContractCreateBody = z.infer<typeof contractCreateBody>;

export const signerSchema = z.object({
  id: z.number(),
  party: z.number(),
  party_name: z.string(),
  /** who signs: the company name / the customer signer's name */
  name: z.string(),
  phone: z.string(),
  /** 0 waiting for his turn or approval, 1 may sign now, 2 signed */
  state: z.number(),
  signed_at: z.string(),
  ip: z.string(),
  user_agent: z.string(),
  link_expires_at: z.string(),
  /** only on the sim line (no real SMS): the last one-time code sent, so the demo works */
  demo_code: z.string(),
});
export type Signer = z.infer<typeof signerSchema>;
export const auditEntrySchema = z.object({
  seq: z.number(),
  action: z.string(),
  action_name: z.string(),
  actor: z.string(),
  detail: z.string(),
  ip: z.string(),
  at: z.string(),
  hash: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const contractDetailSchema = contractRowSchema.extend({
  template_id: z.number(),
  seal_id: z.number(),
  seal_name: z.string(),
  fields: z.record(z.string(), z.string()),
  products: z.array(z.object({ name: z.string(), spec: z.string(), price: z.number(), num: z.number(), total: z.number() })),
  payment_terms: z.array(z.object({ amount: z.number(), plan_at: z.string(), remark: z.string() })),
  /** the order's receipt plans made from the payment terms when the contract was archived ([] when none) */
  receipt_plan_ids: z.array(z.number()),
  discard_reason: z.string(),
  /** the copy stamped 已作废 made by a discard of this one */
  discarded_by_id: z.number(),
  signers: z.array(signerSchema),
  /** PDF urls (logged-in download, GET /api/contract/pdf?id&kind=) or '' */
  pdf: z.object({ draft: z.string(), signed: z.string(), archived: z.string(), dismissed: z.string() }),
  /** SPEC §4: the contract's file-URL list; the signed and the dismissed (作废) versions are not in it */
  file_urls: z.array(z.string()),
  archived_sha256: z.string(),
  approval_instance_id: z.number(),
  audit: z.array(auditEntrySchema),
  /** 1 when the audit chain checks out */
  audit_ok: z.number(),
  can_send: z.number(),
  can_archive: z.number(),
  can_discard: z.number(),
});
export type ContractDetail = z.infer<typeof contractDetailSchema>;
export const contractIdQuery = z.object({ id: qId() });
export const contractOfOrderQuery = z.object({ order_id: qId() });
export const contractOfCustomerQuery = z.object({ customer_id: qId() });
export const contractPdfQuery = z.object({
  id: qId(),
  kind: z.enum(['draft', 'signed', 'archived', 'dismissed']).default('draft'),
});

/** POST /api/contract/create/sign: send a draft for signing. */
export const contractSendBody = z.object({
  id: zId(),
  /** days the customer's link stays valid */
  link_days: z.number().int().min(1).max(CONTRACT_LIMITS.linkDaysMax).default(CONTRACT_LIMITS.linkDays),
  /** 用印审批 with free nodes: the approvers picked per node (as in templatecreate) */
  staffApproveNode: z.array(staffApproveNodeInput).max(20).default([]),
});
/** The customer's link is shown once (only its hash is kept); POST /api/contract/signer/link issues a new one. */
export const contractSendResultSchema = z.object({
  status: z.number(),
  seal_approval: z.number(),
  /** path of the customer's signing page, `/sign/<token>` (prefix the site origin) */
  sign_path: z.string(),
  link_expires_at: z.string(),
});
export type ContractSendResult = z.infer<typeof contractSendResultSchema>;
/** A new link for the customer signer (the old one stops working). */
export const signerLinkBody = z.object({
  id: zId(),
  link_days: z.number().int().min(1).max(CONTRACT_LIMITS.linkDaysMax).default(CONTRACT_LIMITS.linkDays),
});
export const contractIdBody = z.object({ id: zId() });
export const contractArchiveResultSchema = z.object({
  status: z.number(),
  archived_url: z.string(),
  sha256: z.string(),
  /** receipt plans made from the payment terms, and why none were made when the terms could not become plans */
  receipt_plans: z.number(),
  receipt_plan_msg: z.string(),
});
export type ContractArchiveResult = z.infer<typeof contractArchiveResultSchema>;
export const contractDiscardBody = z.object({ id: zId(), reason: text('作废原因', CONTRACT_LIMITS.reason) });
export const contractDiscardResultSchema = z.object({ id: z.number(), discarded_id: z.number() });
export const contractBatchDownloadBody = z.object({
  ids: z.array(zId()).min(1, '请选择合同').max(CONTRACT_LIMITS.batch, `一次最多下载${CONTRACT_LIMITS.batch}份合同`),
});

/** POST api/uploadPdf (SPEC §7/§8): data.url, or data.code 1 with data.msg (a warning, the file is kept). */
export const uploadPdfResultSchema = z.object({
  code: z.number(),
  msg: z.string(),
  id: z.number(),
  url: z.string(),
  name: z.string(),
  pages: z.number(),
});
export type UploadPdfResult = z.infer<typeof uploadPdfResultSchema>;
