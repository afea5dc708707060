import {
  countEnvelope,
  customerBatchEditBody,
  customerCreateBody,
  customerDetailSchema,
  customerEditBody,
  customerExportBody,
  customerIdsBody,
  customerInfoQuery,
  customerLabelBody,
  customerListBody,
  customerListDataSchema,
  customerPickQuery,
  customerPickRowSchema,
  envelope,
  fileResponse,
  idBody,
  idEnvelope,
  importPreviewSchema,
  importStartBody,
  jobIdEnvelope,
  jobInfoSchema,
  jobQuery,
  listOf,
  okEnvelope,
  templateControlBody,
  templateControlEditBody,
  templateInfoQuery,
  templateInfoSchema,
  templateSetBody,
  templateSortBody,
  UPLOAD_MAX_BYTES,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import { jobInfo } from '../jobs/jobs.service';
import * as templates from './customer-templates.service';
import * as service from './customers.service';
import { startCustomerExport } from './customers-export';
import { buildImportTemplate, importPreview, startImport } from './customers-import';

const TEMPLATE_MENU = '/client/clienttemplate';
/** Any customer list grants the record calls (create, edit, detail). */
export const CUSTOMER_MENUS = [
  '/manage/mycustomer',
  '/manage/allot',
  '/manage/subscribe',
  '/manage/nevermentioned',
  '/manage/seascustomer',
];
const tags = ['customers'];

export const customersRoutes: FastifyPluginAsyncZod = async (app) => {
  // ---------- template ----------
  app.get(
    '/api/frontend/customer/templateinfo',
    {
      schema: {
        tags,
        summary: '客户模板（isSearch=1：可作筛选的控件）',
        querystring: templateInfoQuery,
        response: { 200: envelope(templateInfoSchema) },
      },
    },
    async (req) => ok(await templates.templateInfo(app.db, req.actor, req.query.isSearch)),
  );
  app.get(
    '/api/frontend/customer/templatedesign',
    {
      schema: { tags, summary: '模板设计（含已禁用控件）', response: { 200: envelope(templateInfoSchema) } },
      config: { menu: TEMPLATE_MENU },
    },
    async (req) => ok(await templates.templateDesign(app.db, req.actor)),
  );
  app.post(
    '/api/frontend/customer/templatecontrolcreate',
    {
      schema: { tags, summary: '新增模板控件', body: templateControlBody, response: { 200: idEnvelope('cbTacid') } },
      config: { menu: TEMPLATE_MENU },
    },
    async (req) => ok({ cbTacid: await templates.createControl(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    '/api/frontend/customer/templatecontroledit',
    {
      schema: { tags, summary: '编辑模板控件', body: templateControlEditBody, response: { 200: okEnvelope } },
      config: { menu: TEMPLATE_MENU },
    },
    async (req) => {
      await templates.editControl(app.db, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
  app.post(
    '/api/frontend/customer/templatecontroldel',
    {
      schema: { tags, summary: '删除模板控件（无客户数据时）', body: idBody, response: { 200: okEnvelope } },
      config: { menu: TEMPLATE_MENU },
    },
    async (req) => {
      await templates.deleteControl(app.db, req.actor, req.body.id);
      return ok(null, '删除成功');
    },
  );
  app.post(
    '/api/frontend/customer/templatesort',
    {
      schema: { tags, summary: '模板控件排序', body: templateSortBody, response: { 200: okEnvelope } },
      config: { menu: TEMPLATE_MENU },
    },
    async (req) => {
      await templates.sortControls(app.db, req.actor, req.body.ids);
      return ok(null, '排序已保存');
    },
  );
  app.post(
    '/api/frontend/customer/templateset',
    {
      schema: { tags, summary: '客户名称是否必填', body: templateSetBody, response: { 200: okEnvelope } },
      config: { menu: TEMPLATE_MENU },
    },
    async (req) => {
      await templates.setMustName(app.db, req.actor, req.body.isMustName);
      return ok(null, '保存成功');
    },
  );

  // ---------- records ----------
  app.post(
    '/api/frontend/customer/create',
    {
      schema: { tags, summary: '新增客户', body: customerCreateBody, response: { 200: idEnvelope('cmCtid') } },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => ok({ cmCtid: await service.createCustomer(app.db, req.actor, req.body) }, '提交成功'),
  );
  app.post(
    '/api/frontend/customer/edit',
    {
      schema: { tags, summary: '编辑客户', body: customerEditBody, response: { 200: okEnvelope } },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => {
      await service.editCustomer(app.db, req.actor, req.body);
      return ok(null, '提交成功');
    },
  );
  app.post(
    '/api/frontend/customer/batchedit',
    {
      schema: { tags, summary: '批量修改客户资料', body: customerBatchEditBody, response: { 200: countEnvelope } },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => {
      const n = await service.batchEditCustomers(app.db, req.actor, req.body.cmCtids, req.body.templateControls);
      return ok({ count: n }, `已修改${n}个客户`);
    },
  );
  app.post(
    '/api/frontend/customer/del',
    {
      schema: { tags, summary: '删除客户（可恢复）', body: customerIdsBody, response: { 200: countEnvelope } },
      config: { menu: CUSTOMER_MENUS, action: 'frontend/customer/del' },
    },
    async (req) => {
      const n = await service.deleteCustomers(app.db, req.actor, req.body.cmCtids);
      return ok({ count: n }, '删除成功');
    },
  );
  app.post(
    '/api/frontend/customer/label',
    {
      schema: { tags, summary: '设置客户标签（mode=add 为追加）', body: customerLabelBody, response: { 200: countEnvelope } },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => {
      const n = await service.setCustomerLabels(app.db, req.actor, req.body);
      return ok({ count: n }, '标签已更新');
    },
  );
  app.get(
    '/api/frontend/customer/info',
    {
      schema: { tags, summary: '客户详情', querystring: customerInfoQuery, response: { 200: envelope(customerDetailSchema) } },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) =>
      ok(
        req.query.cmCtid !== undefined
          ? await service.customerInfo(app.db, req.actor, req.query.cmCtid)
          : await service.customerInfoByPhone(app.db, req.actor, req.query.phone ?? ''),
      ),
  );

  app.get(
    '/api/frontend/customer/picklist',
    {
      schema: {
        tags,
        summary: '选择客户（订单、回款页新建时；数据范围内的私有客户，每页最多100）',
        querystring: customerPickQuery,
        response: { 200: envelope(listOf(customerPickRowSchema)) },
      },
    },
    async (req) => ok(await service.pickCustomers(app.db, req.actor, req.query)),
  );

  // ---------- lists ----------
  const lists = [
    ['minelist', 'mine', '/manage/mycustomer', '我的客户'],
    ['allotlist', 'allot', '/manage/allot', '分配管理（数据范围内的客户）'],
    ['subscribelist', 'subscribe', '/manage/subscribe', '今日预约'],
    ['nevermentionedlist', 'never', '/manage/nevermentioned', '从未联系'],
  ] as const;
  for (const [path, kind, menu, summary] of lists) {
    app.post(
      `/api/frontend/customer/${path}`,
      {
        schema: { tags, summary, body: customerListBody, response: { 200: envelope(customerListDataSchema) } },
        config: { menu },
      },
      async (req) => ok(await service.listCustomers(app.db, req.actor, kind, req.body)),
    );
  }

  // ---------- export / import (background jobs with progress) ----------
  const exports = [
    ['mineexportlist', 'mine', '/manage/mycustomer'],
    ['allotexportlist', 'allot', '/manage/allot'],
    ['subscribeexportlist', 'subscribe', '/manage/subscribe'],
    ['nevermentionedexportlist', 'never', '/manage/nevermentioned'],
  ] as const;
  for (const [path, kind, menu] of exports) {
    app.post(
      `/api/frontend/customer/${path}`,
      {
        schema: { tags, summary: '导出客户（后台任务，返回 jobId）', body: customerExportBody, response: { 200: jobIdEnvelope } },
        config: { menu, action: 'frontend/customer/export' },
      },
      async (req) => ok({ jobId: await startCustomerExport(app.db, req.actor, kind, req.body) }, '导出任务已开始'),
    );
  }
  app.get(
    '/api/frontend/customer/job',
    { schema: { tags, summary: '导出/导入任务进度', querystring: jobQuery, response: { 200: envelope(jobInfoSchema) } } },
    async (req) => ok(await jobInfo(app.db, req.actor, req.query.jobId)),
  );
  app.get(
    '/api/frontend/customer/importtemplate',
    {
      schema: { tags, summary: '下载导入模板（按客户模板生成）', response: { 200: fileResponse } },
      config: { menu: CUSTOMER_MENUS, action: 'frontend/customer/import' },
    },
    async (req, reply) => {
      const buf = await buildImportTemplate(app.db, req.actor);
      reply.header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      reply.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent('客户导入模板.xlsx')}`);
      return reply.send(buf);
    },
  );
  app.post(
    '/api/frontend/customer/importpreview',
    {
      schema: {
        tags,
        summary: '上传导入文件并预览（multipart，字段 file，.xlsx）',
        consumes: ['multipart/form-data'],
        response: { 200: envelope(importPreviewSchema) },
      },
      config: { menu: CUSTOMER_MENUS, action: 'frontend/customer/import' },
    },
    async (req) => {
      const part = await req.file({ limits: { fileSize: UPLOAD_MAX_BYTES, files: 1 } });
      if (!part) throw new AppError('UPLOAD_EMPTY');
      const buf = await part.toBuffer().catch((err: { code?: string }) => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('UPLOAD_TOO_LARGE');
        throw err;
      });
      return ok(await importPreview(app.db, app.config.dataDir, req.actor, { name: part.filename, buf }));
    },
  );
  app.post(
    '/api/frontend/customer/importstart',
    {
      schema: { tags, summary: '开始导入（后台任务，返回 jobId）', body: importStartBody, response: { 200: jobIdEnvelope } },
      config: { menu: CUSTOMER_MENUS, action: 'frontend/customer/import' },
    },
    async (req) => ok({ jobId: await startImport(app.db, req.log, app.config.dataDir, req.actor, req.body) }, '导入任务已开始'),
  );
};
