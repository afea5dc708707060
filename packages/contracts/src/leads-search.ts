/**
 * Lead search (拓客, issue 28): the searches of SPEC §7 (`GET /api/frontend/customer/kqhk/{company,
 * advanced,map,industry}`), their filters, the company card and the industry templates.
 */
import { z } from 'zod';
import { qId, qNum, zId, zText } from './common';
import { LEAD_LIMITS, leadCompanySchema } from './leads-company';
import { keyword, limit, page, qBool } from './leads-params';

/** GET kqhk/company: name lookup (fuzzy; brackets and 有限公司/有限责任公司 variants match). */
export const leadCompanyQuery = z.object({
  keyword: keyword.min(1, '请输入企业名称'),
  /** 1: ask the data provider as well (a paid lookup, cached); 0 (default): the registry only */
  isRemote: qBool,
  page,
  limit,
});
export type LeadCompanyQuery = z.infer<typeof leadCompanyQuery>;

/** Answer of the searches: the page, the count, and what the provider said when it failed. */
export const leadSearchResultSchema = z.object({
  list: z.array(leadCompanySchema),
  count: z.number(),
  /** '' or a Chinese message: the provider failed, the registry's results still show */
  providerError: z.string(),
});
export type LeadSearchResult = z.infer<typeof leadSearchResultSchema>;

/** The filters of 找线索 (and of an industry template). Capital in 万元, years as 4 digits. */
export const leadFiltersSchema = z.object({
  /** a province, city or district code of packages/regions */
  regionCode: z.number().int().positive().max(999_999_999).optional(),
  /** 门类 letter ('I') or 大类 code ('65') */
  industryCode: z
    .string()
    .regex(/^([A-T]|\d{2})$/, '行业代码不正确')
    .optional(),
  capitalMin: z.number().int().min(0).max(100_000_000).optional(),
  capitalMax: z.number().int().min(0).max(100_000_000).optional(),
  foundedFrom: z.number().int().min(1900).max(2100).optional(),
  foundedTo: z.number().int().min(1900).max(2100).optional(),
  /** LEAD_STATUS values */
  statuses: z.array(z.number().int().min(1).max(3)).max(3).optional(),
  hasPhone: z.boolean().optional(),
  hasMobile: z.boolean().optional(),
  /** a word in the business scope (经营范围) */
  scopeKeyword: zText().trim().max(LEAD_LIMITS.keyword).optional(),
  /** a word in the name */
  keyword: zText().trim().max(LEAD_LIMITS.keyword).optional(),
});
export type LeadFilters = z.infer<typeof leadFiltersSchema>;

const csvNumbers = z.preprocess(
  (v) => (v === '' || v === undefined || v === null ? undefined : String(v).split(',').map(Number)),
  z.array(z.number().int().min(1).max(3)).max(3).optional(),
);
const qIndustry = z.preprocess(
  (v) => (v === '' || v === undefined || v === null ? undefined : v),
  z
    .string()
    .regex(/^([A-T]|\d{2})$/, '行业代码不正确')
    .optional(),
);
const qText = z.preprocess((v) => (v === '' || v === undefined || v === null ? undefined : v), keyword.optional());

/** The filters as query-string parameters (statuses comma separated: `statuses=1,3`). */
const leadFiltersQuery = z.object({
  regionCode: qNum,
  industryCode: qIndustry,
  capitalMin: qNum,
  capitalMax: qNum,
  foundedFrom: qNum,
  foundedTo: qNum,
  statuses: csvNumbers,
  hasPhone: qBool,
  hasMobile: qBool,
  scopeKeyword: qText,
  keyword: qText,
});

/** The order and page of a company search (找线索, and a template run from 行业模板). */
const leadSortAndPage = {
  orderBy: z.enum(['foundedOn', 'capital']).default('foundedOn'),
  orderSort: z.enum(['asc', 'desc']).default('desc'),
  page,
  limit,
};

/** GET kqhk/advanced: 找线索. Sort by founding date or capital. */
export const leadAdvancedQuery = leadFiltersQuery.extend(leadSortAndPage);
export type LeadAdvancedQuery = z.infer<typeof leadAdvancedQuery>;

