import { departmentBody, departmentEditBody, departmentNodeSchema, envelope, idBody, okEnvelope } from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import * as service from './departments.service';

const MENU = '/account/divisional';
const tags = ['departments'];

export const departmentsRoutes: FastifyPluginAsyncZod = async (app) => {
  // The tree is also read by the staff page and by every department filter.
  app.get(
    '/api/frontend/department/list',
    { schema: { tags, summary: '部门树', response: { 200: envelope(z.object({ list: z.array(departmentNodeSchema) })) } } },
    async (req) => ok({ list: await service.departmentTree(app.db, req.actor) }),
  );
  app.post(
    '/api/frontend/department/create',
    {
      schema: { tags, summary: '新增部门', body: departmentBody, response: { 200: envelope(z.object({ cmDid: z.number() })) } },
      config: { menu: MENU },
    },
    async (req) => ok({ cmDid: await service.createDepartment(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    '/api/frontend/department/edit',
    { schema: { tags, summary: '编辑部门', body: departmentEditBody, response: { 200: okEnvelope } }, config: { menu: MENU } },
    async (req) => {
      await service.editDepartment(app.db, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
  app.post(
    '/api/frontend/department/del',
    { schema: { tags, summary: '删除部门', body: idBody, response: { 200: okEnvelope } }, config: { menu: MENU } },
    async (req) => {
      await service.deleteDepartment(app.db, req.actor, req.body.id);
      return ok(null, '删除成功');
    },
  );
};
