import { envelope, idBody, labelBody, labelEditBody, labelGroupSchema, labelListQuery, listOf, okEnvelope } from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import * as service from './labels.service';

const MENU = '/set/label';
const tags = ['labels'];

export const labelsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Read by the tag window, filters and the tag control, so no menu is required.
  app.get(
    '/api/frontend/customerset/labellist',
    {
      schema: {
        tags,
        summary: '标签分组与标签（树形）',
        querystring: labelListQuery,
        response: { 200: envelope(listOf(labelGroupSchema)) },
      },
    },
    async (req) => {
      const list = await service.labelTree(app.db, req.actor, req.query.actionState);
      return ok({ list, count: list.length });
    },
  );
  app.post(
    '/api/frontend/customerset/labelcreate',
    {
      schema: {
        tags,
        summary: '新增标签或标签分组（pid=0）',
        body: labelBody,
        response: { 200: envelope(z.object({ cmClid: z.number() })) },
      },
      config: { menu: MENU },
    },
    async (req) => ok({ cmClid: await service.createLabel(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    '/api/frontend/customerset/labeledit',
    { schema: { tags, summary: '编辑标签', body: labelEditBody, response: { 200: okEnvelope } }, config: { menu: MENU } },
    async (req) => {
      await service.editLabel(app.db, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
  app.post(
    '/api/frontend/customerset/labeldel',
    { schema: { tags, summary: '删除标签', body: idBody, response: { 200: okEnvelope } }, config: { menu: MENU } },
    async (req) => {
      await service.deleteLabel(app.db, req.actor, req.body.id);
      return ok(null, '删除成功');
    },
  );
};
