import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance, FastifySchema, LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import type { TestApp } from './harness';

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

// ---------- fields of a route, from its zod schema ----------

type Json = Record<string, unknown>;
type Field = { path: (string | number)[]; schema: Json };

const toJson = (schema: unknown): Json | null => {
  if (!schema || typeof schema !== 'object' || !('_zod' in schema)) return null;
  try {
    return z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any', cycles: 'ref' }) as Json;
  } catch {
    return null;
  }
};

const resolve = (s: Json, root: Json): Json => {
  const ref = s.$ref;
  if (typeof ref === 'string') {
    const name = ref.split('/').pop() ?? '';
    const defs = (root.$defs ?? root.definitions ?? {}) as Record<string, Json>;
    return defs[name] ?? {};
  }
  const alt = (s.anyOf ?? s.oneOf ?? s.allOf) as Json[] | undefined;
  if (alt && !s.type && !s.properties) {
    const nonNull = alt.filter((a) => a.type !== 'null');
    if (s.allOf) return Object.assign({}, ...alt.map((a) => resolve(a, root)));
    return resolve(nonNull[0] ?? alt[0], root);
  }
  return s;
};

/** A valid-looking value: ids point nowhere (999999), so write routes find nothing to change. */
export const sampleOf = (raw: Json, root: Json, depth = 0): unknown => {
  const s = resolve(raw, root);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if ('default' in s && s.default !== undefined) return s.default;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'integer':
    case 'number': {
      const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 0;
      const max = typeof s.maximum === 'number' ? s.maximum : Number.MAX_SAFE_INTEGER;
      return max >= 999_999 ? 999_999 : Math.max(min, 0);
    }
    case 'string':
      return 'a'.repeat(Math.max(1, typeof s.minLength === 'number' ? s.minLength : 1));
    case 'boolean':
      return false;
    case 'array': {
      const minItems = typeof s.minItems === 'number' ? s.minItems : 0;
      if (minItems === 0 || depth > 4) return [];
      return Array.from({ length: minItems }, () => sampleOf((s.items as Json) ?? {}, root, depth + 1));
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Json>;
      const required = (s.required ?? []) as string[];
      return Object.fromEntries(required.filter((k) => props[k]).map((k) => [k, sampleOf(props[k], root, depth + 1)]));
    }
    default:
      return '1';
  }
};

/** Every field of an object schema, and the fields of the first element of arrays of objects. */
const fieldsOf = (raw: Json, root: Json, prefix: (string | number)[] = [], depth = 0): Field[] => {
  const s = resolve(raw, root);
  const props = (s.properties ?? {}) as Record<string, Json>;
  const out: Field[] = [];
  for (const [key, p] of Object.entries(props)) {
    const path = [...prefix, key];
    out.push({ path, schema: p });
    const r = resolve(p, root);
    if (depth < 2 && r.type === 'array') {
      const item = resolve((r.items as Json) ?? {}, root);
      if (item.properties) out.push(...fieldsOf(item, root, [...path, 0], depth + 1));
    }
    if (depth < 2 && r.properties) out.push(...fieldsOf(r, root, path, depth + 1));
  }
  return out;
};

const setAt = (target: unknown, path: (string | number)[], value: unknown, root: Json, schema: Json): unknown => {
  const copy = structuredClone(target) as Json;
  let node: Json = copy;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i];
    const next = path[i + 1];
    if (node[key] === undefined || node[key] === null || typeof node[key] !== 'object') {
      node[key] = typeof next === 'number' ? [] : {};
    }
    if (typeof next === 'number' && (node[key] as unknown[]).length === 0) {
      // an array of objects: start from a valid-looking element
      const owner = fieldsOf(schema, root).find((f) => f.path.join('.') === path.slice(0, i + 1).join('.'));
      const item = owner ? resolve((resolve(owner.schema, root).items as Json) ?? {}, root) : {};
      (node[key] as unknown[]).push(sampleOf(item, root));
    }
    node = node[key] as Json;
  }
  node[path[path.length - 1]] = value;
  return copy;
};

// ---------- bad values ----------

/** Built as text: JSON.stringify itself overflows on 10,000 levels. */
export const deepJson = (levels: number) => `${'{"a":['.repeat(levels)}1${']}'.repeat(levels)}`;
export const deepControlsJson = (levels: number) =>
  `{"name":"x","templateControls":[${'{"cbTacid":1,"dmValue":[],"children":['.repeat(levels)}{"cbTacid":1}${']}'.repeat(levels)}]}`;

export type FuzzLevel = 'full' | 'quick';

/** Values sent in place of one field of a JSON body. */
export const bodyValues = (level: FuzzLevel): unknown[] => {
  const quick: unknown[] = ['a\u0000b', '\ud800', 2 ** 31, { a: 1 }];
  if (level === 'quick') return quick;
  return [
    ...quick,
    2 ** 53,
    1.5,
    -(2 ** 31) - 1,
    [{}],
    '\u0000',
    'x\udfff',
    '\udc00\ud800',
    2 ** 31 - 1,
    2 ** 32,
    -1,
    0,
    1e308,
    -1e308,
    '2147483648',
    '9007199254740993',
    '1e400',
    '',
    ' ',
    'x'.repeat(100_000),
    '中'.repeat(10_001),
    '%',
    "'; drop table customers; --",
    '2026-02-30 25:61:61',
    '0000-00-00',
    [],
    [1, 2, 3],
    ['\u0000'],
    [2 ** 31],
    Array.from({ length: 2000 }, (_, i) => i + 1),
    {},
    null,
    true,
    false,
  ];
};

/** Values sent in place of one query-string or path parameter (already URL-encoded). */
export const queryValues = (level: FuzzLevel): string[] => {
  const quick = ['a%00b', '%ED%A0%80', '2147483648'];
  if (level === 'quick') return quick;
  return [
    ...quick,
    '1.5',
    '%00',
    '9007199254740992',
    '-1',
    '%ED%B0%80x',
    '-2147483649',
    '1e400',
    'NaN',
    'abc',
    '',
    '%25',
    'x'.repeat(10_000),
    '0x10',
    '%C0%AF',
  ];
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
