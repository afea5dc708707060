import { INDUSTRY_TREE, industryLabel, LEAD_STATUS_LABEL, type LeadFilters } from '@crm/contracts';
import { regionPath } from '@crm/regions';

/** The filter form's fields (what antd's Form holds); `toLeadFilters` turns them into the API's filters. */
export type LeadFilterValues = {
  region?: number[];
  industryCode?: string;
  capitalMin?: number | null;
  capitalMax?: number | null;
  foundedFrom?: number | null;
  foundedTo?: number | null;
  statuses?: number[];
  contact?: ('phone' | 'mobile')[];
  scopeKeyword?: string;
  keyword?: string;
};

const num = (v: number | null | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const text = (v: string | undefined) => v?.trim() || undefined;

/** Form values → filters; empty fields are left out. */
export const toLeadFilters = (v: LeadFilterValues): LeadFilters => {
  const f: LeadFilters = {
    regionCode: v.region && v.region.length > 0 ? v.region[v.region.length - 1] : undefined,
    industryCode: v.industryCode || undefined,
    capitalMin: num(v.capitalMin),
    capitalMax: num(v.capitalMax),
    foundedFrom: num(v.foundedFrom),
    foundedTo: num(v.foundedTo),
    statuses: v.statuses && v.statuses.length > 0 ? [...v.statuses].sort() : undefined,
    hasPhone: v.contact?.includes('phone') || undefined,
    hasMobile: v.contact?.includes('mobile') || undefined,
    scopeKeyword: text(v.scopeKeyword),
    keyword: text(v.keyword),
  };
  return Object.fromEntries(Object.entries(f).filter(([, x]) => x !== undefined)) as LeadFilters;
};

/** Filters (of a template) → form values. */
export const toFilterValues = (f: LeadFilters): LeadFilterValues => ({
  region: f.regionCode ? regionPath(f.regionCode).map((r) => r.value) : undefined,
  industryCode: f.industryCode,
  capitalMin: f.capitalMin,
  capitalMax: f.capitalMax,
  foundedFrom: f.foundedFrom,
  foundedTo: f.foundedTo,
  statuses: f.statuses,
  contact: [...(f.hasPhone ? ['phone' as const] : []), ...(f.hasMobile ? ['mobile' as const] : [])],
  scopeKeyword: f.scopeKeyword,
  keyword: f.keyword,
});

/** The one problem of a range, or null: 最小值不能大于最大值. */
export const rangeProblem = (v: LeadFilterValues): string | null => {
  const min = num(v.capitalMin);
  const max = num(v.capitalMax);
  if (min !== undefined && max !== undefined && min > max) return '注册资本的最小值不能大于最大值';
  const from = num(v.foundedFrom);
  const to = num(v.foundedTo);
  if (from !== undefined && to !== undefined && from > to) return '成立年份的起始年不能晚于结束年';
  return null;
};

/** The filters in words, for a template card: 广东省 · 软件和信息技术服务业 · 注册资本 ≥ 100万. */
export const describeFilters = (f: LeadFilters): string[] => {
  const parts: string[] = [];
  if (f.regionCode)
    parts.push(
      regionPath(f.regionCode)
        .map((r) => r.label)
        .filter((label, i, all) => all.indexOf(label) === i)
        .join(' / ') || `地区 ${f.regionCode}`,
    );
  if (f.industryCode) parts.push(industryLabel(f.industryCode) || `行业 ${f.industryCode}`);
  if (f.capitalMin !== undefined && f.capitalMax !== undefined) parts.push(`注册资本 ${f.capitalMin}–${f.capitalMax}万`);
  else if (f.capitalMin !== undefined) parts.push(`注册资本 ≥ ${f.capitalMin}万`);
  else if (f.capitalMax !== undefined) parts.push(`注册资本 ≤ ${f.capitalMax}万`);
  if (f.foundedFrom !== undefined && f.foundedTo !== undefined) parts.push(`成立于 ${f.foundedFrom}–${f.foundedTo}年`);
  else if (f.foundedFrom !== undefined) parts.push(`${f.foundedFrom}年及以后成立`);
  else if (f.foundedTo !== undefined) parts.push(`${f.foundedTo}年及以前成立`);
  if (f.statuses?.length) parts.push(f.statuses.map((s) => LEAD_STATUS_LABEL[s]).join('、'));
  if (f.hasPhone) parts.push('有电话');
  if (f.hasMobile) parts.push('有手机');
  if (f.scopeKeyword) parts.push(`经营范围含「${f.scopeKeyword}」`);
  if (f.keyword) parts.push(`名称含「${f.keyword}」`);
  return parts;
};

/** The GB/T 4754 tree as a TreeSelect's data: 门类 and its 大类 are both choosable. */
export const INDUSTRY_OPTIONS = INDUSTRY_TREE.map((s) => ({
  value: s.code,
  title: `${s.code} ${s.label}`,
  children: s.children.map((d) => ({ value: d.code, title: `${d.code} ${d.label}` })),
}));
