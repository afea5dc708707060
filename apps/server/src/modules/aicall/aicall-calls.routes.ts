import { aicallCallRowSchema, aicallCallsBody, aicallInfoSchema, envelope, fileResponse, listOf, qId } from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import type { CallRuntime } from '../calls/call-bus';
import * as service from './aicall-calls';
import { wireBotEvents } from './bot/bot-events';

const tags = ['aicall'];
const P = '/api/frontend/aicall';
/** AI外呼任务 (300) or AI接待记录 (400): both show AI calls and their detail. */
const config = { menu: service.AICALL_MENUS };
const idQuery = z.object({ id: qId() });

/**
 * The AI calls (issue 16): lists of either source, the SPEC §3 detail, each turn's clip and the
 * whole recording (audio/wav, under the same access as the detail). Also wires the leg events into
 * the running bot calls.
 */
export const aicallCallsRoutes =
  (rt: CallRuntime): FastifyPluginAsyncZod =>
  async (app) => {
    wireBotEvents();
    app.post(
      `${P}/calls`,
      {
        schema: {
          tags,
          summary: 'AI通话记录（外呼任务或接待）',
          body: aicallCallsBody,
          response: { 200: envelope(listOf(aicallCallRowSchema)) },
        },
        config,
      },
      async (req) => ok(await service.listAiCallRows(rt, req.actor, req.body)),
    );
    app.get(
      `${P}/info`,
      {
        schema: {
          tags,
          summary: 'AI通话详情（对话与录音）',
          querystring: idQuery,
          response: { 200: envelope(aicallInfoSchema) },
        },
        config,
      },
      async (req) => ok(await service.aiCallInfo(rt, req.actor, req.query.id)),
    );
    app.get(
      `${P}/clip`,
      {
        schema: {
          tags,
          summary: 'AI通话某一句的录音（wav）',
          querystring: z.object({ id: qId(), turn: z.coerce.number().int().min(0).max(10_000) }),
          response: { 200: fileResponse },
        },
        config,
      },
      async (req, reply) => {
        const wav = await service.aiCallClip(rt, req.actor, req.query.id, req.query.turn);
        reply.header('Content-Type', 'audio/wav');
        reply.header('Cache-Control', 'private, max-age=86400');
        return reply.send(wav);
      },
    );
    app.get(
      `${P}/recording`,
      {
        schema: { tags, summary: 'AI通话完整录音（wav）', querystring: idQuery, response: { 200: fileResponse } },
        config,
      },
      async (req, reply) => {
        const wav = await service.aiCallRecording(rt, req.actor, req.query.id);
        reply.header('Content-Type', 'audio/wav');
        reply.header('Cache-Control', 'private, max-age=86400');
        return reply.send(wav);
      },
    );
  };
