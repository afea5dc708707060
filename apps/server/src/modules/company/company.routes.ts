import { companyEditBody, companySchema, envelope, okEnvelope } from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import * as service from './company.service';

const MENU = '/account/info';
const tags = ['company'];

export const companyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/frontend/company/info',
    { schema: { tags, summary: '企业资料', response: { 200: envelope(companySchema) } }, config: { menu: MENU } },
    async (req) => ok(await service.companyInfo(app.db, req.actor)),
  );
  app.post(
    '/api/frontend/company/edit',
    { schema: { tags, summary: '修改企业资料', body: companyEditBody, response: { 200: okEnvelope } }, config: { menu: MENU } },
    async (req) => {
      await service.editCompany(app.db, req.actor, req.body);
      return ok(null, '保存成功');
    },
  );
};
