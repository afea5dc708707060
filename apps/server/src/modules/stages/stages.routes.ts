import { envelope, idBody, listOf, okEnvelope, stageBody, stageEditBody, stageListQuery, stageSchema } from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import * as service from './stages.service';

const MENU = '/set/node';
const tags = ['stages'];

export const stagesRoutes: FastifyPluginAsyncZod = async (app) => {
  // Read by every customer screen (stage bar, filters), so no menu is required.
  app.get(
    '/api/frontend/customerset/nodelist',
    { schema: { tags, summary: '阶段列表', querystring: stageListQuery, response: { 200: envelope(listOf(stageSchema)) } } },
    async (req) => {
      const list = await service.listStages(app.db, req.actor, req.query.actionState);
      return ok({ list, count: list.length });
    },
  );
  app.post(
    '/api/frontend/customerset/nodecreate',
    {
      schema: { tags, summary: '新增阶段', body: stageBody, response: { 200: envelope(z.object({ cmNid: z.number() })) } },
      config: { menu: MENU },
    },
    async (req) => ok({ cmNid: await service.createStage(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    '/api/frontend/customerset/nodeedit',
    { schema: { tags, summary: '编辑阶段', body: stageEditBody, response: { 200: okEnvelope } }, config: { menu: MENU } },
    async (req) => {
      await service.editStage(app.db, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
  app.post(
    '/api/frontend/customerset/nodedel',
    { schema: { tags, summary: '删除阶段', body: idBody, response: { 200: okEnvelope } }, config: { menu: MENU } },
    async (req) => {
      await service.deleteStage(app.db, req.actor, req.body.id);
      return ok(null, '删除成功');
    },
  );
};
