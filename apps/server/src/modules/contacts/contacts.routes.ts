import {
  contactBody,
  contactDelBody,
  contactEditBody,
  contactListQuery,
  contactSchema,
  envelope,
  idEnvelope,
  listOf,
  okEnvelope,
  phoneRevealQuery,
  phoneRevealSchema,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import { CUSTOMER_MENUS } from '../customers/customers.routes';
import * as service from './contacts.service';

const tags = ['contacts'];

export const contactsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/frontend/customer/other/phone',
    {
      schema: {
        tags,
        summary: '联系电话列表',
        querystring: contactListQuery,
        response: { 200: envelope(listOf(contactSchema)) },
      },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => ok(await service.listContacts(app.db, req.actor, req.query)),
  );
  app.post(
    '/api/frontend/customer/other/phonecreate',
    {
      schema: { tags, summary: '添加联系电话', body: contactBody, response: { 200: idEnvelope('ccId') } },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => ok({ ccId: await service.createContact(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    '/api/frontend/customer/other/phoneedit',
    {
      schema: { tags, summary: '编辑联系电话', body: contactEditBody, response: { 200: okEnvelope } },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => {
      await service.editContact(app.db, req.actor, req.body);
      return ok(null, '添加/更新成功！');
    },
  );
  app.post(
    '/api/frontend/customer/other/phonedel',
    {
      schema: { tags, summary: '删除联系电话', body: contactDelBody, response: { 200: okEnvelope } },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => {
      await service.deleteContact(app.db, req.actor, req.body.ccId);
      return ok(null, '删除成功');
    },
  );
  app.get(
    '/api/frontend/customer/phone',
    {
      schema: {
        tags,
        summary: '查看完整号码（计入每日次数）',
        querystring: phoneRevealQuery,
        response: { 200: envelope(phoneRevealSchema) },
      },
      config: { menu: CUSTOMER_MENUS },
    },
    async (req) => ok(await service.revealPhone(app.db, req.actor, req.query)),
  );
};
