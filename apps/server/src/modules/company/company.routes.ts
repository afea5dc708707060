import { companyEditBody, companyModulesBody, companyModulesSchema, companySchema, envelope, okEnvelope } from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import * as service from './company.service';
import { companyModules, saveCompanyModules } from './company-modules';

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
  app.get(
    '/api/frontend/company/modules',
    {
      schema: { tags, summary: '企业模块开关（订单、回款、工单）', response: { 200: envelope(companyModulesSchema) } },
      config: { menu: MENU },
    },
    async (req) => ok(await companyModules(app.db, req.actor.tenantId)),
  );
  app.post(
    '/api/frontend/company/modulesave',
    {
      schema: { tags, summary: '保存企业模块开关', body: companyModulesBody, response: { 200: okEnvelope } },
      config: { menu: MENU },
    },
    async (req) => {
      await saveCompanyModules(app.db, req.actor.tenantId, req.body);
      return ok(null, '保存成功');
    },
  );
};
