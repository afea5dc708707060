import {
  blackCheckBody,
  blackCheckResultSchema,
  blackFileCreateBody,
  blackFileDelBody,
  blackFileEditBody,
  blackFileListQuery,
  blackFileSchema,
  blackNumberCreateBody,
  blackNumberDelBody,
  blackNumberListQuery,
  blackNumberSchema,
  countEnvelope,
  envelope,
  idEnvelope,
  listOf,
  okEnvelope,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import * as service from './blacklist.service';

/** Application 6 (号码黑名单) manages the lists; /call/blackcheck filters number lists against them. */
const MENU = '/blacklist/Index';
const CHECK_MENUS = ['/call/blackcheck', MENU];
const tags = ['blacklist'];

export const blacklistRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/frontend/black/file/list',
    {
      schema: {
        tags,
        summary: '黑名单文件列表',
        querystring: blackFileListQuery,
        response: { 200: envelope(listOf(blackFileSchema)) },
      },
      config: { menu: MENU },
    },
    async (req) => ok(await service.listFiles(app.db, req.actor, req.query)),
  );
  app.post(
    '/api/frontend/black/file/create',
    {
      schema: {
        tags,
        summary: '导入黑名单文件（先上传 .xlsx/.txt）',
        body: blackFileCreateBody,
        response: { 200: idEnvelope('cmBfid') },
      },
      config: { menu: MENU },
    },
    async (req) => ok({ cmBfid: await service.createFile(app.db, app.config.dataDir, req.actor, req.body) }, '导入成功'),
  );
  app.post(
    '/api/frontend/black/file/edit',
    {
      schema: { tags, summary: '编辑黑名单文件（名称、启用/停用）', body: blackFileEditBody, response: { 200: okEnvelope } },
      config: { menu: MENU },
    },
    async (req) => {
      await service.editFile(app.db, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
  app.post(
    '/api/frontend/black/file/del',
    {
      schema: { tags, summary: '删除黑名单文件', body: blackFileDelBody, response: { 200: okEnvelope } },
      config: { menu: MENU },
    },
    async (req) => {
      await service.deleteFile(app.db, req.actor, req.body.cmBfid);
      return ok(null, '删除成功');
    },
  );
  app.get(
    '/api/frontend/black/number/list',
    {
      schema: {
        tags,
        summary: '黑名单号码（cmBfid 为 0 时为手动添加的号码）',
        querystring: blackNumberListQuery,
        response: { 200: envelope(listOf(blackNumberSchema)) },
      },
      config: { menu: MENU },
    },
    async (req) => ok(await service.listNumbers(app.db, req.actor, req.query)),
  );
  app.post(
    '/api/frontend/black/number/create',
    {
      schema: { tags, summary: '手动添加黑名单号码', body: blackNumberCreateBody, response: { 200: okEnvelope } },
      config: { menu: MENU },
    },
    async (req) => {
      await service.createNumber(app.db, req.actor, req.body);
      return ok(null, '添加成功');
    },
  );
  app.post(
    '/api/frontend/black/number/del',
    {
      schema: { tags, summary: '删除黑名单号码', body: blackNumberDelBody, response: { 200: countEnvelope } },
      config: { menu: MENU },
    },
    async (req) => ok({ count: await service.deleteNumbers(app.db, req.actor, req.body.ids) }, '删除成功'),
  );
  app.post(
    '/api/frontend/black/check',
    {
      schema: {
        tags,
        summary: '黑名单检测：过滤号码，结果可下载（xlsx）',
        body: blackCheckBody,
        response: { 200: envelope(blackCheckResultSchema) },
      },
      config: { menu: CHECK_MENUS },
    },
    async (req) => ok(await service.checkNumbers(app.db, app.config.dataDir, req.actor, req.body), '检测完成'),
  );
};
