import {
  billingAlertsSchema,
  billingCallCostSchema,
  billingCallCostsQuery,
  billingChargeRowSchema,
  billingChartSchema,
  billingFilterQuery,
  billingListQuery,
  billingOverviewSchema,
  billingRechargeRowSchema,
  billingSettingsBody,
  billingSettingsSchema,
  billingSummaryQuery,
  billingSummarySchema,
  envelope,
  jobIdEnvelope,
  listOf,
  okEnvelope,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { startBillingExport } from './billing-export';
import * as reports from './billing-reports';
import * as settings from './billing-settings';

const tags = ['billing'];
const P = '/api/frontend/billing';
/** SPEC §2 消费明细: every route is the page's (menu 142); the data scope is decided per viewer (billing-reports scopeOf). */
const config = { menu: '/account/expensedetails' };

/** The 消费明细 page's API (issue 27); the platform operator's is billing-operator.routes.ts. */
export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `${P}/overview`,
    {
      config,
      schema: {
        tags,
        summary: '余额卡片：余额、本月消费、今日消费、预计可用天数',
        response: { 200: envelope(billingOverviewSchema) },
      },
    },
    async (req) => ok(await reports.overview(app.db, req.actor)),
  );
  app.get(
    `${P}/chart`,
    {
      config,
      schema: {
        tags,
        summary: '按日按类型的消费（图表）',
        querystring: billingFilterQuery,
        response: { 200: envelope(billingChartSchema) },
      },
    },
    async (req) => ok(await reports.chart(app.db, req.actor, req.query)),
  );
  app.get(
    `${P}/charges`,
    {
      config,
      schema: {
        tags,
        summary: '消费明细',
        querystring: billingListQuery,
        response: { 200: envelope(listOf(billingChargeRowSchema)) },
      },
    },
    async (req) => ok(await reports.charges(app.db, req.actor, req.query)),
  );
  app.get(
    `${P}/recharges`,
    {
      config,
      schema: {
        tags,
        summary: '充值记录',
        querystring: billingListQuery,
        response: { 200: envelope(listOf(billingRechargeRowSchema)) },
      },
    },
    async (req) => ok(await reports.recharges(app.db, req.actor, req.query)),
  );
  app.get(
    `${P}/summary`,
    {
      config,
      schema: {
        tags,
        summary: '汇总（按员工/日期/线路/类型）',
        querystring: billingSummaryQuery,
        response: { 200: envelope(billingSummarySchema) },
      },
    },
    async (req) => ok(await reports.summary(app.db, req.actor, req.query)),
  );
  app.get(
    `${P}/callcosts`,
    {
      config,
      schema: {
        tags,
        summary: '通话的计费时长与费用',
        querystring: billingCallCostsQuery,
        response: { 200: envelope(z.array(billingCallCostSchema)) },
      },
    },
    async (req) => ok(await reports.callCosts(app.db, req.actor, req.query.uuids)),
  );
  app.post(
    `${P}/export`,
    {
      config,
      schema: {
        tags,
        summary: '导出消费明细（后台任务，返回 jobId）',
        body: billingFilterQuery,
        response: { 200: jobIdEnvelope },
      },
    },
    async (req) => ok({ jobId: await startBillingExport(app.db, req.actor, req.body) }, '导出任务已开始'),
  );
  app.get(
    `${P}/settings`,
    { config, schema: { tags, summary: '余额提醒设置', response: { 200: envelope(billingSettingsSchema) } } },
    async (req) => ok(await settings.readSettings(app.db, req.actor)),
  );
  app.post(
    `${P}/settings`,
    { config, schema: { tags, summary: '保存余额提醒设置', body: billingSettingsBody, response: { 200: okEnvelope } } },
    async (req) => {
      await settings.saveSettings(app.db, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
  app.get(
    `${P}/alerts`,
    { config, schema: { tags, summary: '余额不足提醒（页头）', response: { 200: envelope(billingAlertsSchema) } } },
    async (req) => ok(await settings.readAlerts(app.db, req.actor)),
  );
  app.post(
    `${P}/alertsread`,
    { config, schema: { tags, summary: '余额提醒标为已读', response: { 200: okEnvelope } } },
    async (req) => {
      await settings.readAllAlerts(app.db, req.actor);
      return ok(null, '操作成功');
    },
  );
};
