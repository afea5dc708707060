import {
  aicallCallRowSchema,
  aicallCallsBody,
  aicallInfoSchema,
  aicallTranscriptQuery,
  aicallTranscriptSchema,
  envelope,
  fileResponse,
  listOf,
  qId,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import type { CallRuntime } from '../calls/call-bus';
import * as service from './aicall-calls';
import { AICALL_MENUS } from './aicall-menus';
import { transcriptOf } from './aicall-transcript';
import { wireBotEvents } from './bot/bot-events';

const tags = ['aicall'];
const P = '/api/frontend/aicall';
/** AI外呼任务 (300) or AI接待记录 (400): both show AI calls and their detail. */
const config = { menu: AICALL_MENUS };
const idQuery = z.object({ id: qId() });

/**
 * The AI calls (issue 16): lists of either source, the SPEC §3 detail, each turn's clip and the
 * whole recording (audio/wav, under the same access as the detail); the transcript of a call handed
 * to an agent (转人工: no menu, the agent rung for it may read it; aicall-transcript.ts). Also wires
 * the leg events into the running bot calls.
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
      `${P}/transcript`,
      {
        schema: {
          tags,
          summary: 'AI对话记录（转人工的坐席或可看AI通话详情者）',
          querystring: aicallTranscriptQuery,
          response: { 200: envelope(aicallTranscriptSchema) },
        },
      },
      async (req) => ok(await transcriptOf(rt, req.actor, req.query.uuid)),
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
