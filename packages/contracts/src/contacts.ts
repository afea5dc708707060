/** The phone tab (contacts of a customer) and the reveal of a masked number (SPEC §6, §9). */
import { z } from 'zod';
import { qCode, qId, qNum, zId } from './common';
import { FOLLOW_LIMITS } from './follow-ups';

/** SPEC §9 contact heat (kpType). */
export const KP_TYPE_LABEL: Record<number, string> = { 0: '无', 1: '热门号码', 3: '疑似活跃', 4: '企业官网' };
export const CONTACT_TYPE_LABEL: Record<number, string> = { 1: '手机', 2: '座机', 3: '其他' };
/** 1: a phone control of the customer's template (edit it on the customer), 2: added on the phone tab. */
export const CONTACT_SOURCE_LABEL: Record<number, string> = { 1: '客户资料', 2: '手动添加' };

export const contactListQuery = z.object({
  cmCtid: qId(),
  contactNo: z.string().max(20).optional(),
  kpType: qCode,
  recommend: qCode,
  page: z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), zId().default(1)),
  limit: z.preprocess(
    (v) => (v === '' || v === undefined ? FOLLOW_LIMITS.contactPageSize : Number(v)),
    z.number().int().min(1).max(100).default(FOLLOW_LIMITS.contactPageSize),
  ),
});
export type ContactListQuery = z.infer<typeof contactListQuery>;

export const contactSchema = z.object({
  /** contact id (0 for a template phone control) */
  ccId: z.number(),
  cmCtid: z.number(),
  /** the template control holding the number (sourceType 1), else 0 */
  cbTacid: z.number(),
  contactPerson: z.string(),
  contactNo: z.string(),
  encryptPhone: z.number(),
  contactType: z.number(),
  contactPosition: z.string(),
  kpType: z.number(),
  recommend: z.number(),
  createTime: z.string(),
  sourceType: z.number(),
});
export type Contact = z.infer<typeof contactSchema>;

const kpType = z.union([z.literal(0), z.literal(1), z.literal(3), z.literal(4)]);
export const contactBody = z.object({
  cmCtid: zId(),
  contactPerson: z.string().trim().max(20, '联系人最多20个字符').default(''),
  contactNo: z.string().trim().min(1, '请输入联系电话').max(20, '联系电话最多20个字符'),
  contactType: z.union([z.literal(1), z.literal(2), z.literal(3)]).default(1),
  contactPosition: z.string().trim().max(30, '职位最多30个字符').default(''),
  kpType: kpType.default(0),
  recommend: z.union([z.literal(0), z.literal(1)]).default(0),
});
export type ContactBody = z.infer<typeof contactBody>;
export const contactEditBody = contactBody.extend({ ccId: zId() });
export type ContactEditBody = z.infer<typeof contactEditBody>;
export const contactDelBody = z.object({ ccId: zId() });

/** GET phone: reveal a masked number (template control by cbTacid, or a contact by sourceId + sourceType 2). */
export const phoneRevealQuery = z.object({
  cmCtid: qId(),
  cbTacid: qNum,
  sourceId: qNum,
  sourceType: qNum,
});
export type PhoneRevealQuery = z.infer<typeof phoneRevealQuery>;
export const phoneRevealSchema = z.object({ phone: z.string(), remaining: z.number().nullable() });
export type PhoneReveal = z.infer<typeof phoneRevealSchema>;
