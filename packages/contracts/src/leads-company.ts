/**
 * Lead search (拓客, issue 28): its limits and labels, and the registry row as the pages see it.
 *
 * Registered capital is an integer of 万元 (rounded down; a provider's "100万元人民币" → 100).
 * Coordinates are WGS-84 degrees. Dates are 'YYYY-MM-DD'.
 */
import { z } from 'zod';

export const LEAD_LIMITS = {
  pageSize: 20,
  maxPageSize: 100,
  keyword: 50,
  /** a batch lookup takes at most this many names (issue 28) */
  batchMaxNames: 10_000,
  /** 转为客户 / 加入任务 act on at most this many leads at once */
  maxSelect: 500,
  /** map search: the largest radius, in km */
  mapMaxRadiusKm: 50,
  /** map search: more points than this in the answer are clustered on a grid */
  mapClusterAbove: 300,
  /** a drawn polygon has at most this many corners */
  polygonMaxPoints: 100,
  templateName: 30,
  maxTemplates: 100,
  /** the default 转为客户 quota per user per day (the admin changes it in settings) */
  defaultDailyQuota: 10,
  maxDailyQuota: 10_000,
  ownListName: 30,
  /** rows of one imported own list */
  ownListMaxRows: 10_000,
} as const;

/** 登记状态: 1 存续 (in business), 2 注销 (deregistered), 3 吊销 (licence revoked). */
export const LEAD_STATUS = { active: 1, deregistered: 2, revoked: 3 } as const;
export const LEAD_STATUS_LABEL: Record<number, string> = { 1: '存续', 2: '注销', 3: '吊销' };

/** Where a registry row came from. */
export const LEAD_SOURCE = { provider: 'provider', seed: 'seed', import: 'import' } as const;
export const LEAD_SOURCE_LABEL: Record<string, string> = { provider: '数据服务商', seed: '演示数据', import: '自有名单' };

// ---------- the registry row as the pages see it ----------

export const leadCompanySchema = z.object({
  /** registry row id (platform rows and the caller's own imported rows share one id space) */
  id: z.number(),
  /** 统一社会信用代码; '' for an own-list row imported without one */
  creditCode: z.string(),
  name: z.string(),
  legalRep: z.string(),
  /** LEAD_STATUS */
  status: z.number(),
  statusLabel: z.string(),
  /** [province, city, district] codes of packages/regions (as many as known) */
  regionCodes: z.array(z.number()),
  regionLabel: z.string(),
  /** GB/T 4754 门类 letter and 大类 code ('I', '65'); '' when unknown */
  industrySection: z.string(),
  industryCode: z.string(),
  industryLabel: z.string(),
  /** 注册资本, 万元 (integer) */
  capitalWan: z.number(),
  /** 成立日期 'YYYY-MM-DD', '' when unknown */
  foundedOn: z.string(),
  address: z.string(),
  scope: z.string(),
  phones: z.array(z.string()),
  hasPhone: z.boolean(),
  hasMobile: z.boolean(),
  /** WGS-84; null when the registry has no coordinates */
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** LEAD_SOURCE */
  source: z.string(),
  /** true: a row of the caller's company's own imported list */
  isOwn: z.boolean(),
  fetchedAt: z.string(),
});
export type LeadCompany = z.infer<typeof leadCompanySchema>;
