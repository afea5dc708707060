import { ERRORS } from '@crm/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error';

/**
 * PostgreSQL's data exceptions (SQLSTATE class 22: a number beyond the column's range, NUL or a
 * byte sequence it cannot store, a malformed date) and a stack overflow while reading deep input are
 * the client's input, not a server fault. Drivers and Drizzle may wrap the error: follow `cause`.
 */
const refusedByDatabase = (err: unknown): 'INPUT_UNSTORABLE_TEXT' | 'INPUT_OUT_OF_RANGE' | 'INPUT_TOO_DEEP' | null => {
  for (let e = err, i = 0; e && typeof e === 'object' && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) return 'INPUT_TOO_DEEP';
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) continue;
    if (code === '22021' || code === '22P05') return 'INPUT_UNSTORABLE_TEXT';
    if (code.startsWith('22') || code === '54001') return 'INPUT_OUT_OF_RANGE';
  }
  return null;
};

/**
 * The web client asks (this header) for business refusals in the envelope alone, as SPEC §7/§8 carry
 * errors (`code` not 0 with its `msg`): HTTP 200, so the browser does not log each expected refusal
 * (a duplicate number, a claim in cooldown, a form message) as a failed resource load (issue 23).
 * Other clients, and the tests, get the refusal's HTTP status. The session's 401, rate limits and
 * server faults keep their status for everyone.
 */
export const REFUSAL_IN_BODY_HEADER = 'x-refusal-in-body';
const BODY_CARRIED_STATUSES = new Set([400, 403, 404, 409]);

/** One error handler: AppError → its table entry; validation → first message; the rest hide details. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    // A handler may have set another type (the SPA's text/html) before failing: the envelope is JSON.
    reply.type('application/json; charset=utf-8');
    const isInBody = req.headers[REFUSAL_IN_BODY_HEADER] === '1';
    const refuse = (status: number, body: { code: number; msg: string; data: unknown }) => {
      if (!isInBody || !BODY_CARRIED_STATUSES.has(status)) return reply.status(status).send(body);
      // the route's 200 schema describes its success: the refusal's envelope is sent as it is
      return reply.status(200).serializer(JSON.stringify).send(body);
    };
    if (err instanceof AppError) {
      return refuse(err.status, { code: err.code, msg: err.message, data: err.data ?? null });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const message = first?.message && /[\u4e00-\u9fa5]/.test(first.message) ? first.message : ERRORS.VALIDATION.msg;
      return refuse(400, {
        code: ERRORS.VALIDATION.code,
        msg: message,
        data: { fields: err.validation.map((v) => ({ path: v.instancePath, message: v.message })) },
      });
    }
    if (err.statusCode === 429) {
      return reply.status(429).send({ code: ERRORS.RATE_LIMITED.code, msg: ERRORS.RATE_LIMITED.msg, data: null });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      req.log.info({ err }, 'client error');
      return refuse(err.statusCode, { code: ERRORS.VALIDATION.code, msg: ERRORS.VALIDATION.msg, data: null });
    }
    const refused = refusedByDatabase(err);
    if (refused) {
      // Last line of defence: the contracts and the input guard should have refused this already.
      req.log.warn({ err, url: req.url }, 'database refused the request input');
      const entry = ERRORS[refused];
      return refuse(entry.status, { code: entry.code, msg: entry.msg, data: null });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: ERRORS.INTERNAL.code, msg: ERRORS.INTERNAL.msg, data: null });
  });
});
