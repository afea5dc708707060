import { createHash, timingSafeEqual } from 'node:crypto';
import {
  adjustBody,
  envelope,
  okEnvelope,
  operatorRechargeBody,
  operatorRechargeResult,
  planAssignBody,
  ratePlanBody,
  ratePlanSchema,
  rerateBody,
  rerateResult,
} from '@crm/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error';
import { ok } from '../../lib/reply';
import * as service from './billing.service';
import type { Notifier } from './ledger';

const tags = ['billing-operator'];
const P = '/api/operator/billing';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The platform operator's API (issue 27): recharges, rate plans, assignments, adjustments and
 * re-rating. Not a company user's: no login token, the header `x-operator-token` must equal
 * BILLING_OPERATOR_TOKEN (compared in constant time); an empty setting turns the API off.
 */
export const billingOperatorRoutes =
  (token: string, bus: () => Notifier | undefined): FastifyPluginAsyncZod =>
  async (app) => {
    const config = { isPublic: true };
    const guard = async (req: FastifyRequest) => {
      const given = req.headers['x-operator-token'];
      const isOk = token !== '' && typeof given === 'string' && timingSafeEqual(digest(given), digest(token));
      if (!isOk) throw new AppError('BILLING_OPERATOR_ONLY');
    };
    app.post(
      `${P}/recharge`,
      {
        config,
        preHandler: guard,
        schema: {
          tags,
          summary: '充值（平台运营）',
          body: operatorRechargeBody,
          response: { 200: envelope(operatorRechargeResult) },
        },
      },
      async (req) => ok(await service.recharge(app.db, req.body), '充值成功'),
    );
    app.get(
      `${P}/plans`,
      {
        config,
        preHandler: guard,
        schema: { tags, summary: '资费方案列表', response: { 200: envelope(z.array(ratePlanSchema)) } },
      },
      async () => ok(await service.listPlans(app.db)),
    );
    app.post(
      `${P}/plans`,
      {
        config,
        preHandler: guard,
        schema: { tags, summary: '新建资费方案', body: ratePlanBody, response: { 200: envelope(z.object({ id: z.number() })) } },
      },
      async (req) => ok({ id: await service.createPlan(app.db, req.body) }, '添加成功'),
    );
    app.post(
      `${P}/assign`,
      {
        config,
        preHandler: guard,
        schema: { tags, summary: '为企业指定资费方案', body: planAssignBody, response: { 200: okEnvelope } },
      },
      async (req) => {
        await service.assignPlan(app.db, req.body);
        return ok(null, '设置成功');
      },
    );
    app.post(
      `${P}/adjust`,
      {
        config,
        preHandler: guard,
        schema: { tags, summary: '余额调整', body: adjustBody, response: { 200: envelope(z.object({ balance: z.number() })) } },
      },
      async (req) => ok(await service.adjust(app.db, req.body, bus()), '调整成功'),
    );
    app.post(
      `${P}/rerate`,
      {
        config,
        preHandler: guard,
        schema: { tags, summary: '按当前资费重新计费（记入调整）', body: rerateBody, response: { 200: envelope(rerateResult) } },
      },
      async (req) => ok(await service.rerate(app.db, req.body, bus()), '重新计费完成'),
    );
  };
