import {
  envelope,
  idBody,
  jobIdEnvelope,
  listOf,
  okEnvelope,
  planCreateBody,
  planListQuery,
  planRowSchema,
  planUpdateBody,
  receiptCreateBody,
  receiptListQuery,
  receiptRowSchema,
  receiptSettingBody,
  receiptSettingSchema,
  receiptStatsQuery,
  receiptStatsSchema,
  receiptSummaryQuery,
  receiptSummarySchema,
  receiptUpdateBody,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import { APPROVAL_MENU } from '../approvals/approval-templates.service';
import * as service from './receipts.service';
import { startReceiptExport, startReceiptListExport } from './receipts-export';
import * as lists from './receipts-lists';
import * as settings from './receipts-settings';
import { receiptStats } from './receipts-stats';
import * as summary from './receipts-summary';

const tags = ['receipts'];
const P = '/api/frontend/receipt';

/** Receipt plans and receipts (issue 14): paths of the API list under /api/frontend/receipt/. */
export const receiptsRoutes: FastifyPluginAsyncZod = async (app) => {
  const bus = () => app.calls?.bus;
  app.post(
    `${P}/plancreate`,
    {
      schema: { tags, summary: '新建回款计划', body: planCreateBody, response: { 200: envelope(z.object({ id: z.number() })) } },
    },
    async (req) => ok({ id: await service.createPlan(app.db, req.actor, req.body) }, '添加成功！'),
  );
  app.post(
    `${P}/planupdate`,
    { schema: { tags, summary: '编辑回款计划', body: planUpdateBody, response: { 200: okEnvelope } } },
    async (req) => {
      await service.updatePlan(app.db, req.actor, req.body);
      return ok(null, '更新成功！');
    },
  );
  app.post(
    `${P}/plandel`,
    { schema: { tags, summary: '删除回款计划', body: idBody, response: { 200: okEnvelope } } },
    async (req) => {
      await service.deletePlan(app.db, req.actor, req.body.id);
      return ok(null, '删除成功');
    },
  );
  app.get(
    `${P}/planlist`,
    {
      schema: {
        tags,
        summary: '回款计划列表（订单、客户或回款管理）',
        querystring: planListQuery,
        response: { 200: envelope(listOf(planRowSchema)) },
      },
    },
    async (req) => ok(await lists.listPlans(app.db, req.actor, req.query)),
  );
  app.post(
    `${P}/export`,
    { schema: { tags, summary: '导出回款计划（后台任务，返回 jobId）', body: planListQuery, response: { 200: jobIdEnvelope } } },
    async (req) => ok({ jobId: await startReceiptExport(app.db, req.actor, req.body) }, '导出任务已开始'),
  );
  app.post(
    `${P}/listexport`,
    {
      schema: { tags, summary: '导出回款记录（后台任务，返回 jobId）', body: receiptListQuery, response: { 200: jobIdEnvelope } },
    },
    async (req) => ok({ jobId: await startReceiptListExport(app.db, req.actor, req.body) }, '导出任务已开始'),
  );
  app.post(
    `${P}/create`,
    {
      schema: {
        tags,
        summary: '新建回款（公司设置了回款审批流程时发起审批，通过后计入）',
        body: receiptCreateBody,
        response: { 200: envelope(z.object({ id: z.number(), verify_status: z.number() })) },
      },
    },
    async (req) => ok(await service.createReceipt(app.db, bus(), req.actor, req.body), '添加成功！'),
  );
  app.post(
    `${P}/update`,
    { schema: { tags, summary: '编辑回款', body: receiptUpdateBody, response: { 200: okEnvelope } } },
    async (req) => {
      await service.updateReceipt(app.db, req.actor, req.body);
      return ok(null, '更新成功！');
    },
  );
  app.post(`${P}/del`, { schema: { tags, summary: '删除回款', body: idBody, response: { 200: okEnvelope } } }, async (req) => {
    await service.deleteReceipt(app.db, req.actor, req.body.id);
    return ok(null, '删除成功');
  });
  app.get(
    `${P}/list`,
    {
      schema: {
        tags,
        summary: '回款记录列表',
        querystring: receiptListQuery,
        response: { 200: envelope(listOf(receiptRowSchema)) },
      },
    },
    async (req) => ok(await lists.listReceipts(app.db, req.actor, req.query)),
  );
  app.get(
    `${P}/summary`,
    {
      schema: {
        tags,
        summary: '回款汇总（客户或订单）',
        querystring: receiptSummaryQuery,
        response: { 200: envelope(receiptSummarySchema) },
      },
    },
    async (req) => ok(await summary.receiptSummary(app.db, req.actor, req.query)),
  );
  app.get(
    `${P}/stats`,
    {
      schema: {
        tags,
        summary: '回款管理图表（按月、按员工回款，未来30天应回款）',
        querystring: receiptStatsQuery,
        response: { 200: envelope(receiptStatsSchema) },
      },
    },
    async (req) => ok(await receiptStats(app.db, req.actor, req.query)),
  );
  app.get(
    `${P}/setting`,
    { schema: { tags, summary: '回款设置', response: { 200: envelope(receiptSettingSchema) } } },
    async (req) => ok(await settings.receiptSettings(app.db, req.actor.tenantId)),
  );
  app.post(
    `${P}/settingsave`,
    {
      schema: {
        tags,
        summary: '保存回款设置（提醒天数、回款审批流程）',
        body: receiptSettingBody,
        response: { 200: okEnvelope },
      },
      config: { menu: APPROVAL_MENU },
    },
    async (req) => {
      await settings.saveReceiptSettings(app.db, req.actor, req.body);
      return ok(null, '操作成功');
    },
  );
};
