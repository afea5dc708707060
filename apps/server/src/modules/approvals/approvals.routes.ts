import {
  approvalActBody,
  approvalCountsSchema,
  approvalInfoQuery,
  approvalInstanceSchema,
  approvalListQuery,
  approvalRowSchema,
  approvalTemplateInfoQuery,
  approvalTemplateSchema,
  approvalWithdrawBody,
  envelope,
  idEnvelope,
  listOf,
  okEnvelope,
  templateCreateBody,
  templateCreateResultSchema,
  templateDelBody,
  templateEditBody,
  templateListQuery,
  templateSaveBody,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import * as templates from './approval-templates.service';
import * as engine from './approvals.service';
import * as lists from './approvals-lists';

const tags = ['approvals'];
const menu = templates.APPROVAL_MENU;

export const approvalsRoutes: FastifyPluginAsyncZod = async (app) => {
  const bus = () => app.calls?.bus;
  app.get(
    '/api/v1/merchantapp/templatelist',
    {
      schema: {
        tags,
        summary: '审批流程列表',
        querystring: templateListQuery,
        response: { 200: envelope(z.object({ list: z.array(approvalTemplateSchema) })) },
      },
    },
    async (req) => ok({ list: await templates.listTemplates(app.db, req.actor, req.query) }),
  );
  app.get(
    '/api/v1/merchantapp/templateinfo',
    {
      schema: {
        tags,
        summary: '审批流程详情',
        querystring: approvalTemplateInfoQuery,
        response: { 200: envelope(approvalTemplateSchema) },
      },
    },
    async (req) => ok(await templates.templateInfo(app.db, req.actor, req.query.id)),
  );
  app.post(
    '/api/v1/merchantapp/templateadd',
    {
      schema: { tags, summary: '新增审批流程', body: templateSaveBody, response: { 200: idEnvelope('coMatid') } },
      config: { menu },
    },
    async (req) => ok({ coMatid: await templates.createTemplate(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    '/api/v1/merchantapp/templateedit',
    {
      schema: { tags, summary: '编辑审批流程（生成新版本）', body: templateEditBody, response: { 200: okEnvelope } },
      config: { menu },
    },
    async (req) => {
      await templates.editTemplate(app.db, req.actor, req.body);
      return ok(null, '添加/更新成功！');
    },
  );
  app.post(
    '/api/v1/merchantapp/templatedel',
    { schema: { tags, summary: '删除审批流程', body: templateDelBody, response: { 200: okEnvelope } }, config: { menu } },
    async (req) => {
      await templates.deleteTemplate(app.db, req.actor, req.body.coMatid);
      return ok(null, '删除成功');
    },
  );
  app.post(
    '/api/v1/staff/templatecreate',
    { schema: { tags, summary: '发起审批', body: templateCreateBody, response: { 200: envelope(templateCreateResultSchema) } } },
    async (req) => ok(await engine.startInstance(app.db, bus(), req.actor, req.body), '添加成功'),
  );
  app.post(
    '/api/v1/staff/approvalact',
    {
      schema: {
        tags,
        summary: '审批：同意/驳回',
        body: approvalActBody,
        response: { 200: envelope(z.object({ status: z.number() })) },
      },
    },
    async (req) =>
      ok(
        {
          status: await engine.act(
            app.db,
            bus(),
            req.actor,
            req.body.instanceId,
            req.body.nodeId,
            req.body.status,
            req.body.remark,
          ),
        },
        '审核成功',
      ),
  );
  app.post(
    '/api/v1/staff/approvalwithdraw',
    { schema: { tags, summary: '撤回审批', body: approvalWithdrawBody, response: { 200: okEnvelope } } },
    async (req) => {
      await engine.withdraw(app.db, bus(), req.actor, req.body.instanceId);
      return ok(null, '操作成功');
    },
  );
  app.get(
    '/api/v1/staff/approvallist',
    {
      schema: {
        tags,
        summary: '我的审批',
        querystring: approvalListQuery,
        response: { 200: envelope(listOf(approvalRowSchema)) },
      },
    },
    async (req) => ok(await lists.listApprovals(app.db, req.actor, req.query)),
  );
  app.get(
    '/api/v1/staff/approvalcounts',
    { schema: { tags, summary: '我的审批各页数量（待我审批用于顶栏角标）', response: { 200: envelope(approvalCountsSchema) } } },
    async (req) => ok(await lists.approvalCounts(app.db, req.actor)),
  );
  app.get(
    '/api/v1/staff/approvalinfo',
    {
      schema: {
        tags,
        summary: '审批详情与审批记录',
        querystring: approvalInfoQuery,
        response: { 200: envelope(approvalInstanceSchema) },
      },
    },
    async (req) => ok(await lists.instanceInfo(app.db, req.actor, req.query.instanceId)),
  );
};
