import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spaPlugin } from './spa';

// The SPA's static files (issue 23.3): precompressed copies by Accept-Encoding, hashed assets cached
// for good, everything else revalidated. A build-like directory is written here (the real build
// writes the .br/.gz copies with apps/web/vite.config.ts's precompress plugin).
const JS = `console.log(${JSON.stringify('云呼'.repeat(400))});\n`;
let dir: string;
let app: FastifyInstance;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spa-test-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const js = path.join(dir, 'assets', 'index-AbC123xy.js');
  fs.writeFileSync(js, JS);
  fs.writeFileSync(`${js}.br`, zlib.brotliCompressSync(JS));
  fs.writeFileSync(`${js}.gz`, zlib.gzipSync(JS));
  fs.writeFileSync(path.join(dir, 'assets', 'plain-Zz9.css'), 'body{margin:0}');
  app = Fastify();
  await app.register(spaPlugin, { webDist: dir });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('static files', () => {
  it('sends the brotli copy to a browser that accepts br, cached for good', async () => {
    const res = await get('/assets/index-AbC123xy.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(JS);
    expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(JS) / 5);
  });

  it('sends the gzip copy when br is not accepted', async () => {
    const res = await get('/assets/index-AbC123xy.js', { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(JS);
  });

  it('sends the file itself without Accept-Encoding, with identity, and when no copy exists', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }] as Record<string, string>[]) {
      const res = await get('/assets/index-AbC123xy.js', headers);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.body).toBe(JS);
    }
    const css = await get('/assets/plain-Zz9.css', { 'accept-encoding': 'br, gzip' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.body).toBe('body{margin:0}');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 304 to a matching If-None-Match, per encoding', async () => {
    const first = await get('/assets/index-AbC123xy.js', { 'accept-encoding': 'br' });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await get('/assets/index-AbC123xy.js', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // the gzip copy is another representation: another ETag, so a br ETag does not match it
    const gz = await get('/assets/index-AbC123xy.js', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers.etag).not.toBe(etag);
  });

  it('does not cache files outside /assets for good: they are revalidated', async () => {
    const icon = await get('/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
    const index = await get('/index.html');
    expect(index.headers['cache-control']).toBe('no-cache');
  });

  it('answers a page route with index.html, not cached', async () => {
    const res = await get('/home/Index', { 'accept-encoding': 'br' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
    const head = await app.inject({ method: 'HEAD', url: '/home/Index' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe('no-cache');
  });

  it('serves a file written after the start (a rebuild while the server runs)', async () => {
    fs.writeFileSync(path.join(dir, 'assets', 'later-Qq1.js'), 'export {};');
    const res = await get('/assets/later-Qq1.js');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('export {};');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // a hashed file that is not there is a 404, not index.html served as JavaScript
    expect((await get('/assets/never-there-1.js')).statusCode).toBe(404);
  });

  it('answers an unknown API path with the 404 envelope, not the page', async () => {
    const res = await get('/api/frontend/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ msg: '接口不存在' });
  });
});
