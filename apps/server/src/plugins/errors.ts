import { ERRORS } from '@crm/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../lib/app-error';

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
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ code: ERRORS.INTERNAL.code, msg: ERRORS.INTERNAL.msg, data: null });
  });
});
