/**
 * Contract settings (合同设置, issue 26): the e-sign account and its credit log, seals, templates and the
 * numbering rule (GET/POST api/contract/info, account/log, seal_sign, seal_sign/store, seal_sign/destroy,
 * template, template/store, template/update, rule, rule/update). Apart from the contracts themselves.
 */
import { z } from 'zod';
import { zId, zText } from './common';
import { CONTRACT_FIELD_KEY, CONTRACT_LIMITS, CONTRACT_PAGE } from './contract';

const text = (what: string, max: number) => zText().trim().min(1, `请输入${what}`).max(max, `${what}最多${max}个字符`);
const page = z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), zId().default(1));
const limit = (d: number) =>
  z.preprocess((v) => (v === '' || v === undefined ? d : Number(v)), z.number().int().min(1).max(200).default(d));
const flag = z.union([z.literal(0), z.literal(1)]);
// ---------- e-sign account: GET/POST api/contract/info, GET account/log ----------

/** The company's signing identity; `cert` describes the company certificate (never its private key). */
export const contractAccountSchema = z.object({
  company_name: z.string(),
  credit_code: z.string(),
  legal_rep: z.string(),
  /** 0 未认证 (not filled), 1 正常, 2 停用 */
  status: z.number(),
  status_name: z.string(),
  credits_used: z.number(),
  cert: z.object({ subject: z.string(), not_after: z.string(), fingerprint: z.string() }).nullable(),
  /** 1 when one-time codes go through a real SMS provider; 0 on the sim line (codes shown to the agent) */
  sms_live: z.number(),
});
export type ContractAccount = z.infer<typeof contractAccountSchema>;
export const contractAccountBody = z.object({
  company_name: text('企业名称', 60),
  /** 统一社会信用代码 (GB 32100-2015, 18 characters with its check character) */
  credit_code: zText().trim().toUpperCase().length(18, '统一社会信用代码应为18位'),
  legal_rep: text('法定代表人', 30),
  status: z.union([z.literal(1), z.literal(2)]).default(1),
});
export type ContractAccountBody = z.infer<typeof contractAccountBody>;

export const accountLogQuery = z.object({ page, limit: limit(20) });
export const accountLogRowSchema = z.object({
  id: z.number(),
  contract_id: z.number(),
  contract_no: z.string(),
  /** credits this entry consumed (1 per archived contract) */
  credits: z.number(),
  kind: z.string(),
  staff_name: z.string(),
  created_at: z.string(),
});
export type AccountLogRow = z.infer<typeof accountLogRowSchema>;

// ---------- seals: GET seal_sign, POST seal_sign/store, POST seal_sign/destroy ----------

export const sealQuery = z.object({
  /** 1: destroyed seals too */
  with_destroyed: z.preprocess((v) => (v === '' || v === undefined ? 0 : Number(v)), flag.default(0)),
});
export const sealSchema = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.number(),
  kind_name: z.string(),
  /** the seal image (PNG) as a URL the logged-in web can show */
  image_url: z.string(),
  /** who may use it; empty = every staff member */
  staff_ids: z.array(z.number()),
  staff_names: z.array(z.string()),
  /** 用印审批 required */
  needs_approval: z.number(),
  approval_template_id: z.number(),
  status: z.number(),
  destroyed_at: z.string(),
  created_at: z.string(),
  /** 1 when the caller may use it */
  can_use: z.number(),
});
export type Seal = z.infer<typeof sealSchema>;
export const sealStoreBody = z
  .object({
    /** editing: the seal's id; 0/absent = a new seal */
    id: zId().optional(),
    name: text('印章名称', 30),
    kind: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    /** kind 3: the uploaded transparent PNG (upload id) */
    file_id: zId().optional(),
    staff_ids: z.array(zId()).max(CONTRACT_LIMITS.sealStaff).default([]),
    needs_approval: flag.default(0),
    /** the approval flow (an approval template with isOrder 3) when needs_approval is 1 */
    approval_template_id: zId().optional(),
  })
  .refine((b) => b.kind !== 3 || !!b.file_id, { message: '请上传印章图片（透明背景PNG）', path: ['file_id'] })
  .refine((b) => !b.needs_approval || !!b.approval_template_id, {
    message: '请选择用印审批流程',
    path: ['approval_template_id'],
  });
export type SealStoreBody = z.infer<typeof sealStoreBody>;
export const sealDestroyBody = z.object({ id: zId() });

// ---------- templates: GET template, POST template/store, POST template/update ----------

/** A field of a template. On a PDF template it is placed: page (1-based) and a box in points from the top-left. */
export const templateFieldSchema = z.object({
  key: zText().regex(CONTRACT_FIELD_KEY, '字段不正确'),
  label: text('字段名称', CONTRACT_LIMITS.fieldLabel),
  page: z.number().int().min(1).max(200).optional(),
  x: z.number().min(0).max(CONTRACT_PAGE.width).optional(),
  y: z.number().min(0).max(CONTRACT_PAGE.height).optional(),
  width: z.number().min(1).max(CONTRACT_PAGE.width).optional(),
  height: z.number().min(1).max(CONTRACT_PAGE.height).optional(),
  font_size: z.number().min(6).max(36).optional(),
});
export type TemplateField = z.infer<typeof templateFieldSchema>;

/** The font size of a placed field without one (the server draws it so). */
export const PLACED_FONT_SIZE = 11;

