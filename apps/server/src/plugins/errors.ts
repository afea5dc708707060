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

/** One error handler: AppError → its table entry; validation → first message; the rest hide details. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    // A handler may have set another type (the SPA's text/html) before failing: the envelope is JSON.
    reply.type('application/json; charset=utf-8');
    if (err instanceof AppError) {
      return reply.status(err.status).send({ code: err.code, msg: err.message, data: err.data ?? null });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const message = first?.message && /[\u4e00-\u9fa5]/.test(first.message) ? first.message : ERRORS.VALIDATION.msg;
      return reply.status(400).send({
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
      return reply.status(err.statusCode).send({ code: ERRORS.VALIDATION.code, msg: ERRORS.VALIDATION.msg, data: null });
    }
    const refused = refusedByDatabase(err);
    if (refused) {
      // Last line of defence: the contracts and the input guard should have refused this already.
      req.log.warn({ err, url: req.url }, 'database refused the request input');
      const entry = ERRORS[refused];
      return reply.status(entry.status).send({ code: entry.code, msg: entry.msg, data: null });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: ERRORS.INTERNAL.code, msg: ERRORS.INTERNAL.msg, data: null });
  });
});
