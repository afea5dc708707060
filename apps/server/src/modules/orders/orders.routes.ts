import {
  countEnvelope,
  envelope,
  jobIdEnvelope,
  listOf,
  okEnvelope,
  orderCooperatorsBody,
  orderDetailQuery,
  orderDetailSchema,
  orderListDataSchema,
  orderListQuery,
  orderStoreBody,
  orderStoreResultSchema,
  orderTransferBody,
  orderVerifyBody,
  orderWithdrawBody,
  staffSearchQuery,
  staffSearchSchema,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import * as service from './orders.service';
import * as actions from './orders-actions';
import { startOrderExport } from './orders-export';

const tags = ['orders'];

export const ordersRoutes: FastifyPluginAsyncZod = async (app) => {
  const bus = () => app.calls?.bus;
  app.post(
    '/api/frontend/order/store',
    {
      schema: {
        tags,
        summary: '新建订单（待提交，随后 templatecreate 发起审批）',
        body: orderStoreBody,
        response: { 200: envelope(orderStoreResultSchema) },
      },
    },
    async (req) => ok({ order_id: await service.storeOrder(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.get(
    '/api/frontend/order/list',
    { schema: { tags, summary: '订单列表', querystring: orderListQuery, response: { 200: envelope(orderListDataSchema) } } },
    async (req) => ok(await service.listOrders(app.db, req.actor, req.query)),
  );
  app.post(
    '/api/frontend/order/export',
    {
      schema: { tags, summary: '导出订单（后台任务，返回 jobId）', body: orderListQuery, response: { 200: jobIdEnvelope } },
      config: { menu: service.ORDER_MENU, action: 'frontend/order/export' },
    },
    async (req) => ok({ jobId: await startOrderExport(app.db, req.actor, req.body) }, '导出任务已开始'),
  );
  app.get(
    '/api/frontend/order/auditdetail',
    {
      schema: {
        tags,
        summary: '订单详情与审批记录',
        querystring: orderDetailQuery,
        response: { 200: envelope(orderDetailSchema) },
      },
    },
    async (req) => ok(await actions.orderDetail(app.db, req.actor, req.query.order_id)),
  );
  app.post(
    '/api/frontend/order/verify',
    {
      schema: {
        tags,
        summary: '订单审核（当前审批人）',
        body: orderVerifyBody,
        response: { 200: envelope(z.object({ verify_status: z.number() })) },
      },
    },
    async (req) => {
      return ok({ verify_status: await actions.verifyOrder(app.db, bus(), req.actor, req.body) }, '审核成功');
    },
  );
  app.post(
    '/api/frontend/order/withdraw',
    { schema: { tags, summary: '撤回订单审批（发起人）', body: orderWithdrawBody, response: { 200: okEnvelope } } },
    async (req) => {
      await actions.withdrawOrder(app.db, bus(), req.actor, req.body.order_id);
      return ok(null, '操作成功');
    },
  );
  app.post(
    '/api/frontend/order/cooperators',
    { schema: { tags, summary: '设置协同人', body: orderCooperatorsBody, response: { 200: countEnvelope } } },
    async (req) => ok({ count: await actions.setCooperators(app.db, req.actor, req.body.product_order_ids, req.body.staff_ids) }),
  );
  app.post(
    '/api/frontend/order/transfer',
    { schema: { tags, summary: '转移订单', body: orderTransferBody, response: { 200: countEnvelope } } },
    async (req) => {
      const b = req.body;
      return ok({
        count: await actions.transferOrders(app.db, req.actor, b.product_order_ids, b.transfer_to_staff_id, b.set_cooperator),
      });
    },
  );
  app.get(
    '/api/frontend/staff/search',
    {
      schema: {
        tags,
        summary: '员工搜索（审批人、协同人、负责人）',
        querystring: staffSearchQuery,
        response: { 200: envelope(listOf(staffSearchSchema)) },
      },
    },
    async (req) => {
      const list = await service.searchStaff(app.db, req.actor, req.query.linkman);
      return ok({ list, count: list.length });
    },
  );
};