/**
 * Why a placed field's box is not inside its A4 page ('' when it is): x + width must stay within
 * the page's width, y + height (without a height: the first line, its font size) within its height.
 */
export const placedFieldError = (f: Pick<TemplateField, 'label' | 'x' | 'y' | 'width' | 'height' | 'font_size'>) => {
  const slack = 1e-6;
  if (f.x !== undefined && f.x + (f.width ?? 0) > CONTRACT_PAGE.width + slack)
    return `字段“${f.label}”超出页面右边缘，请调整X或宽度`;
  if (f.y !== undefined && f.y + (f.height ?? f.font_size ?? PLACED_FONT_SIZE) > CONTRACT_PAGE.height + slack)
    return `字段“${f.label}”超出页面下边缘，请调整Y或高度`;
  return '';
};

/** A field as a template is saved with: its box inside the page. */
const placedFieldSchema = templateFieldSchema.superRefine((f, ctx) => {
  const msg = placedFieldError(f);
  if (msg) ctx.addIssue({ code: 'custom', message: msg });
});
/** Where the seal and the customer's signature go on a PDF template (on a body template: after the text). */
export const signAreaSchema = z.object({
  party: z.union([z.literal(1), z.literal(2)]),
  page: z.number().int().min(1).max(200),
  x: z.number().min(0).max(CONTRACT_PAGE.width),
  y: z.number().min(0).max(CONTRACT_PAGE.height),
});
export type SignArea = z.infer<typeof signAreaSchema>;

export const contractTemplateSchema = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.number(),
  /** kind 1: text with `{{key}}` placeholders; paragraphs split by new lines */
  body: z.string(),
  /** kind 2: the uploaded PDF */
  pdf_file_id: z.number(),
  pdf_url: z.string(),
  fields: z.array(templateFieldSchema),
  sign_areas: z.array(signAreaSchema),
  /** 0 可用, 1 禁用 */
  status: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ContractTemplate = z.infer<typeof contractTemplateSchema>;
export const templateQuery = z.object({
  /** 1: disabled ones too */
  is_all: z.preprocess((v) => (v === '' || v === undefined ? 0 : Number(v)), flag.default(0)),
});
export const contractTemplateStoreBody = z
  .object({
    name: text('模板名称', CONTRACT_LIMITS.name),
    kind: z.union([z.literal(1), z.literal(2)]).default(1),
    body: zText().max(CONTRACT_LIMITS.body, `正文最多${CONTRACT_LIMITS.body}个字符`).default(''),
    pdf_file_id: zId().optional(),
    fields: z.array(placedFieldSchema).max(CONTRACT_LIMITS.fields).default([]),
    sign_areas: z.array(signAreaSchema).max(4).default([]),
    status: flag.default(0),
  })
  .refine((b) => b.kind !== 1 || b.body.trim().length > 0, { message: '请输入合同正文', path: ['body'] })
  .refine((b) => b.kind !== 2 || !!b.pdf_file_id, { message: '请上传合同PDF', path: ['pdf_file_id'] });
export type ContractTemplateStoreBody = z.infer<typeof contractTemplateStoreBody>;
export const contractTemplateUpdateBody = z
  .object({
    id: zId(),
    name: text('模板名称', CONTRACT_LIMITS.name),
    kind: z.union([z.literal(1), z.literal(2)]).default(1),
    body: zText().max(CONTRACT_LIMITS.body, `正文最多${CONTRACT_LIMITS.body}个字符`).default(''),
    pdf_file_id: zId().optional(),
    fields: z.array(placedFieldSchema).max(CONTRACT_LIMITS.fields).default([]),
    sign_areas: z.array(signAreaSchema).max(4).default([]),
    status: flag.default(0),
  })
  .refine((b) => b.kind !== 1 || b.body.trim().length > 0, { message: '请输入合同正文', path: ['body'] })
  .refine((b) => b.kind !== 2 || !!b.pdf_file_id, { message: '请上传合同PDF', path: ['pdf_file_id'] });
export type ContractTemplateUpdateBody = z.infer<typeof contractTemplateUpdateBody>;

// ---------- numbering rule: GET rule, POST rule/update ----------

/** Date part of a number: '' none, or one of these (Asia/Shanghai business day). */
export const RULE_DATE_FORMATS = ['', 'YYYY', 'YYYYMM', 'YYYYMMDD'] as const;
export const contractRuleSchema = z.object({
  prefix: z.string(),
  date_format: z.string(),
  /** digits of the sequence, zero-padded */
  seq_digits: z.number(),
  /** when the sequence starts again at 1: 'never' | 'year' | 'month' | 'day' (follows date_format) */
  reset: z.string(),
  /** what the next number would look like now (not reserved) */
  example: z.string(),
});
export type ContractRule = z.infer<typeof contractRuleSchema>;
export const contractRuleBody = z.object({
  prefix: zText()
    .trim()
    .max(CONTRACT_LIMITS.prefix, `前缀最多${CONTRACT_LIMITS.prefix}个字符`)
    .regex(/^[A-Za-z0-9\-_\u4e00-\u9fa5]*$/, '前缀只能包含字母、数字、中文、-和_'),
  date_format: z.enum(RULE_DATE_FORMATS),
  seq_digits: z.number().int().min(3, '序号至少3位').max(8, '序号最多8位'),
});
export type ContractRuleBody = z.infer<typeof contractRuleBody>;
