import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance, FastifySchema, LightMyRequestResponse } from 'fastify';
import { fieldsOf, resolve, sampleOf, setAt, toJson } from './fuzz-schema';
import { bodyValues, deepControlsJson, deepJson, type FuzzLevel, queryValues } from './fuzz-values';
import type { TestApp } from './harness';

export type { FuzzLevel } from './fuzz-values';

/**
 * Issue 11 hole 7: sends bad input to every route, field by field, and counts the 5xx answers.
 * Used by bench/fuzz-api.ts (the full set) and by fuzz.api.test.ts (a smaller set that must find 0).
 */

export type RouteInfo = {
  method: string;
  url: string;
  schema: FastifySchema | undefined;
  isWebsocket: boolean;
  isMultipart: boolean;
};

/**
 * Builds the app while recording every route it declares (method, url, schema) and every error a
 * request raised. Fastify publishes each new instance on `fastify.initialization`, before any plugin
 * or route is registered, so an `onRoute` hook added there sees them all.
 */
export const buildRecorded = async <T>(build: () => Promise<T>) => {
  const routes: RouteInfo[] = [];
  const errors = new Map<string, unknown>();
  const channel = diagnostics.channel('fastify.initialization');
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (r) => {
      const methods = (Array.isArray(r.method) ? r.method : [r.method]).filter((m) => m !== 'HEAD');
      const schema = r.schema as FastifySchema | undefined;
      const consumes = (schema as { consumes?: string[] } | undefined)?.consumes ?? [];
      for (const method of methods)
        routes.push({
          method,
          url: r.url,
          schema,
          isWebsocket: Boolean((r as { websocket?: boolean }).websocket),
          isMultipart: consumes.includes('multipart/form-data'),
        });
    });
    fastify.addHook('onError', async (req, _reply, err) => {
      errors.set(req.id, err);
    });
  };
  channel.subscribe(onInit);
  try {
    const built = await build();
    return { built, routes, errors };
  } finally {
    channel.unsubscribe(onInit);
  }
};

// ---------- the run ----------

export type FuzzCase = {
  method: string;
  url: string;
  payload?: string | Buffer;
  headers?: Record<string, string>;
  label: string;
};

const JSON_TYPE = { 'content-type': 'application/json' };

const multipart = (filename: string, content: Buffer | string, field = 'file') => {
  const boundary = '----fuzz7MA4YWxkTrZu0gW';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
};

/** Every bad request for one route. */
export const casesFor = (route: RouteInfo, level: FuzzLevel): FuzzCase[] => {
  const out: FuzzCase[] = [];
  const paramNames = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const urlWith = (params: Record<string, string>) =>
    route.url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => params[name] ?? '999999');
  const baseUrl = urlWith({});

  // path parameters
  for (const name of paramNames)
    for (const v of queryValues(level))
      out.push({ method: route.method, url: urlWith({ [name]: v }), label: `param ${name}=${v.slice(0, 20)}` });

  // query string, field by field
  const qJson = toJson(route.schema?.querystring);
  const qFields = qJson ? fieldsOf(qJson, qJson).filter((f) => f.path.length === 1) : [];
  const qBase = qJson ? (sampleOf(qJson, qJson) as Record<string, unknown>) : {};
  const qs = (obj: Record<string, unknown>, raw?: [string, string]) => {
    const parts = Object.entries(obj).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
    if (raw) parts.push(`${encodeURIComponent(raw[0])}=${raw[1]}`);
    return parts.length ? `?${parts.join('&')}` : '';
  };
  for (const f of qFields) {
    const key = String(f.path[0]);
    const rest = { ...qBase };
    delete rest[key];
    for (const v of queryValues(level))
      out.push({ method: route.method, url: baseUrl + qs(rest, [key, v]), label: `query ${key}=${v.slice(0, 20)}` });
    out.push({
      method: route.method,
      url: `${baseUrl + qs(rest)}&${key}=1&${key}=2`.replace('?&', '?'),
      label: `query ${key} twice`,
    });
  }
  // unknown query keys the guard must still read
  out.push({ method: route.method, url: `${baseUrl}?zz=%00`, label: 'query unknown key NUL' });
  out.push({ method: route.method, url: `${baseUrl}?%00=1`, label: 'query NUL key' });

  if (route.method === 'GET' || route.method === 'DELETE') return out;

  if (route.isMultipart) {
    const names = ['a\u0000.xlsx', '\ud800.txt', `${'x'.repeat(5000)}.png`, '../../etc/passwd', 'a.xlsx'];
    const contents = [Buffer.from('PK\u0003\u0004garbage'), Buffer.alloc(0), Buffer.from('13800000000\n\u0000\n')];
    for (const n of names)
      for (const c of level === 'quick' ? contents.slice(0, 1) : contents) {
        const m = multipart(n, c);
        out.push({ method: route.method, url: baseUrl, ...m, label: `multipart ${JSON.stringify(n).slice(0, 20)}` });
      }
  }

  // whole-body shapes
  const bodies: [string, string, Record<string, string>][] = [
    ['null body', 'null', JSON_TYPE],
    ['string body', '"x"', JSON_TYPE],
    ['empty body', '', JSON_TYPE],
    ['deep templateControls 10,000', deepControlsJson(10_000), JSON_TYPE],
    ['text/plain', 'abc', { 'content-type': 'text/plain' }],
    ['NUL key', '{"\\u0000":1}', JSON_TYPE],
  ];
  if (level === 'full')
    bodies.push(
      ['array body', '[]', JSON_TYPE],
      ['number body', '2147483648', JSON_TYPE],
      ['broken JSON', '{"a":', JSON_TYPE],
      ['deep 10,000', deepJson(10_000), JSON_TYPE],
      ['form', 'a=%00', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['__proto__', '{"__proto__":{"x":1}}', JSON_TYPE],
      ['deep 200,000 arrays', `${'['.repeat(200_000)}${']'.repeat(200_000)}`, JSON_TYPE],
      ['xml', '<a/>', { 'content-type': 'application/xml' }],
      ['json without content-type', '{"a":1}', {}],
      ['huge string', JSON.stringify({ a: 'x'.repeat(1_900_000) }), JSON_TYPE],
    );
  for (const [label, payload, headers] of bodies) out.push({ method: route.method, url: baseUrl, payload, headers, label });

  // the body, field by field
  const bJson = toJson(route.schema?.body);
  if (bJson) {
    const base = sampleOf(bJson, bJson);
    out.push({ method: route.method, url: baseUrl, payload: JSON.stringify(base), headers: JSON_TYPE, label: 'sample body' });
    for (const f of fieldsOf(bJson, bJson)) {
      const isArray = resolve(f.schema, bJson).type === 'array';
      for (const v of bodyValues(level)) {
        const payload = JSON.stringify(setAt(base, f.path, v, bJson, bJson));
        out.push({
          method: route.method,
          url: baseUrl,
          payload,
          headers: JSON_TYPE,
          label: `body ${f.path.join('.')}=${JSON.stringify(v)?.slice(0, 20)}`,
        });
        if (isArray && level === 'full') {
          const inArray = JSON.stringify(setAt(base, f.path, [v], bJson, bJson));
          out.push({
            method: route.method,
            url: baseUrl,
            payload: inArray,
            headers: JSON_TYPE,
            label: `body ${f.path.join('.')}[]=${JSON.stringify(v)?.slice(0, 20)}`,
          });
        }
      }
    }
  }
  return out;
};

