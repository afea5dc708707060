import {
  envelope,
  idBody,
  jobIdEnvelope,
  listOf,
  okEnvelope,
  qId,
  workOrderCommentBody,
  workOrderCountsSchema,
  workOrderCreateBody,
  workOrderDetailSchema,
  workOrderEditBody,
  workOrderListQuery,
  workOrderRowSchema,
  workOrderTransferBody,
  workOrderTransitionBody,
  workTypeSaveBody,
  workTypeSchema,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import * as service from './workorders.service';
import { startWorkOrderExport } from './workorders-export';
import * as lists from './workorders-lists';
import * as types from './workorders-types';

const tags = ['workorders'];
const P = '/api/frontend/workorder';
const settings = { menu: types.WORK_SETTINGS_MENU };

/** Work orders (issue 14): types (工单设置), the work orders of a customer and 工单管理, their thread. */
export const workOrdersRoutes: FastifyPluginAsyncZod = async (app) => {
  const bus = () => app.calls?.bus;
  app.get(
    `${P}/typelist`,
    { schema: { tags, summary: '工单类型（含阶段）', response: { 200: envelope(z.object({ list: z.array(workTypeSchema) })) } } },
    async (req) => ok({ list: await types.listTypes(app.db, req.actor) }),
  );
  app.post(
    `${P}/typesave`,
    {
      schema: {
        tags,
        summary: '新建或编辑工单类型',
        body: workTypeSaveBody,
        response: { 200: envelope(z.object({ id: z.number() })) },
      },
      config: settings,
    },
    async (req) => ok({ id: await types.saveType(app.db, req.actor, req.body) }, '保存成功'),
  );
  app.post(
    `${P}/typedel`,
    { schema: { tags, summary: '删除工单类型', body: idBody, response: { 200: okEnvelope } }, config: settings },
    async (req) => {
      await types.deleteType(app.db, req.actor, req.body.id);
      return ok(null, '删除成功');
    },
  );
  app.post(
    `${P}/create`,
    {
      schema: {
        tags,
        summary: '新建工单（客户详情）',
        body: workOrderCreateBody,
        response: { 200: envelope(z.object({ id: z.number() })) },
      },
    },
    async (req) => ok({ id: await service.createWorkOrder(app.db, bus(), req.actor, req.body) }, '添加成功'),
  );
  app.post(
    `${P}/edit`,
    { schema: { tags, summary: '编辑工单', body: workOrderEditBody, response: { 200: okEnvelope } } },
    async (req) => {
      await service.editWorkOrder(app.db, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
  app.post(
    `${P}/transition`,
    {
      schema: {
        tags,
        summary: '推进或回退工单阶段（处理人）',
        body: workOrderTransitionBody,
        response: { 200: envelope(z.object({ status: z.number(), node_id: z.number(), node_name: z.string() })) },
      },
    },
    async (req) => ok(await service.transitionWorkOrder(app.db, req.actor, req.body), '操作成功'),
  );
  app.post(
    `${P}/comment`,
    { schema: { tags, summary: '评论工单（文字或附件）', body: workOrderCommentBody, response: { 200: okEnvelope } } },
    async (req) => {
      await service.commentWorkOrder(app.db, req.actor, req.body);
      return ok(null, '评论成功');
    },
  );
  app.post(
    `${P}/transfer`,
    { schema: { tags, summary: '转交工单', body: workOrderTransferBody, response: { 200: okEnvelope } } },
    async (req) => {
      await service.transferWorkOrder(app.db, bus(), req.actor, req.body);
      return ok(null, '转交成功');
    },
  );
  app.get(
    `${P}/list`,
    {
      schema: {
        tags,
        summary: '工单列表（客户或工单管理）',
        querystring: workOrderListQuery,
        response: { 200: envelope(listOf(workOrderRowSchema)) },
      },
    },
    async (req) => ok(await lists.listWorkOrders(app.db, req.actor, req.query)),
  );
  app.get(
    `${P}/detail`,
    {
      schema: {
        tags,
        summary: '工单详情与处理记录',
        querystring: z.object({ id: qId() }),
        response: { 200: envelope(workOrderDetailSchema) },
      },
    },
    async (req) => ok(await lists.workOrderDetail(app.db, req.actor, req.query.id)),
  );
  app.get(
    `${P}/counts`,
    { schema: { tags, summary: '工单管理各标签的处理中工单数', response: { 200: envelope(workOrderCountsSchema) } } },
    async (req) => ok(await lists.workOrderCounts(app.db, req.actor)),
  );
  app.post(
    `${P}/export`,
    {
      schema: { tags, summary: '导出工单（后台任务，返回 jobId）', body: workOrderListQuery, response: { 200: jobIdEnvelope } },
      config: { menu: lists.WORK_LIST_MENU, action: 'frontend/workorder/export' },
    },
    async (req) => ok({ jobId: await startWorkOrderExport(app.db, req.actor, req.body) }, '导出任务已开始'),
  );
};
