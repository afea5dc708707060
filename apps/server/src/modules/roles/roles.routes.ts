import {
  ACTIONS,
  envelope,
  idBody,
  LIVE_APPLICATIONS,
  listOf,
  okEnvelope,
  roleBody,
  roleEditBody,
  roleMenusSchema,
  roleSchema,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import * as service from './roles.service';

const MENU = '/account/rolemanager';
const tags = ['roles'];

export const rolesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/frontend/role/list',
    {
      schema: { tags, summary: '角色列表', response: { 200: envelope(listOf(roleSchema)) } },
      config: { menu: [MENU, '/account/staff'] },
    },
    async (req) => {
      const list = await service.listRoles(app.db, req.actor);
      return ok({ list, count: list.length });
    },
  );
  app.get(
    '/api/frontend/role/menus',
    {
      schema: { tags, summary: '可分配的应用、菜单与操作权限', response: { 200: envelope(roleMenusSchema) } },
      config: { menu: MENU },
    },
    async () => ok({ applications: LIVE_APPLICATIONS, actions: ACTIONS }),
  );
  app.post(
    '/api/frontend/role/create',
    {
      schema: { tags, summary: '新增角色', body: roleBody, response: { 200: envelope(z.object({ cmArid: z.number() })) } },
      config: { menu: MENU },
    },
    async (req) => ok({ cmArid: await service.createRole(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    '/api/frontend/role/edit',
    { schema: { tags, summary: '编辑角色', body: roleEditBody, response: { 200: okEnvelope } }, config: { menu: MENU } },
    async (req) => {
      await service.editRole(app.db, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
  app.post(
    '/api/frontend/role/del',
    { schema: { tags, summary: '删除角色', body: idBody, response: { 200: okEnvelope } }, config: { menu: MENU } },
    async (req) => {
      await service.deleteRole(app.db, req.actor, req.body.id);
      return ok(null, '删除成功');
    },
  );
};
