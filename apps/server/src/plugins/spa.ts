import fs from 'node:fs';
import path from 'node:path';
import { ERRORS } from '@crm/contracts';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Serves the built SPA; unknown non-API paths get index.html (history mode, SPEC §2). */
export const spaPlugin = fp(async (app: FastifyInstance, opts: { webDist: string }) => {
  const index = path.join(opts.webDist, 'index.html');
  const hasSpa = fs.existsSync(index);
  if (hasSpa) {
    const assets = path.join(opts.webDist, 'assets') + path.sep;
    await app.register(fastifyStatic, {
      root: opts.webDist,
      // files are looked up per request (not listed once at start): a rebuild while the server runs
      // serves its new hashed files instead of 404s under the new index.html
      wildcard: true,
      index: false,
      // The build writes .br and .gz beside each text file (apps/web/vite.config.ts); the one the
      // request accepts is sent with Content-Encoding and Vary: Accept-Encoding (issue 23.3).
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, file) => {
        // Vite's /assets files carry a content hash in their names: cached for good. Anything else
        // (index.html, favicon) is revalidated by its ETag on each use.
        reply.header('Cache-Control', file.startsWith(assets) ? IMMUTABLE : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    // a hashed file that is not there (an old page after a new build): 404, not the page as JavaScript
    if (req.url.startsWith('/assets/')) return reply.status(404).type('text/plain').send('文件不存在');
    if (req.url.startsWith('/api/') || (req.method !== 'GET' && req.method !== 'HEAD') || !hasSpa) {
      return reply.status(404).send({ code: ERRORS.NOT_FOUND.code, msg: '接口不存在', data: null });
    }
    return reply.type('text/html').header('Cache-Control', 'no-cache').send(fs.createReadStream(index));
  });
});