/**
 * GET kqhk/map: companies within `radiusKm` of (lat, lng), or inside `polygon` (a JSON text
 * `[[lng,lat],…]`, 3–100 corners, WGS-84), with the advanced filters. More than
 * LEAD_LIMITS.mapClusterAbove points come back as grid clusters.
 */
export const leadMapQuery = leadFiltersQuery.extend({
  lat: z.coerce.number().min(-90).max(90).optional(),
  lng: z.coerce.number().min(-180).max(180).optional(),
  radiusKm: z.coerce
    .number()
    .positive('半径必须大于0')
    .max(LEAD_LIMITS.mapMaxRadiusKm, `半径最大${LEAD_LIMITS.mapMaxRadiusKm}公里`)
    .optional(),
  polygon: z.string().max(8000).optional(),
});
export type LeadMapQuery = z.infer<typeof leadMapQuery>;

export const leadMapPointSchema = z.object({
  id: z.number(),
  name: z.string(),
  status: z.number(),
  lat: z.number(),
  lng: z.number(),
  /** km from the centre (radius search); 0 for a polygon search */
  distanceKm: z.number(),
});
export const leadMapClusterSchema = z.object({ lat: z.number(), lng: z.number(), count: z.number() });
export const leadMapResultSchema = z.object({
  /** companies matched in the area */
  count: z.number(),
  /** true: `clusters` holds the answer and `points` is empty */
  isClustered: z.boolean(),
  points: z.array(leadMapPointSchema),
  clusters: z.array(leadMapClusterSchema),
});
export type LeadMapResult = z.infer<typeof leadMapResultSchema>;

/** GET kqhk/company/info ?id: the company card. */
export const leadInfoQuery = z.object({ id: qId() });
/** A customer of the caller's company that the lead already is (say which exists and whose). */
export const leadExistingCustomerSchema = z.object({
  cmCtid: z.number(),
  name: z.string(),
  /** 'creditCode' | 'phone' | 'name' */
  matchedBy: z.string(),
  /** 'private' (某人的客户) | 'pool' (公海) */
  place: z.string(),
  /** the owner's name, or the pool's name; '' when the caller may not see the customer */
  ownerName: z.string(),
  /** false: out of the caller's data scope; name and owner are all he learns */
  isVisible: z.boolean(),
  /** the matched number as the caller may see it (masked by the customer-access policy) */
  phone: z.string(),
});
export type LeadExistingCustomer = z.infer<typeof leadExistingCustomerSchema>;
export const leadInfoSchema = z.object({
  company: leadCompanySchema,
  existing: z.array(leadExistingCustomerSchema),
  /** customers already made from this registry record by the caller's company */
  convertedCustomerIds: z.array(z.number()),
});
export type LeadInfo = z.infer<typeof leadInfoSchema>;

// ---------- industry templates ----------

export const leadTemplateSchema = z.object({
  id: z.number(),
  name: z.string(),
  filters: leadFiltersSchema,
  /** true: a starter template every company has (read-only) */
  isStarter: z.boolean(),
  createTime: z.string(),
});
export type LeadTemplate = z.infer<typeof leadTemplateSchema>;
/** GET kqhk/industry: the templates (starter + own); with `runId` it runs that template instead. */
export const leadIndustryQuery = z.object({
  /** run this template: answers its search page (as kqhk/advanced) in `result` */
  runId: z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), zId().optional()),
  ...leadSortAndPage,
});
export type LeadIndustryQuery = z.infer<typeof leadIndustryQuery>;
export const leadIndustryResultSchema = z.object({
  templates: z.array(leadTemplateSchema),
  /** the run template's results (null when none was run) */
  result: leadSearchResultSchema.nullable(),
});
export const leadTemplateCreateBody = z.object({
  name: zText().trim().min(1, '请输入模板名称').max(LEAD_LIMITS.templateName, `模板名称最多${LEAD_LIMITS.templateName}个字符`),
  filters: leadFiltersSchema,
});
export type LeadTemplateCreateBody = z.infer<typeof leadTemplateCreateBody>;
export const leadTemplateEditBody = leadTemplateCreateBody.extend({ id: zId() });
export type LeadTemplateEditBody = z.infer<typeof leadTemplateEditBody>;
export const leadIdBody = z.object({ id: zId() });
