import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Request ids (issue 25): an incoming X-Request-Id is kept when sane, else one is made; every log line and the answer carry it. */

export const REQUEST_ID_HEADER = 'x-request-id';
/** what a proxy or a client may hand us: letters, digits and a few separators, at most 128 */
const SANE_ID = /^[\w.:@/+=-]{1,128}$/;

/** Fastify's genReqId: the caller's X-Request-Id when sane (nginx's $request_id, a client's trace id), else a UUID. */
export const genRequestId = (req: IncomingMessage): string => {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SANE_ID.test(incoming) ? incoming : randomUUID();
};

/** Echoes the request id in the answer's X-Request-Id header (errors and 404s included). */
export const requestIdPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (req, reply) => {
    reply.header(REQUEST_ID_HEADER, req.id);
  });
});
