import {
  customerStageBody,
  envelope,
  followCreateBody,
  followDelBody,
  followListQuery,
  followRecordSchema,
  idEnvelope,
  listOf,
  okEnvelope,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import { CUSTOMER_MENUS } from '../customers/customers.routes';
import * as service from './follow-ups.service';

const tags = ['follow-ups'];

export const followUpsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/frontend/customer/followcreate',
    {
      schema: { tags, summary: '写跟进', body: followCreateBody, response: { 200: idEnvelope('cmCtfid') } },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => ok({ cmCtfid: await service.createFollow(app.db, req.actor, req.body) }, '跟进成功'),
  );
  app.post(
    '/api/frontend/customer/followdel',
    {
      schema: { tags, summary: '删除跟进记录', body: followDelBody, response: { 200: okEnvelope } },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => {
      await service.deleteFollow(app.db, req.actor, req.body.cmCtfid);
      return ok(null, '删除成功');
    },
  );
  app.get(
    '/api/frontend/customer/followlist',
    {
      schema: {
        tags,
        summary: '跟进记录',
        querystring: followListQuery,
        response: { 200: envelope(listOf(followRecordSchema)) },
      },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => ok(await service.listFollows(app.db, req.actor, req.query)),
  );
  app.post(
    '/api/frontend/customer/stage',
    {
      schema: { tags, summary: '修改客户阶段（阶段条）', body: customerStageBody, response: { 200: okEnvelope } },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => {
      await service.changeStage(app.db, req.actor, req.body);
      return ok(null, '操作成功');
    },
  );
};
