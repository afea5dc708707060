import fs from 'node:fs';
import path from 'node:path';
import { ERRORS } from '@crm/contracts';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Serves the built SPA; unknown non-API paths get index.html (history mode, SPEC §2). */
export const spaPlugin = fp(async (app: FastifyInstance, opts: { webDist: string }) => {
  const index = path.join(opts.webDist, 'index.html');
  const hasSpa = fs.existsSync(index);
  if (hasSpa) {
    await app.register(fastifyStatic, { root: opts.webDist, wildcard: false, index: false, maxAge: '1h' });
  }
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || req.method !== 'GET' || !hasSpa) {
      return reply.status(404).send({ code: ERRORS.NOT_FOUND.code, msg: '接口不存在', data: null });
    }
    return reply.type('text/html').header('Cache-Control', 'no-cache').send(fs.createReadStream(index));
  });
});