export type FuzzFailure = { label: string; method: string; url: string; user: string; status: number; error: string };
export type FuzzReport = {
  routes: number;
  requests: number;
  serverErrors: number;
  failures: FuzzFailure[];
  byStatus: Record<number, number>;
  /** 4xx answers the database itself refused (the error handler's last line of defence), not the contracts */
  refusedByDatabase: FuzzFailure[];
};

/** Routes a logged-in session must not call while being fuzzed (they end the session). */
const SESSION_ENDING = ['/api/frontend/logout'];
const isAnonymous = (url: string) => url === '/api/frontend/login' || SESSION_ENDING.includes(url);

/**
 * Sends every case of every route as each user, re-logging in when a session was ended, and the
 * login/logout routes last and anonymously (they would throttle or end the sessions).
 */
export const runFuzz = async (
  t: TestApp,
  routes: RouteInfo[],
  errors: Map<string, unknown>,
  opts: { level: FuzzLevel; users: string[]; password: string; onProgress?: (done: number, route: RouteInfo) => void },
): Promise<FuzzReport> => {
  const report: FuzzReport = { routes: 0, requests: 0, serverErrors: 0, failures: [], byStatus: {}, refusedByDatabase: [] };
  const tokens = new Map<string, string>();
  for (const u of opts.users) tokens.set(u, await t.login(u, opts.password));
  const targets = routes.filter((r) => !r.isWebsocket && r.url.startsWith('/api/'));
  const ordered = [...targets.filter((r) => !isAnonymous(r.url)), ...targets.filter((r) => isAnonymous(r.url))];
  const send = async (c: FuzzCase, user: string): Promise<LightMyRequestResponse> => {
    const token = tokens.get(user);
    const headers: Record<string, string> = { ...(c.headers ?? {}) };
    if (token) headers.authorization = token;
    return t.app.inject({ method: c.method as 'GET', url: c.url, payload: c.payload, headers });
  };
  for (const route of ordered) {
    report.routes += 1;
    const users = isAnonymous(route.url) ? ['(anonymous)'] : opts.users;
    for (const c of casesFor(route, opts.level)) {
      for (const user of users) {
        let res = await send(c, user);
        if (res.statusCode === 401 && tokens.has(user)) {
          tokens.set(user, await t.login(user, opts.password));
          res = await send(c, user);
        }
        report.requests += 1;
        report.byStatus[res.statusCode] = (report.byStatus[res.statusCode] ?? 0) + 1;
        if (res.statusCode >= 500) {
          report.serverErrors += 1;
          const err = [...errors.values()].pop();
          report.failures.push({
            label: c.label,
            method: c.method,
            url: c.url.slice(0, 120),
            user,
            status: res.statusCode,
            error: err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 200) : res.body.slice(0, 200),
          });
        }
        const dbCode = [...errors.values()]
          .map((e) => (e ?? {}) as { code?: unknown; cause?: { code?: unknown } })
          .map((e) => e.code ?? e.cause?.code)
          .find((code) => typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code));
        if (res.statusCode < 500 && dbCode) {
          report.refusedByDatabase.push({
            label: c.label,
            method: c.method,
            url: c.url.slice(0, 120),
            user,
            status: res.statusCode,
            error: String(dbCode),
          });
        }
        errors.clear();
      }
    }
    opts.onProgress?.(report.requests, route);
  }
  return report;
};
