import {
  accountLogQuery,
  accountLogRowSchema,
  contractAccountBody,
  contractAccountSchema,
  contractArchiveResultSchema,
  contractBatchDownloadBody,
  contractCreateBody,
  contractDetailSchema,
  contractDiscardBody,
  contractDiscardResultSchema,
  contractIdBody,
  contractIdQuery,
  contractListQuery,
  contractOfCustomerQuery,
  contractOfOrderQuery,
  contractPdfQuery,
  contractRowSchema,
  contractRuleBody,
  contractRuleSchema,
  contractSendBody,
  contractSendResultSchema,
  contractStatusInfoQuery,
  contractStatusInfoSchema,
  contractTemplateSchema,
  contractTemplateStoreBody,
  contractTemplateUpdateBody,
  envelope,
  fileResponse,
  jobIdEnvelope,
  listOf,
  okEnvelope,
  sealDestroyBody,
  sealQuery,
  sealSchema,
  sealStoreBody,
  signerLinkBody,
  templateQuery,
  UPLOAD_MAX_BYTES,
  uploadPdfResultSchema,
} from '@crm/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import * as service from './contract.service';
import { archiveContract, discardContract } from './contract-archive';
import { startBatchDownload } from './contract-batch';
import { previewTemplate } from './contract-preview';
import { renewLink, sendForSigning } from './contract-sending';
import * as settings from './contract-settings';
import { CONTRACT_LIST_MENU, CONTRACT_SETTING_MENU } from './contract-settings';
import { uploadContractPdf } from './contract-verify';

const tags = ['contract'];
const P = '/api/contract';
const setting = { menu: CONTRACT_SETTING_MENU };
const listing = { menu: CONTRACT_LIST_MENU };
/** reads the contract pages need too (picking a template or a seal, the account's state) */
const either = { menu: [CONTRACT_SETTING_MENU, CONTRACT_LIST_MENU] };

/** Sends bytes as a file (PDF, PNG) under a UTF-8 name. */
export const sendFile = (reply: FastifyReply, bytes: Uint8Array, name: string, mime: string) => {
  reply.header('Content-Type', mime);
  reply.header('Cache-Control', 'private, no-store');
  reply.header('Content-Disposition', `inline; filename*=UTF-8''${encodeURIComponent(name)}`);
  return reply.send(Buffer.from(bytes));
};

