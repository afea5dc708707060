/**
 * Lead search (拓客, issue 28): 拓客设置 (menu 116) — the provider key, the daily 转为客户 quota, the
 * registry → customer template mapping — and the company's own imported lists.
 */
import { z } from 'zod';
import { INT4_MAX, qCode, zId, zText } from './common';
import { LEAD_LIMITS } from './leads-company';
import { limit, page } from './leads-params';

// ---------- settings: provider keys, quota, the template mapping ----------

/** Registry fields a customer template control can receive. */
export const LEAD_MAPPABLE_FIELDS = {
  creditCode: '统一社会信用代码',
  legalRep: '法定代表人',
  phone: '联系电话',
  address: '地址',
  region: '所在地区',
  industry: '行业',
  capital: '注册资本（万元）',
  foundedOn: '成立日期',
  status: '登记状态',
  scope: '经营范围',
} as const;
export type LeadMappableField = keyof typeof LEAD_MAPPABLE_FIELDS;

export const leadSettingsSchema = z.object({
  /** the provider AppKey with all but its last 4 characters hidden; '' when not set */
  providerKeyMasked: z.string(),
  hasProviderSecret: z.boolean(),
  /** 转为客户 per user per day */
  dailyQuota: z.number(),
  /** registry field → template control id (coTacid) */
  mapping: z.array(z.object({ field: z.string(), label: z.string(), coTacid: z.number().nullable() })),
  /** the provider's paid lookups of this company: today and all time */
  lookupsToday: z.number(),
  lookupsTotal: z.number(),
});
export type LeadSettings = z.infer<typeof leadSettingsSchema>;
/** POST kqhk/settings/set: a key or secret left out (or '') keeps the stored one. */
export const leadSettingsBody = z.object({
  providerKey: zText().trim().max(64).optional(),
  providerSecret: zText().trim().max(128).optional(),
  /** true: forget the stored key and secret */
  isClearKeys: z.boolean().optional(),
  dailyQuota: z.number().int().min(0).max(LEAD_LIMITS.maxDailyQuota).optional(),
  mapping: z
    .array(z.object({ field: z.string().max(20), coTacid: zId().nullable() }))
    .max(20)
    .optional(),
});
export type LeadSettingsBody = z.infer<typeof leadSettingsBody>;

// ---------- own imported lists ----------

export const leadOwnListSchema = z.object({
  id: z.number(),
  name: z.string(),
  rowCount: z.number(),
  /** 导入人: the staff member who imported it ('' when unknown) */
  staffName: z.string(),
  /** 导入时间 */
  createTime: z.string(),
});
export type LeadOwnList = z.infer<typeof leadOwnListSchema>;
/**
 * POST kqhk/own/import {name, fileId}: an .xlsx with a header row: 企业名称 (required),
 * 统一社会信用代码, 法定代表人, 电话, 地址, 注册资本（万元）, 成立日期. Only this company sees the rows.
 */
export const leadOwnImportBody = z.object({
  name: zText().trim().min(1, '请输入名单名称').max(LEAD_LIMITS.ownListName),
  fileId: z.number().int().positive({ message: '请上传名单文件' }).max(INT4_MAX),
});
export const leadOwnImportResultSchema = z.object({
  id: z.number(),
  imported: z.number(),
  rejected: z.number(),
  reasons: z.array(z.object({ row: z.number(), reason: z.string() })),
});
export const leadOwnListQuery = z.object({ page, limit, status: qCode });
