import {
  aibotSettings,
  aibotSettingsBody,
  envelope,
  flowCopyBody,
  flowCreateBody,
  flowDetail,
  flowIdQuery,
  flowListQuery,
  flowPublishBody,
  flowPublishResult,
  flowRow,
  flowTestBody,
  flowTestResult,
  flowUpdateBody,
  flowUpdateResult,
  flowVersionDetail,
  flowVersionQuery,
  idBody,
  idEnvelope,
  listOf,
  okEnvelope,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import * as service from './aibot.service';
import { testFlow } from './aibot-console';
import { getSettings, saveSettings } from './aibot-settings';

const tags = ['aibot'];
const P = '/api/frontend/aibot';
/** 话术管理 (menu 301) guards every call: flows and the AI settings are the company's. */
const config = { menu: service.AIBOT_MENU };

/** The AI voice bot's flows, test console and settings (issue 16): paths under /api/frontend/aibot/. */
export const aibotRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    `${P}/flow/list`,
    { schema: { tags, summary: '话术列表', querystring: flowListQuery, response: { 200: envelope(listOf(flowRow)) } }, config },
    async (req) => ok(await service.listFlows(app.db, req.actor, req.query)),
  );
  app.post(
    `${P}/flow/store`,
    {
      schema: {
        tags,
        summary: '新建话术（带示例流程与默认评级规则）',
        body: flowCreateBody,
        response: { 200: idEnvelope('id') },
      },
      config,
    },
    async (req) => ok({ id: await service.createFlow(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.get(
    `${P}/flow/detail`,
    {
      schema: {
        tags,
        summary: '话术详情（草稿、问题、版本）',
        querystring: flowIdQuery,
        response: { 200: envelope(flowDetail) },
      },
      config,
    },
    async (req) => ok(await service.flowDetail(app.db, req.actor, req.query.id)),
  );
  app.post(
    `${P}/flow/update`,
    {
      schema: {
        tags,
        summary: '保存话术草稿（有问题也保存，返回问题）',
        body: flowUpdateBody,
        response: { 200: envelope(flowUpdateResult) },
      },
      config,
    },
    async (req) => ok({ issues: await service.updateFlow(app.db, req.actor, req.body) }, '保存成功'),
  );
  app.post(
    `${P}/flow/publish`,
    {
      schema: {
        tags,
        summary: '发布话术（草稿冻结为新版本）',
        body: flowPublishBody,
        response: { 200: envelope(flowPublishResult) },
      },
      config,
    },
    async (req) => ok({ version: await service.publishFlow(app.db, req.actor, req.body.id) }, '发布成功'),
  );
  app.post(
    `${P}/flow/copy`,
    { schema: { tags, summary: '复制话术', body: flowCopyBody, response: { 200: idEnvelope('id') } }, config },
    async (req) => ok({ id: await service.copyFlow(app.db, req.actor, req.body) }, '复制成功'),
  );
  app.post(
    `${P}/flow/delete`,
    { schema: { tags, summary: '删除话术', body: idBody, response: { 200: okEnvelope } }, config },
    async (req) => {
      await service.deleteFlow(app.db, req.actor, req.body.id);
      return ok(null, '删除成功');
    },
  );
  app.get(
    `${P}/flow/version`,
    {
      schema: {
        tags,
        summary: '话术的已发布版本',
        querystring: flowVersionQuery,
        response: { 200: envelope(flowVersionDetail) },
      },
      config,
    },
    async (req) => ok(await service.flowVersion(app.db, req.actor, req.query.id, req.query.version)),
  );
  app.post(
    `${P}/flow/test`,
    {
      schema: { tags, summary: '话术测试（模拟客户回答）', body: flowTestBody, response: { 200: envelope(flowTestResult) } },
      config,
    },
    async (req) => ok(await testFlow(app.db, req.actor, req.body, app.config.aibotLlm)),
  );
  app.get(
    `${P}/setting`,
    { schema: { tags, summary: 'AI设置（大模型分类）', response: { 200: envelope(aibotSettings) } }, config },
    async (req) => ok(await getSettings(app.db, req.actor)),
  );
  app.post(
    `${P}/setting`,
    { schema: { tags, summary: '保存AI设置', body: aibotSettingsBody, response: { 200: envelope(aibotSettings) } }, config },
    async (req) => ok(await saveSettings(app.db, req.actor, req.body, app.config.aibotLlm), '保存成功'),
  );
};
