import {
  envelope,
  idEnvelope,
  jobIdEnvelope,
  leadAdvancedQuery,
  leadBatchCreateBody,
  leadBatchExportBody,
  leadBatchQuery,
  leadBatchResultSchema,
  leadCheckResultSchema,
  leadCompanyQuery,
  leadConvertBody,
  leadConvertResultSchema,
  leadIdBody,
  leadIdsBody,
  leadIndustryQuery,
  leadIndustryResultSchema,
  leadInfoQuery,
  leadInfoSchema,
  leadMapQuery,
  leadMapResultSchema,
  leadOwnImportBody,
  leadOwnImportResultSchema,
  leadOwnListSchema,
  leadSearchResultSchema,
  leadSettingsBody,
  leadSettingsSchema,
  leadTaskAddBody,
  leadTaskAddResultSchema,
  leadTemplateCreateBody,
  leadTemplateEditBody,
  listOf,
  okEnvelope,
  pageQuery,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import * as batch from './leads-batch';
import * as convert from './leads-convert';
import * as ownLists from './leads-own-lists';
import { toLeadCompany } from './leads-presenter';
import type { ProviderHandle } from './leads-provider.service';
import * as search from './leads-search';
import * as settings from './leads-settings';
import { addLeadsToTask } from './leads-tasks';
import * as templates from './leads-templates';

/** The five pages of 精线索 (SPEC §2): each search is guarded by its own menu, the shared calls by any of them. */
const MENU = {
  company: '/jingxiansuo/company',
  industry: '/jingxiansuo/industry',
  advanced: '/jingxiansuo/advanced',
  map: '/jingxiansuo/map',
  batch: '/jingxiansuo/batchCompany',
} as const;
const ANY = Object.values(MENU);
/**
 * 拓客设置 (menu 116): the provider key, quota, field mapping and the company's own lists. An
 * administrator's setting: only a role holding 116 (itself or through the 精线索 group) reaches
 * these routes; the five search pages do not open them.
 */
const SETTINGS_MENU = '/jingxiansuo/settings';
const tags = ['leads'];
const P = '/api/frontend/customer/kqhk';

/** Lead search (拓客, issue 28): SPEC §7 kqhk/* and the calls around them. */
export const leadsRoutes =
  (provider: ProviderHandle): FastifyPluginAsyncZod =>
  async (app) => {
    const env = () => ({ db: app.db, provider });

    app.get(
      `${P}/company`,
      {
        schema: {
          tags,
          summary: '查企业（名称模糊查询；isRemote=1 同时查询数据服务商）',
          querystring: leadCompanyQuery,
          response: { 200: envelope(leadSearchResultSchema) },
        },
        config: { menu: MENU.company },
      },
      async (req) => ok(await search.searchCompanies(env(), req.actor, req.query)),
    );
    app.get(
      `${P}/company/info`,
      {
        schema: {
          tags,
          summary: '企业详情卡片（含是否已是本公司客户、归属）',
          querystring: leadInfoQuery,
          response: { 200: envelope(leadInfoSchema) },
        },
        config: { menu: ANY },
      },
      async (req) => {
        const { row, error } = await search.leadWithDetails(env(), req.actor, req.query.id);
        const [existing, links] = await Promise.all([
          convert.existingFor(app.db, req.actor, [row]),
          convert.convertedCustomerIds(app.db, req.actor, row.id),
        ]);
        return ok(
          { company: toLeadCompany(row), existing: existing.get(row.id) ?? [], convertedCustomerIds: links },
          error || '操作成功',
        );
      },
    );
    app.get(
      `${P}/industry`,
      {
        schema: {
          tags,
          summary: '行业模板（runId：运行该模板）',
          querystring: leadIndustryQuery,
          response: { 200: envelope(leadIndustryResultSchema) },
        },
        config: { menu: MENU.industry },
      },
      async (req) => ok(await templates.industryTemplates(env(), req.actor, req.query)),
    );
    app.post(
      `${P}/industry/create`,
      {
        schema: { tags, summary: '新建行业模板', body: leadTemplateCreateBody, response: { 200: idEnvelope('id') } },
        config: { menu: ANY },
      },
      async (req) => ok({ id: await templates.createTemplate(app.db, req.actor, req.body) }, '保存成功'),
    );
    app.post(
      `${P}/industry/edit`,
      {
        schema: { tags, summary: '编辑行业模板', body: leadTemplateEditBody, response: { 200: okEnvelope } },
        config: { menu: ANY },
      },
      async (req) => {
        await templates.editTemplate(app.db, req.actor, req.body);
        return ok(null, '保存成功');
      },
    );
    app.post(
      `${P}/industry/del`,
      { schema: { tags, summary: '删除行业模板', body: leadIdBody, response: { 200: okEnvelope } }, config: { menu: ANY } },
      async (req) => {
        await templates.deleteTemplate(app.db, req.actor, req.body.id);
        return ok(null, '删除成功');
      },
    );
    app.get(
      `${P}/advanced`,
      {
        schema: {
          tags,
          summary: '找线索（高级筛选）',
          querystring: leadAdvancedQuery,
          response: { 200: envelope(leadSearchResultSchema) },
        },
        config: { menu: MENU.advanced },
      },
      async (req) => ok(await search.searchAdvanced(env(), req.actor, req.query)),
    );
    app.get(
      `${P}/map`,
      {
        schema: {
          tags,
          summary: '地图搜索（半径或多边形）',
          querystring: leadMapQuery,
          response: { 200: envelope(leadMapResultSchema) },
        },
        config: { menu: MENU.map },
      },
      async (req) => ok(await search.searchMap(env(), req.actor, req.query)),
    );
    app.post(
      `${P}/batch/company`,
      {
        schema: {
          tags,
          summary: '批量查企业（粘贴或上传 .xlsx，最多10000个）',
          body: leadBatchCreateBody,
          response: { 200: jobIdEnvelope },
        },
        config: { menu: MENU.batch },
      },
      async (req) => ok({ jobId: await batch.startBatch(app.db, app.config.dataDir, req.actor, req.body) }, '已开始查询'),
    );
    app.get(
      `${P}/batch/company`,
      {
        schema: {
          tags,
          summary: '批量查企业的结果',
          querystring: leadBatchQuery,
          response: { 200: envelope(leadBatchResultSchema) },
        },
        config: { menu: MENU.batch },
      },
      async (req) => ok(await batch.batchResult(app.db, req.actor, req.query)),
    );
    app.post(
      `${P}/batch/company/export`,
      {
        schema: { tags, summary: '导出批量查企业的结果', body: leadBatchExportBody, response: { 200: jobIdEnvelope } },
        config: { menu: MENU.batch },
      },
      async (req) => ok({ jobId: await batch.exportBatch(app.db, req.actor, req.body) }, '已开始导出'),
    );
    app.post(
      `${P}/convert/check`,
      {
        schema: {
          tags,
          summary: '转为客户前的查重（信用代码、电话、名称相似）',
          body: leadIdsBody,
          response: { 200: envelope(leadCheckResultSchema) },
        },
        config: { menu: ANY },
      },
      async (req) => ok(await convert.checkLeads(app.db, req.actor, req.body.ids)),
    );
    app.post(
      `${P}/convert`,
      {
        schema: { tags, summary: '转为客户', body: leadConvertBody, response: { 200: envelope(leadConvertResultSchema) } },
        config: { menu: ANY },
      },
      async (req) => {
        const result = await convert.convertLeads(app.db, req.actor, req.body);
        return ok(
          result,
          `已转为客户${result.created.length}家${result.skipped.length > 0 ? `，${result.skipped.length}家未转入` : ''}`,
        );
      },
    );
    app.post(
      `${P}/task/add`,
      {
        schema: {
          tags,
          summary: '加入任务（坐席任务、群呼任务、AI外呼任务）',
          body: leadTaskAddBody,
          response: { 200: envelope(leadTaskAddResultSchema) },
        },
        config: { menu: ANY },
      },
      async (req) => {
        const result = await addLeadsToTask(app.db, req.actor, req.body);
        return ok(result, `已加入任务${result.added}个号码`);
      },
    );
    app.get(
      `${P}/settings`,
      {
        schema: { tags, summary: '拓客设置（密钥只显示后4位）', response: { 200: envelope(leadSettingsSchema) } },
        config: { menu: SETTINGS_MENU },
      },
      async (req) => ok(await settings.getSettings(app.db, req.actor)),
    );
    app.post(
      `${P}/settings/set`,
      {
        schema: { tags, summary: '保存拓客设置（管理员）', body: leadSettingsBody, response: { 200: okEnvelope } },
        config: { menu: SETTINGS_MENU },
      },
      async (req) => {
        await settings.setSettings(app.db, req.actor, req.body);
        return ok(null, '保存成功');
      },
    );
    app.get(
      `${P}/own/list`,
      {
        schema: { tags, summary: '自有名单', querystring: pageQuery, response: { 200: envelope(listOf(leadOwnListSchema)) } },
        config: { menu: SETTINGS_MENU },
      },
      async (req) => ok(await ownLists.ownLists(app.db, req.actor, req.query)),
    );
    app.post(
      `${P}/own/import`,
      {
        schema: {
          tags,
          summary: '导入自有名单（.xlsx）',
          body: leadOwnImportBody,
          response: { 200: envelope(leadOwnImportResultSchema) },
        },
        config: { menu: SETTINGS_MENU },
      },
      async (req) => ok(await ownLists.importOwnList(app.db, app.config.dataDir, req.actor, req.body), '导入成功'),
    );
    app.post(
      `${P}/own/del`,
      {
        schema: { tags, summary: '删除自有名单', body: leadIdBody, response: { 200: okEnvelope } },
        config: { menu: SETTINGS_MENU },
      },
      async (req) => {
        await ownLists.deleteOwnList(app.db, req.actor, req.body.id);
        return ok(null, '删除成功');
      },
    );
  };