/** Contracts and their settings (issue 26): the SPEC §7 contract paths under /api/contract/. */
export const contractRoutes: FastifyPluginAsyncZod = async (app) => {
  const bus = () => app.calls?.bus;

  // ---------- e-sign account ----------
  app.get(
    `${P}/info`,
    { schema: { tags, summary: '电子签企业信息', response: { 200: envelope(contractAccountSchema) } }, config: either },
    async (req) => ok(await settings.presentAccount(app.db, app.config, req.actor.tenantId)),
  );
  app.post(
    `${P}/info`,
    {
      schema: {
        tags,
        summary: '保存电子签企业信息',
        body: contractAccountBody,
        response: { 200: envelope(contractAccountSchema) },
      },
      config: setting,
    },
    async (req) => ok(await settings.saveAccount(app.db, app.config, req.actor, req.body), '保存成功'),
  );
  app.get(
    `${P}/account/log`,
    {
      schema: {
        tags,
        summary: '签署用量记录',
        querystring: accountLogQuery,
        response: { 200: envelope(listOf(accountLogRowSchema)) },
      },
      config: setting,
    },
    async (req) => ok(await settings.accountLog(app.db, req.actor, req.query)),
  );

  // ---------- seals ----------
  app.get(
    `${P}/seal_sign`,
    {
      schema: { tags, summary: '印章列表', querystring: sealQuery, response: { 200: envelope(listOf(sealSchema)) } },
      config: either,
    },
    async (req) => ok(await settings.listSeals(app.db, req.actor, req.query.with_destroyed === 1)),
  );
  app.post(
    `${P}/seal_sign/store`,
    {
      schema: { tags, summary: '新建或编辑印章', body: sealStoreBody, response: { 200: envelope(z.object({ id: z.number() })) } },
      config: setting,
    },
    async (req) => ok({ id: await settings.storeSeal(app.db, app.config, req.actor, req.body) }, '保存成功'),
  );
  app.post(
    `${P}/seal_sign/destroy`,
    {
      schema: { tags, summary: '销毁印章（已盖章的合同保留）', body: sealDestroyBody, response: { 200: okEnvelope } },
      config: setting,
    },
    async (req) => {
      await settings.destroySeal(app.db, req.actor, req.body.id);
      return ok(null, '印章已销毁');
    },
  );
  app.get(
    `${P}/seal_sign/image`,
    {
      schema: { tags, summary: '印章图片（PNG）', querystring: contractIdQuery, response: { 200: fileResponse } },
      config: either,
    },
    async (req, reply) =>
      sendFile(
        reply,
        await settings.sealImageOf(app.db, app.config, req.actor, req.query.id),
        `seal-${req.query.id}.png`,
        'image/png',
      ),
  );

  // ---------- templates ----------
  app.get(
    `${P}/template`,
    {
      schema: {
        tags,
        summary: '合同模板列表',
        querystring: templateQuery,
        response: { 200: envelope(listOf(contractTemplateSchema)) },
      },
      config: either,
    },
    async (req) => ok(await settings.listTemplates(app.db, req.actor, req.query.is_all === 1)),
  );
  app.post(
    `${P}/template/store`,
    {
      schema: {
        tags,
        summary: '新建合同模板',
        body: contractTemplateStoreBody,
        response: { 200: envelope(z.object({ id: z.number() })) },
      },
      config: setting,
    },
    async (req) => ok({ id: await settings.storeTemplate(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    `${P}/template/update`,
    {
      schema: { tags, summary: '编辑合同模板', body: contractTemplateUpdateBody, response: { 200: okEnvelope } },
      config: setting,
    },
    async (req) => {
      await settings.updateTemplate(app.db, req.actor, req.body);
      return ok(null, '更新成功');
    },
  );
  app.post(
    `${P}/template/preview`,
    {
      schema: { tags, summary: '模板预览（A4 PDF，示例数据）', body: contractTemplateStoreBody, response: { 200: fileResponse } },
      config: setting,
    },
    async (req, reply) =>
      sendFile(reply, await previewTemplate(app.db, app.config, req.actor, req.body), 'preview.pdf', 'application/pdf'),
  );

  // ---------- numbering rule ----------
  app.get(
    `${P}/rule`,
    { schema: { tags, summary: '合同编号规则', response: { 200: envelope(contractRuleSchema) } }, config: setting },
    async (req) => ok(await settings.getRule(app.db, req.actor)),
  );
  app.post(
    `${P}/rule/update`,
    {
      schema: { tags, summary: '保存合同编号规则', body: contractRuleBody, response: { 200: envelope(contractRuleSchema) } },
      config: setting,
    },
    async (req) => ok(await settings.saveRule(app.db, req.actor, req.body), '保存成功'),
  );

  // ---------- contracts ----------
  app.get(
    `${P}/list`,
    {
      schema: {
        tags,
        summary: '合同列表（数据范围内）',
        querystring: contractListQuery,
        response: { 200: envelope(listOf(contractRowSchema)) },
      },
      config: listing,
    },
    async (req) => ok(await service.listContracts(app.db, req.actor, req.query)),
  );
  app.get(
    `${P}/statusInfo`,
    {
      schema: {
        tags,
        summary: '合同状态统计',
        querystring: contractStatusInfoQuery,
        response: { 200: envelope(contractStatusInfoSchema) },
      },
      config: listing,
    },
    async (req) => ok(await service.statusInfo(app.db, req.actor, req.query)),
  );
  app.get(
    `${P}/ofOrder`,
    {
      schema: {
        tags,
        summary: '订单的合同（订单详情）',
        querystring: contractOfOrderQuery,
        response: { 200: envelope(listOf(contractRowSchema)) },
      },
    },
    async (req) => ok(await service.contractsOfOrder(app.db, req.actor, req.query.order_id)),
  );
  app.get(
    `${P}/ofCustomer`,
    {
      schema: {
        tags,
        summary: '客户的合同（客户详情，数据范围内）',
        querystring: contractOfCustomerQuery,
        response: { 200: envelope(listOf(contractRowSchema)) },
      },
    },
    async (req) => ok(await service.contractsOfCustomer(app.db, req.actor, req.query.customer_id)),
  );
  app.post(
    `${P}/create`,
    {
      schema: {
        tags,
        summary: '由已通过的订单生成合同（草稿）',
        body: contractCreateBody,
        response: { 200: envelope(z.object({ id: z.number(), contract_no: z.string() })) },
      },
    },
    async (req) => ok(await service.createContract(app.db, app.config, req.actor, req.body), '合同已生成'),
  );
  app.get(
    `${P}/detail`,
    { schema: { tags, summary: '合同详情', querystring: contractIdQuery, response: { 200: envelope(contractDetailSchema) } } },
    async (req) => ok(await service.contractDetail(app.db, app.config, req.actor, req.query.id)),
  );
  app.get(
    `${P}/pdf`,
    {
      schema: {
        tags,
        summary: '合同PDF（草稿、签署、归档、作废版）',
        querystring: contractPdfQuery,
        response: { 200: fileResponse },
      },
    },
    async (req, reply) => {
      const f = await service.contractPdf(app.db, app.config, req.actor, req.query.id, req.query.kind);
      return sendFile(reply, f.bytes, f.name, 'application/pdf');
    },
  );
  app.post(
    `${P}/create/sign`,
    {
      schema: {
        tags,
        summary: '发起签署（生成客户签署链接）',
        body: contractSendBody,
        response: { 200: envelope(contractSendResultSchema) },
      },
      config: listing,
    },
    async (req) => ok(await sendForSigning(app.db, bus(), req.actor, req.body), '已发起签署'),
  );
  app.post(
    `${P}/signer/link`,
    {
      schema: {
        tags,
        summary: '重新生成客户签署链接',
        body: signerLinkBody,
        response: { 200: envelope(contractSendResultSchema) },
      },
      config: listing,
    },
    async (req) => ok(await renewLink(app.db, req.actor, req.body), '已生成新的签署链接'),
  );
  app.post(
    `${P}/placeOnFile`,
    {
      schema: {
        tags,
        summary: '归档（各方签署完成后）',
        body: contractIdBody,
        response: { 200: envelope(contractArchiveResultSchema) },
      },
      config: listing,
    },
    async (req) => ok(await archiveContract(app.db, app.config, req.actor, req.body.id), '归档成功'),
  );
  app.post(
    `${P}/discard`,
    {
      schema: {
        tags,
        summary: '作废合同（生成已作废版本，原件保留）',
        body: contractDiscardBody,
        response: { 200: envelope(contractDiscardResultSchema) },
      },
      config: listing,
    },
    async (req) => ok(await discardContract(app.db, app.config, req.actor, req.body), '合同已作废'),
  );
  app.post(
    `${P}/batchDownload`,
    {
      schema: {
        tags,
        summary: '批量下载合同（后台任务，返回 jobId）',
        body: contractBatchDownloadBody,
        response: { 200: jobIdEnvelope },
      },
      config: listing,
    },
    async (req) => ok({ jobId: await startBatchDownload(app.db, req.actor, req.body.ids) }, '下载任务已开始'),
  );

  // ---------- SPEC §7 api/uploadPdf ----------
  app.post(
    '/api/uploadPdf',
    {
      schema: {
        tags,
        summary: '上传合同PDF（multipart {file, scene=contract}；data.code 1 为警告）',
        consumes: ['multipart/form-data'],
        response: { 200: envelope(uploadPdfResultSchema) },
      },
      config: setting,
    },
    async (req) => {
      let scene = '';
      let file: { name: string; buf: Buffer } | undefined;
      for await (const part of req.parts({ limits: { fileSize: UPLOAD_MAX_BYTES, files: 2 } })) {
        if (part.type === 'field') {
          if (part.fieldname === 'scene') scene = String(part.value).slice(0, 30);
          continue;
        }
        const buf = await part.toBuffer().catch((err: { code?: string }) => {
          if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('UPLOAD_TOO_LARGE');
          throw err;
        });
        if (!file) file = { name: part.filename, buf };
      }
      if (!file) throw new AppError('UPLOAD_EMPTY');
      const result = await uploadContractPdf(app.db, app.config, req.actor, { ...file, scene });
      return ok(result, result.code === 1 ? result.msg : '上传成功');
    },
  );
};
