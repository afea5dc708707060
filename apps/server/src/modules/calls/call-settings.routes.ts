import {
  type CallSettingsInfo,
  callSettingsSaveBody,
  callSettingsSchema,
  envelope,
  okEnvelope,
  testCallBody,
  testCallQuery,
  testCallStarted,
  testCallStatusSchema,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import type { Speech } from '../../telephony/tts';
import type { CallRuntime } from './call-bus';
import * as repo from './calls.repo';
import { callSettingsOf } from './dial-policy';
import { startTestCall, testCallStatus } from './test-call';

const MENU = '/call/setting';
const tags = ['callsetting'];
/** 线路测试 places real calls: a few a minute per company (one at a time besides) */
const TEST_CALLS_PER_MINUTE = 6;

/** 外呼设置 (issues 12, 15): the company's calling rules (hours, caps, 禁拨 retention), and 线路测试; the admin's page only. */
export const callSettingsRoutes =
  (rt: CallRuntime, speech: Speech): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/frontend/callsetting/info',
      { schema: { tags, summary: '外呼设置', response: { 200: envelope(callSettingsSchema) } }, config: { menu: MENU } },
      async (req) => {
        const settings = await callSettingsOf(rt.db, req.actor.tenantId);
        const info: CallSettingsInfo = { ...settings, line: rt.line.name, isSpeechAvailable: speech.isAvailable };
        return ok(info);
      },
    );
    app.post(
      '/api/frontend/callsetting/save',
      {
        schema: { tags, summary: '保存外呼设置', body: callSettingsSaveBody, response: { 200: okEnvelope } },
        config: { menu: MENU },
      },
      async (req) => {
        const { callHours, ...rest } = req.body;
        await repo.upsertCallSettings(rt.db, req.actor.tenantId, {
          ...rest,
          callHoursFrom: callHours.from,
          callHoursTo: callHours.to,
        });
        return ok(null, '保存成功');
      },
    );
    app.post(
      '/api/frontend/callsetting/testcall',
      {
        schema: { tags, summary: '线路测试：试呼', body: testCallBody, response: { 200: envelope(testCallStarted) } },
        config: {
          menu: MENU,
          rateLimit: {
            max: TEST_CALLS_PER_MINUTE,
            timeWindow: '1 minute',
            // after the auth hook (route hooks run after the app's): one budget per company
            keyGenerator: (req) => `testcall:${req.actor?.tenantId ?? req.ip}`,
          },
        },
      },
      async (req) =>
        ok(await startTestCall(rt, speech, req.actor, req.body, (err) => app.log.error({ err }, 'test call failed')), '呼叫中'),
    );
    app.get(
      '/api/frontend/callsetting/testcall',
      {
        schema: {
          tags,
          summary: '线路测试：通话进度',
          querystring: testCallQuery,
          response: { 200: envelope(testCallStatusSchema) },
        },
        config: { menu: MENU },
      },
      async (req) => ok(await testCallStatus(rt, req.actor, req.query.uuid)),
    );
  };
