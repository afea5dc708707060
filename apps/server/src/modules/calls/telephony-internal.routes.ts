import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SipCallEvent, SipProvider } from '../../telephony/sip/sip-provider';
import { staffOfLoginName } from '../auth/auth.service';
import type { CallRuntime } from './call-bus';
import { bridgeLegs, hangupLeg, originateCustomerLeg, playInto } from './call-control';
import { decodeSamples } from './call-control-remote';
import { legsOfCall } from './call-legs.repo';
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

/** call control from the real-call test (e2e/sip/call-control.sip.spec.ts): the service's own operations */
const controlBody = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('originate'),
    username: z.string().min(1).max(64),
    number: z.string().min(1).max(32),
    ringSeconds: z.number().int().min(1).max(120).default(30),
  }),
  z.object({ op: z.literal('bridge'), legId: z.string().min(1).max(64), username: z.string().min(1).max(64) }),
  z.object({ op: z.literal('play'), legId: z.string().min(1).max(64), samples: z.string().max(2_000_000) }),
  z.object({ op: z.literal('hangup'), legId: z.string().min(1).max(64) }),
  z.object({ op: z.literal('legs'), callUuid: z.string().min(1).max(64) }),
]);

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
  /**
   * Call control by the real-call test (issue 12): originate a customer leg for a staff's company
   * (through the dial policy), bridge it to a staff's extension, play 8 kHz samples (base64 LE),
   * hang up, read a call's legs. Same secret as Kamailio's routes: nothing a browser can reach.
   */
  app.post('/internal/telephony/control', opts, async (req, reply) => {
    const body = controlBody.safeParse(req.body);
    if (!body.success) return reply.code(400).send({ error: 'bad request' });
    const c = body.data;
    const staffOf = async (username: string) => {
      const s = await staffOfLoginName(rt.db, username);
      if (!s) throw Object.assign(new Error('unknown staff'), { statusCode: 404 });
      return s;
    };
    switch (c.op) {
      case 'originate': {
        const s = await staffOf(c.username);
        return originateCustomerLeg(rt, { tenantId: s.tenantId, number: c.number, ringSeconds: c.ringSeconds });
      }
      case 'bridge':
        return { agentLegId: await bridgeLegs(rt, c.legId, (await staffOf(c.username)).id) };
      case 'play':
        return { result: await playInto(rt, c.legId, decodeSamples(c.samples)) };
      case 'hangup':
        return { ok: await hangupLeg(rt, c.legId) };
      case 'legs':
        return { legs: await legsOfCall(rt.db, c.callUuid) };
    }
  });
  app.post('/internal/telephony/event', opts, async (req, reply) => {
    const body = eventBody.safeParse(req.body);
    if (!body.success) return reply.code(400).send({ error: 'bad request' });
    const e = body.data;
    await line.report({ ...e, sipStatus: e.sipStatus === undefined ? undefined : String(e.sipStatus) } as SipCallEvent);
    return { ok: true };
  });
};
