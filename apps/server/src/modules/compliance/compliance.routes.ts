import {
  countEnvelope,
  dialRefusalListQuery,
  dialRefusalSchema,
  dialRefusalStatSchema,
  dncAddBody,
  dncAddFromCallBody,
  dncDelBody,
  dncEntrySchema,
  dncListQuery,
  envelope,
  idEnvelope,
  listOf,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import { listRefusals, refusalStat } from './dial-refusals';
import { addFromCall, addManual, deleteDoNotCall, listDoNotCall } from './dnc.service';

/** Application 6 (号码黑名单): 601 禁拨名单 and 602 外呼拦截记录 (issue 15). */
const DNC_MENU = '/blacklist/dnc';
const REFUSALS_MENU = '/blacklist/refusals';
/** 加入禁拨 is also a row action of the call records */
const FROM_CALL_MENUS = [DNC_MENU, '/call/record'];
const tags = ['dnc'];

export const complianceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/frontend/dnc/list',
    {
      schema: { tags, summary: '禁拨名单', querystring: dncListQuery, response: { 200: envelope(listOf(dncEntrySchema)) } },
      config: { menu: DNC_MENU },
    },
    async (req) => ok(await listDoNotCall(app.db, req.actor, req.query)),
  );
  app.post(
    '/api/frontend/dnc/add',
    {
      schema: { tags, summary: '添加禁拨号码', body: dncAddBody, response: { 200: idEnvelope('id') } },
      config: { menu: DNC_MENU },
    },
    async (req) => ok({ id: await addManual(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    '/api/frontend/dnc/addfromcall',
    {
      schema: { tags, summary: '通话记录的号码加入禁拨', body: dncAddFromCallBody, response: { 200: idEnvelope('id') } },
      config: { menu: FROM_CALL_MENUS },
    },
    async (req) => ok({ id: await addFromCall(app.db, req.actor, req.body) }, '已加入禁拨名单'),
  );
  app.post(
    '/api/frontend/dnc/del',
    {
      schema: { tags, summary: '删除禁拨号码', body: dncDelBody, response: { 200: countEnvelope } },
      config: { menu: DNC_MENU },
    },
    async (req) => {
      await deleteDoNotCall(app.db, req.actor, req.body.id);
      return ok({ count: 1 }, '删除成功');
    },
  );
  app.get(
    '/api/frontend/dnc/refusals',
    {
      schema: {
        tags,
        summary: '外呼拦截记录',
        querystring: dialRefusalListQuery,
        response: { 200: envelope(listOf(dialRefusalSchema)) },
      },
      config: { menu: REFUSALS_MENU },
    },
    async (req) => ok(await listRefusals(app.db, req.actor, req.query)),
  );
  app.get(
    '/api/frontend/dnc/refusalstat',
    {
      schema: { tags, summary: '外呼拦截：近7天按原因统计', response: { 200: envelope(dialRefusalStatSchema) } },
      config: { menu: REFUSALS_MENU },
    },
    async (req) => ok(await refusalStat(app.db, req.actor)),
  );
};
