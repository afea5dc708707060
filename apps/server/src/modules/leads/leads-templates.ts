/** Industry templates (行业模板): saved filters, the company's own and a read-only starter set; one click runs one. */
import {
  LEAD_LIMITS,
  type LeadFilters,
  type LeadIndustryQuery,
  type LeadTemplate,
  type LeadTemplateCreateBody,
  type LeadTemplateEditBody,
  leadFiltersSchema,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import * as data from './leads-data.repo';
import type { LeadsEnv } from './leads-provider.service';
import { checkFilters, searchAdvanced } from './leads-search';

/** The starter set every company sees (seeded once at startup). */
export const STARTER_TEMPLATES: { name: string; filters: LeadFilters }[] = [
  {
    name: '广东·软件和信息技术服务业·注册资本≥100万',
    filters: { regionCode: 440000, industryCode: '65', capitalMin: 100, statuses: [1] },
  },
  { name: '北京·互联网和相关服务', filters: { regionCode: 110000, industryCode: '64', statuses: [1] } },
  { name: '上海·批发业·有电话', filters: { regionCode: 310000, industryCode: '51', statuses: [1], hasPhone: true } },
  { name: '浙江·制造业·成立5年以上', filters: { regionCode: 330000, industryCode: 'C', foundedTo: 2020, statuses: [1] } },
  { name: '深圳·建筑装饰·有手机', filters: { regionCode: 440300, industryCode: '50', statuses: [1], hasMobile: true } },
  { name: '江苏·商务服务业·注册资本≥500万', filters: { regionCode: 320000, industryCode: '72', capitalMin: 500, statuses: [1] } },
];

export const seedStarterTemplates = (db: DbOrTx) => data.ensureStarterTemplates(db, STARTER_TEMPLATES);

const toTemplate = (row: data.TemplateRow): LeadTemplate => ({
  id: row.id,
  name: row.name,
  filters: leadFiltersSchema.parse(row.filters),
  isStarter: row.tenantId === null,
  createTime: formatDateTime(row.createdAt),
});

/** kqhk/industry: the templates, and the results of one when `runId` is given. */
export const industryTemplates = async (env: LeadsEnv, actor: Actor, q: LeadIndustryQuery) => {
  const templates = (await data.listTemplates(env.db, actor.tenantId)).map(toTemplate);
  if (!q.runId) return { templates, result: null };
  const tpl = templates.find((t) => t.id === q.runId);
  if (!tpl) throw new AppError('LEAD_TEMPLATE_NOT_FOUND');
  const result = await searchAdvanced(env, actor, {
    ...tpl.filters,
    orderBy: q.orderBy,
    orderSort: q.orderSort,
    page: q.page,
    limit: q.limit,
  });
  return { templates, result };
};

const checkName = async (db: Db, actor: Actor, name: string, exceptId: number) => {
  const same = await data.findTemplateByName(db, actor.tenantId, name);
  if (same && same.id !== exceptId) throw new AppError('LEAD_TEMPLATE_NAME_TAKEN');
};

export const createTemplate = async (db: Db, actor: Actor, body: LeadTemplateCreateBody) => {
  checkFilters(body.filters);
  if ((await data.countOwnTemplates(db, actor.tenantId)) >= LEAD_LIMITS.maxTemplates) throw new AppError('LEAD_TEMPLATE_LIMIT');
  await checkName(db, actor, body.name, 0);
  return data.insertTemplate(db, { tenantId: actor.tenantId, name: body.name, filters: body.filters, staffId: actor.staffId });
};

const requireOwn = async (db: Db, actor: Actor, id: number) => {
  const row = await data.findTemplate(db, actor.tenantId, id);
  if (!row) throw new AppError('LEAD_TEMPLATE_NOT_FOUND');
  if (row.tenantId === null) throw new AppError('LEAD_TEMPLATE_STARTER_READONLY');
  return row;
};

export const editTemplate = async (db: Db, actor: Actor, body: LeadTemplateEditBody) => {
  checkFilters(body.filters);
  await requireOwn(db, actor, body.id);
  await checkName(db, actor, body.name, body.id);
  await data.updateTemplate(db, actor.tenantId, body.id, { name: body.name, filters: body.filters });
};

export const deleteTemplate = async (db: Db, actor: Actor, id: number) => {
  await requireOwn(db, actor, id);
  await data.deleteTemplate(db, actor.tenantId, id);
};
