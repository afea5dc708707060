import {
  callListBody,
  callRecordRowSchema,
  deviceDialBody,
  dialBody,
  dialResponseSchema,
  directDialResponseSchema,
  envelope,
  hangupBody,
  listOf,
  missedCallCount,
  okEnvelope,
  seatsStatSchema,
  simIncomingBody,
  simIncomingResponseSchema,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import type { CallRuntime } from './call-bus';
import { deviceDial, dial } from './calls-dial';
import { simulateIncoming } from './calls-incoming';
import { answer, hangup } from './calls-lifecycle';
import { listCalls, seatsStat } from './calls-records';
import * as missed from './missed-calls';

const tags = ['calls'];

/** Dialing is open to every account (the header's dialler, SPEC §6); lists follow their menus. */
export const callsRoutes =
  (rt: CallRuntime): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/frontend/call/dial',
      { schema: { tags, summary: '分机外呼（普通账号）', body: dialBody, response: { 200: envelope(dialResponseSchema) } } },
      async (req) => ok(await dial(rt, req.actor, req.body), '呼叫中'),
    );
    app.post(
      '/api/frontend/call/hangup',
      { schema: { tags, summary: '挂断（拨号 2 秒后）', body: hangupBody, response: { 200: okEnvelope } } },
      async (req) => {
        await hangup(rt, req.actor, req.body);
        return ok(null, '已挂断');
      },
    );
    app.post(
      '/api/frontend/call/answer',
      { schema: { tags, summary: '接听来电', body: hangupBody, response: { 200: okEnvelope } } },
      async (req) => {
        await answer(rt, req.actor, req.body);
        return ok(null, '已接听');
      },
    );
    app.post(
      '/api/callend/phone/dial',
      {
        schema: {
          tags,
          summary: '设备外呼（商户号，sourceType 2）',
          body: deviceDialBody,
          response: { 200: envelope(directDialResponseSchema) },
        },
      },
      async (req) => ok(await deviceDial(rt, req.actor, req.body), '呼叫中'),
    );
    app.post(
      '/api/callend/phone/hangup',
      { schema: { tags, summary: '设备挂断', body: hangupBody, response: { 200: okEnvelope } } },
      async (req) => {
        await hangup(rt, req.actor, req.body);
        return ok(null, '已挂断');
      },
    );
    app.post(
      '/api/frontend/call/list',
      {
        schema: { tags, summary: '通话记录', body: callListBody, response: { 200: envelope(listOf(callRecordRowSchema)) } },
        config: { menu: '/call/record' },
      },
      async (req) => ok(await listCalls(rt, req.actor, req.body)),
    );
    app.post(
      '/api/frontend/call/simincoming',
      {
        schema: {
          tags,
          summary: '模拟来电（仅 sim 线路）',
          body: simIncomingBody,
          response: { 200: envelope(simIncomingResponseSchema) },
        },
        config: { menu: '/call/sip' },
      },
      async (req) => ok(await simulateIncoming(rt, req.actor, req.body), '来电已发起'),
    );
    // SPEC §2: the call button's badge counts the agent's missed incoming calls until he has seen them
    app.get(
      '/api/frontend/call/missedcount',
      { schema: { tags, summary: '未读未接来电数', response: { 200: envelope(missedCallCount) } } },
      async (req) => ok({ count: await missed.unseenMissedCalls(app.db, req.actor) }),
    );
    app.post(
      '/api/frontend/call/missedseen',
      { schema: { tags, summary: '未接来电标为已读', response: { 200: okEnvelope } } },
      async (req) => {
        await missed.markMissedCallsSeen(app.db, req.actor);
        return ok(null);
      },
    );
    app.get(
      '/api/frontend/seats/stat',
      {
        schema: { tags, summary: '坐席工作台数据', response: { 200: envelope(seatsStatSchema) } },
        config: { menu: '/seats/Index' },
      },
      async (req) => ok(await seatsStat(rt, req.actor)),
    );
  };
