import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SipCallEvent, SipProvider } from '../../telephony/sip/sip-provider';
import type { CallRuntime } from './call-bus';
import { sipInbound, sipPasswordOf } from './calls-sip';

const authBody = z.object({ user: z.string().min(1).max(64) });
const routeBody = z.object({ uuid: z.string().min(1).max(64), agent: z.string().max(64).default('') });
const inboundBody = z.object({
  user: z.string().min(1).max(64),
  from: z.string().max(64).default(''),
  callId: z.string().max(256).default(''),
  cseq: z.string().max(16).default(''),
});
const eventBody = z.object({
  event: z.enum(['ringing', 'answered', 'ended', 'failed']),
  callUuid: z.string().max(64).default(''),
  callId: z.string().max(256).default(''),
  cseq: z.string().max(16).optional(),
  fromTag: z.string().max(128).optional(),
  toTag: z.string().max(128).optional(),
  sipStatus: z.union([z.string(), z.number()]).optional(),
  byAgent: z.union([z.string(), z.number()]).optional(),
});

const isSecretOk = (given: unknown, secret: string) => {
  if (typeof given !== 'string' || !secret) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * The sip line's internal API (TELEPHONY=sip): Kamailio asks for an extension's password, the real
 * number behind a call uuid and the extension an incoming call rings, and reports dialog events.
 * Only callers holding SIP_INTERNAL_SECRET (header X-Telephony-Secret) get an answer; outside /api,
 * so no user token is involved.
 */
export const registerTelephonyInternal = (app: FastifyInstance, rt: CallRuntime, line: SipProvider) => {
  const secret = rt.config.sip.internalSecret;
  const guard = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!isSecretOk(req.headers['x-telephony-secret'], secret)) return reply.code(403).send({ error: 'forbidden' });
  };
  const opts = { preHandler: guard, schema: { hide: true } };

  app.post('/internal/telephony/auth', opts, async (req, reply) => {
    const body = authBody.safeParse(req.body);
    const password = body.success ? await sipPasswordOf(rt, body.data.user) : undefined;
    if (password === undefined) return reply.code(404).send({ error: 'unknown extension' });
    return { password };
  });
  app.post('/internal/telephony/route', opts, async (req, reply) => {
    const body = routeBody.safeParse(req.body);
    const number = body.success ? await line.routeOf(body.data.uuid, body.data.agent) : undefined;
    if (!number) return reply.code(404).send({ error: 'unknown call' });
    return { number };
  });
  app.post('/internal/telephony/inbound', opts, async (req, reply) => {
    const body = inboundBody.safeParse(req.body);
    if (!body.success) return reply.code(400).send({ error: 'bad request' });
    const r = await sipInbound(rt, body.data.user, body.data.from, line.openInbound);
    if (r === 'busy') return reply.code(486).send({ error: 'busy' });
    if (!r) return reply.code(404).send({ error: 'not available' });
    await line.report({ event: 'ringing', callUuid: r.uuid, callId: body.data.callId, cseq: body.data.cseq });
    return r;
  });
  app.post('/internal/telephony/event', opts, async (req, reply) => {
    const body = eventBody.safeParse(req.body);
    if (!body.success) return reply.code(400).send({ error: 'bad request' });
    const e = body.data;
    await line.report({ ...e, sipStatus: e.sipStatus === undefined ? undefined : String(e.sipStatus) } as SipCallEvent);
    return { ok: true };
  });
};
