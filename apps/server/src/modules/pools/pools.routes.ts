import {
  allotBody,
  batchAllotBody,
  countEnvelope,
  delAllBody,
  deletedCustomerSchema,
  deletedListQuery,
  discardReasonBody,
  discardReasonEditBody,
  discardReasonListQuery,
  discardReasonSchema,
  envelope,
  followDownBody,
  followUpBody,
  idBody,
  jobIdEnvelope,
  listOf,
  moveResultSchema,
  okEnvelope,
  poolBody,
  poolEditBody,
  poolListQuery,
  poolOptionSchema,
  poolSchema,
  recycleResultSchema,
  recycleSoonListSchema,
  restoreBody,
  seasListBody,
  seasListDataSchema,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import { CUSTOMER_MENUS } from '../customers/customers.routes';
import { startBatchAllot } from './pool-batch-allot';
import * as bin from './pool-bin.service';
import * as moves from './pool-moves.service';
import * as seas from './pool-seas';
import * as service from './pools.service';
import { recycleSoon, runRecycle } from './pools-recycle';

const REASON_MENU = '/set/discard';
const POOL_MENU = '/set/highseas';
const SEAS_MENU = '/manage/seascustomer';
const ALLOT_MENU = '/manage/allot';
const tags = ['pools'];
const SET = '/api/frontend/customerset';
const CUSTOMER = '/api/frontend/customer';

const page = <T>(list: T[], q: { page: number; limit: number }) => ({
  list: list.slice((q.page - 1) * q.limit, q.page * q.limit),
  count: list.length,
});

export const poolsRoutes: FastifyPluginAsyncZod = async (app) => {
  // ---------- discard reasons ----------
  app.get(
    `${SET}/discardlist`,
    {
      schema: {
        tags,
        summary: '丢弃理由列表',
        querystring: discardReasonListQuery,
        response: { 200: envelope(listOf(discardReasonSchema)) },
      },
      config: { menu: REASON_MENU },
    },
    async (req) => ok(page(await service.listReasons(app.db, req.actor, req.query.actionState), req.query)),
  );
  // The discard dialog reads it on every customer screen, so no menu is required.
  app.get(
    `${SET}/discardbaselist`,
    { schema: { tags, summary: '可用的丢弃理由（丢弃弹窗）', response: { 200: envelope(listOf(discardReasonSchema)) } } },
    async (req) => {
      const list = await service.listReasons(app.db, req.actor, 0);
      return ok({ list, count: list.length });
    },
  );
  app.post(
    `${SET}/discardcreate`,
    {
      schema: {
        tags,
        summary: '新增丢弃理由',
        body: discardReasonBody,
        response: { 200: envelope(z.object({ cmCdid: z.number() })) },
      },
      config: { menu: REASON_MENU },
    },
    async (req) => ok({ cmCdid: await service.createReason(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    `${SET}/discardedit`,
    {
      schema: { tags, summary: '编辑丢弃理由', body: discardReasonEditBody, response: { 200: okEnvelope } },
      config: { menu: REASON_MENU },
    },
    async (req) => {
      await service.editReason(app.db, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
  app.post(
    `${SET}/discarddel`,
    { schema: { tags, summary: '删除丢弃理由', body: idBody, response: { 200: okEnvelope } }, config: { menu: REASON_MENU } },
    async (req) => {
      await service.deleteReason(app.db, req.actor, req.body.id);
      return ok(null, '删除成功');
    },
  );

  // ---------- pools ----------
  app.get(
    `${SET}/highseaslist`,
    {
      schema: {
        tags,
        summary: '公海列表（含规则）',
        querystring: poolListQuery,
        response: { 200: envelope(listOf(poolSchema)) },
      },
      config: { menu: POOL_MENU },
    },
    async (req) => ok(page(await service.listPools(app.db, req.actor, req.query.actionState), req.query)),
  );
  app.get(
    `${SET}/highseasvisiblelist`,
    { schema: { tags, summary: '我可使用的公海', response: { 200: envelope(listOf(poolOptionSchema)) } } },
    async (req) => {
      const list = await service.visiblePools(app.db, req.actor);
      return ok({ list, count: list.length });
    },
  );
  app.post(
    `${SET}/highseasdcreate`,
    {
      schema: { tags, summary: '新增公海', body: poolBody, response: { 200: envelope(z.object({ cmHsid: z.number() })) } },
      config: { menu: POOL_MENU },
    },
    async (req) => ok({ cmHsid: await service.createPool(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    `${SET}/highseasedit`,
    { schema: { tags, summary: '编辑公海', body: poolEditBody, response: { 200: okEnvelope } }, config: { menu: POOL_MENU } },
    async (req) => {
      await service.editPool(app.db, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
  app.post(
    `${SET}/highseasdel`,
    {
      schema: { tags, summary: '删除公海（无客户时）', body: idBody, response: { 200: okEnvelope } },
      config: { menu: POOL_MENU },
    },
    async (req) => {
      await service.deletePool(app.db, req.actor, req.body.id);
      return ok(null, '删除成功');
    },
  );

  // ---------- discard, pool list, claim ----------
  app.post(
    `${CUSTOMER}/followdown`,
    {
      schema: { tags, summary: '丢入公海', body: followDownBody, response: { 200: countEnvelope } },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => ok({ count: await moves.discardCustomers(app.db, req.actor, req.body) }, '丢弃成功！'),
  );
  app.post(
    `${CUSTOMER}/seaslist`,
    {
      schema: { tags, summary: '公海客户', body: seasListBody, response: { 200: envelope(seasListDataSchema) } },
      config: { menu: SEAS_MENU },
    },
    async (req) => ok(await seas.listSeas(app.db, req.actor, req.body)),
  );
  app.post(
    `${CUSTOMER}/seasexportlist`,
    {
      schema: { tags, summary: '导出公海客户（后台任务，返回 jobId）', body: seasListBody, response: { 200: jobIdEnvelope } },
      config: { menu: SEAS_MENU, action: 'frontend/customer/export' },
    },
    async (req) => ok({ jobId: await seas.exportSeas(app.db, req.actor, req.body) }, '导出任务已开始'),
  );
  app.post(
    `${CUSTOMER}/followup`,
    {
      schema: { tags, summary: '从公海领取', body: followUpBody, response: { 200: envelope(moveResultSchema) } },
      config: { menu: SEAS_MENU },
    },
    async (req) => {
      const r = await moves.claimCustomers(app.db, req.actor, req.body.cmCtids);
      const msg = r.failed > 0 ? `成功领取${r.count}个，${r.failed}个未领取：${r.reasons.join('；')}` : '领取成功';
      return ok(r, msg);
    },
  );

  // ---------- allocation ----------
  app.post(
    `${CUSTOMER}/allot`,
    {
      schema: { tags, summary: '分配客户', body: allotBody, response: { 200: envelope(moveResultSchema) } },
      config: { menu: [ALLOT_MENU, SEAS_MENU], action: 'frontend/customer/allot' },
    },
    async (req) => {
      const r = await moves.allotCustomers(app.db, req.actor, req.body);
      const msg = r.failed > 0 ? `成功分配${r.count}个，${r.failed}个未分配：${r.reasons.join('；')}` : '分配成功';
      return ok(r, msg);
    },
  );
  app.post(
    `${CUSTOMER}/batchallot`,
    {
      schema: { tags, summary: '批量转移（后台任务，返回 jobId）', body: batchAllotBody, response: { 200: jobIdEnvelope } },
      config: { menu: ALLOT_MENU, action: 'frontend/customer/allot' },
    },
    async (req) => ok({ jobId: await startBatchAllot(app.db, req.actor, req.body) }, '转移任务已开始'),
  );

  // ---------- bulk delete ----------
  app.post(
    `${CUSTOMER}/delall`,
    {
      schema: {
        tags,
        summary: '批量清空客户（1 公海 2 私有 3 全部；可恢复30天）',
        body: delAllBody,
        response: { 200: countEnvelope },
      },
      config: { menu: CUSTOMER_MENUS, action: 'frontend/customer/delall' },
    },
    async (req) => {
      const n = await bin.deleteAll(app.db, req.actor, req.body);
      return ok({ count: n }, `已删除${n}个客户`);
    },
  );

  // 回收站: customers deleted within 30 days, for the admins who may bulk-delete
  app.get(
    `${CUSTOMER}/deletedlist`,
    {
      schema: {
        tags,
        summary: '回收站：30天内删除的客户',
        querystring: deletedListQuery,
        response: { 200: envelope(listOf(deletedCustomerSchema)) },
      },
      config: { menu: ALLOT_MENU, action: 'frontend/customer/delall' },
    },
    async (req) => ok(await bin.listDeleted(app.db, req.actor, req.query)),
  );
  app.post(
    `${CUSTOMER}/restore`,
    {
      schema: { tags, summary: '恢复删除的客户（30天内）', body: restoreBody, response: { 200: countEnvelope } },
      config: { menu: ALLOT_MENU, action: 'frontend/customer/delall' },
    },
    async (req) => ok({ count: await bin.restoreCustomers(app.db, req.actor, req.body.cmCtids) }, '操作成功'),
  );

  // ---------- recycling ----------
  app.post(
    `${CUSTOMER}/recyclerun`,
    {
      schema: { tags, summary: '立即执行公海回收（本企业）', response: { 200: envelope(recycleResultSchema) } },
      config: { menu: POOL_MENU, action: 'frontend/customer/recycle' },
    },
    async (req) => {
      const r = await runRecycle(app.db, req.actor.tenantId);
      if (r.isSkipped) throw new AppError('RECYCLE_BUSY');
      return ok(r, `回收完成，共回收${r.recycled}个客户`);
    },
  );
  app.get(
    `${CUSTOMER}/recyclesoon`,
    { schema: { tags, summary: '即将回收的我的客户', response: { 200: envelope(recycleSoonListSchema) } } },
    async (req) => ok(await recycleSoon(app.db, req.actor)),
  );
};
