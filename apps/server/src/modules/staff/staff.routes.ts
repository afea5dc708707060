import {
  envelope,
  idBody,
  listOf,
  okEnvelope,
  staffCreateBody,
  staffEditBody,
  staffListQuery,
  staffOptionSchema,
  staffResetPasswordBody,
  staffSchema,
  staffStateBody,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import * as service from './staff.service';

const MENU = '/account/staff';
const tags = ['staff'];

export const staffRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/frontend/staff/list',
    {
      schema: { tags, summary: '员工列表', querystring: staffListQuery, response: { 200: envelope(listOf(staffSchema)) } },
      config: { menu: MENU },
    },
    async (req) => ok(await service.listStaff(app.db, req.actor, req.query)),
  );
  app.get(
    '/api/frontend/staff/options',
    {
      schema: {
        tags,
        summary: '员工选择（数据范围内，最多100条）',
        querystring: z.object({ linkman: z.string().max(20).default('') }),
        response: { 200: envelope(listOf(staffOptionSchema)) },
      },
    },
    async (req) => {
      const list = await service.staffOptions(app.db, req.actor, req.query.linkman);
      return ok({ list, count: list.length });
    },
  );
  app.post(
    '/api/frontend/staff/create',
    {
      schema: { tags, summary: '新增员工', body: staffCreateBody, response: { 200: envelope(z.object({ cmSid: z.number() })) } },
      config: { menu: MENU },
    },
    async (req) => ok({ cmSid: await service.createStaff(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    '/api/frontend/staff/edit',
    { schema: { tags, summary: '编辑员工', body: staffEditBody, response: { 200: okEnvelope } }, config: { menu: MENU } },
    async (req) => {
      await service.editStaff(app.db, app.calls.bus, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
  app.post(
    '/api/frontend/staff/state',
    { schema: { tags, summary: '启用/禁用员工', body: staffStateBody, response: { 200: okEnvelope } }, config: { menu: MENU } },
    async (req) => {
      await service.setStaffState(app.db, app.calls.bus, req.actor, req.body.cmSid, req.body.actionState);
      return ok(null, '操作成功');
    },
  );
  app.post(
    '/api/frontend/staff/resetpwd',
    {
      schema: { tags, summary: '重置员工密码', body: staffResetPasswordBody, response: { 200: okEnvelope } },
      config: { menu: MENU },
    },
    async (req) => {
      await service.resetStaffPassword(app.db, app.calls.bus, req.actor, req.body.cmSid, req.body.password);
      return ok(null, '密码已重置');
    },
  );
  app.post(
    '/api/frontend/staff/del',
    { schema: { tags, summary: '删除员工', body: idBody, response: { 200: okEnvelope } }, config: { menu: MENU } },
    async (req) => {
      await service.deleteStaff(app.db, app.calls.bus, req.actor, req.body.id);
      return ok(null, '删除成功');
    },
  );
};
