/**
 * Lead search (拓客, issue 28): the company registry, the five searches of SPEC §7
 * (`GET /api/frontend/customer/kqhk/{company,industry,advanced,map,batch/company}`), the company
 * card, industry templates, batch lookup, 转为客户, 加入任务, provider settings and own lists.
 *
 * Registered capital is an integer of 万元 (rounded down; a provider's "100万元人民币" → 100).
 * Coordinates are WGS-84 degrees. Dates are 'YYYY-MM-DD'.
 */
import { z } from 'zod';
import { INT4_MAX, qCode, qId, qNum, zId, zText } from './common';

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

/** A batch row's match: exact (same normalized name or credit code), fuzzy (with a score), not found. */
export const LEAD_MATCH = { exact: 'exact', fuzzy: 'fuzzy', none: 'none' } as const;
export const LEAD_MATCH_LABEL: Record<string, string> = { exact: '精确匹配', fuzzy: '模糊匹配', none: '未找到' };

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

const page = z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), zId().default(1));
const limit = z.preprocess(
  (v) => (v === '' || v === undefined ? LEAD_LIMITS.pageSize : Number(v)),
  z.number().int().min(1).max(LEAD_LIMITS.maxPageSize).default(LEAD_LIMITS.pageSize),
);
const qBool = z.preprocess(
  (v) => (v === '' || v === undefined || v === null ? undefined : v === '1' || v === 1 || v === 'true' || v === true),
  z.boolean().optional(),
);
const keyword = zText().trim().max(LEAD_LIMITS.keyword, `关键词最多${LEAD_LIMITS.keyword}个字符`);

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

/** GET kqhk/advanced: 找线索. Sort by founding date or capital. */
export const leadAdvancedQuery = leadFiltersQuery.extend({
  orderBy: z.enum(['foundedOn', 'capital']).default('foundedOn'),
  orderSort: z.enum(['asc', 'desc']).default('desc'),
  page,
  limit,
});
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
  orderBy: z.enum(['foundedOn', 'capital']).default('foundedOn'),
  orderSort: z.enum(['asc', 'desc']).default('desc'),
  page,
  limit,
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

// ---------- batch lookup ----------

/** POST kqhk/batch/company: names pasted (one a line) or an uploaded .xlsx (first column). */
export const leadBatchCreateBody = z
  .object({
    names: z.array(zText().max(100)).max(LEAD_LIMITS.batchMaxNames, `一次最多查询${LEAD_LIMITS.batchMaxNames}个企业`).optional(),
    /** an .xlsx uploaded through /api/frontend/upload/file: company names in the first column */
    fileId: z.number().int().positive().max(INT4_MAX).optional(),
  })
  .refine((b) => (b.names && b.names.length > 0) || b.fileId, { message: '请粘贴企业名称或上传文件' });
export type LeadBatchCreateBody = z.infer<typeof leadBatchCreateBody>;

export const leadBatchSummarySchema = z.object({
  total: z.number(),
  exact: z.number(),
  fuzzy: z.number(),
  none: z.number(),
});
export type LeadBatchSummary = z.infer<typeof leadBatchSummarySchema>;

/** GET kqhk/batch/company ?jobId: a batch job's rows (and its summary); filter by match. */
export const leadBatchQuery = z.object({
  jobId: z.string().min(8).max(64),
  match: z.enum(['exact', 'fuzzy', 'none']).optional(),
  page,
  limit,
});
export type LeadBatchQuery = z.infer<typeof leadBatchQuery>;
export const leadBatchRowSchema = z.object({
  /** 1-based line of the input */
  row: z.number(),
  input: z.string(),
  /** LEAD_MATCH */
  match: z.string(),
  /** 0–100; 100 for exact */
  score: z.number(),
  company: leadCompanySchema.nullable(),
});
export type LeadBatchRow = z.infer<typeof leadBatchRowSchema>;
export const leadBatchResultSchema = z.object({
  jobId: z.string(),
  /** 'running' | 'done' | 'failed' */
  status: z.string(),
  processed: z.number(),
  summary: leadBatchSummarySchema,
  list: z.array(leadBatchRowSchema),
  count: z.number(),
});
export type LeadBatchResult = z.infer<typeof leadBatchResultSchema>;
/** POST kqhk/batch/company/export {jobId, match?}: an export job (poll GET customer/job). */
export const leadBatchExportBody = z.object({
  jobId: z.string().min(8).max(64),
  match: z.enum(['exact', 'fuzzy', 'none']).optional(),
});

// ---------- into the CRM ----------

/** Where converted customers go: the caller, a staff member, or a pool. */
export const LEAD_ASSIGN = { self: 'self', staff: 'staff', pool: 'pool' } as const;

/** POST kqhk/convert/check {ids}: what each lead already is among the company's customers. */
export const leadIdsBody = z.object({
  ids: z.array(zId()).min(1, '请选择企业').max(LEAD_LIMITS.maxSelect, `一次最多选择${LEAD_LIMITS.maxSelect}家企业`),
});
export type LeadIdsBody = z.infer<typeof leadIdsBody>;
/** A lead not converted: the customers it already is, or (existing empty) why it could not be made a customer. */
export const leadDuplicateSchema = z.object({
  id: z.number(),
  name: z.string(),
  existing: z.array(leadExistingCustomerSchema),
  reason: z.string(),
});
export const leadCheckResultSchema = z.object({
  list: z.array(leadDuplicateSchema),
  /** the caller's 转为客户 left today */
  quotaLeft: z.number(),
});

/** POST kqhk/convert: 转为客户. Duplicates are skipped (and named); the rest become customers. */
export const leadConvertBody = leadIdsBody.extend({
  assignTo: z.enum(['self', 'staff', 'pool']).default('self'),
  /** assignTo 'staff': the receiving staff member */
  cmSid: zId().optional(),
  /** assignTo 'pool': the pool */
  cmHsid: zId().optional(),
});
export type LeadConvertBody = z.infer<typeof leadConvertBody>;
export const leadConvertResultSchema = z.object({
  created: z.array(z.object({ id: z.number(), cmCtid: z.number(), name: z.string() })),
  skipped: z.array(leadDuplicateSchema),
  /** the caller's conversions left today after this call */
  quotaLeft: z.number(),
});
export type LeadConvertResult = z.infer<typeof leadConvertResultSchema>;

/** POST kqhk/task/add: selected leads' numbers into a seat task, a group call or an AI task. */
export const leadTaskAddBody = leadIdsBody.extend({
  taskKind: z.enum(['seat', 'group', 'ai']),
  taskId: zId(),
});
export type LeadTaskAddBody = z.infer<typeof leadTaskAddBody>;
export const leadTaskAddResultSchema = z.object({ added: z.number(), noPhone: z.number(), skipped: z.number() });

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
