import { ERRORS, INT4_MAX } from '@crm/contracts';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchTemplate } from '../test/customers';
import { createTestApp, type TestApp } from '../test/harness';
import { errorsPlugin } from './errors';
import { checkInput, MAX_INPUT_DEPTH } from './input-guard';

/** Issue 11 hole 7: input PostgreSQL cannot take answers a clear Chinese 4xx, never a 500. */

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
});
afterAll(async () => {
  await t?.close();
});

const hasChinese = (s: string) => /[\u4e00-\u9fa5]/.test(s);
const noEnglishSentence = (s: string) => !/Too big|Too small|Invalid|expected/i.test(s);

/** `depth` levels of group controls, each holding the next in `children`. */
const nestedControls = (depth: number) => {
  let node: Record<string, unknown> = { cbTacid: 1, dmValue: [] };
  for (let i = 0; i < depth; i++) node = { cbTacid: 1, dmValue: [], children: [node] };
  return [node];
};

describe('text PostgreSQL cannot store', () => {
  it('a NUL byte in a text field answers 400 内容包含无法保存的字符', async () => {
    const res = await t.post('/api/frontend/customer/create', { name: 'a\u0000b' }, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: ERRORS.INPUT_UNSTORABLE_TEXT.code, msg: '内容包含无法保存的字符' });
  });

  it('a lone surrogate in a list filter answers 400', async () => {
    for (const bad of ['\ud800', 'x\udc00y', '\udfff\ud800']) {
      const res = await t.post('/api/frontend/customer/minelist', { name: bad }, admin);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().code).toBe(ERRORS.INPUT_UNSTORABLE_TEXT.code);
    }
  });

  it('a surrogate pair (an emoji) and ordinary text are accepted', async () => {
    const res = await t.post('/api/frontend/customer/minelist', { name: '客户😀' }, admin);
    expect(res.json()).toMatchObject({ code: 0 });
  });

  it('a NUL byte in the query string and in a nested filter answers 400', async () => {
    const q = await t.get('/api/frontend/staff/options?linkman=%00', admin);
    expect(q.statusCode).toBe(400);
    expect(q.json().code).toBe(ERRORS.INPUT_UNSTORABLE_TEXT.code);
    const tpl = await fetchTemplate(t, admin);
    const b = await t.post(
      '/api/frontend/customer/minelist',
      { templateControls: [{ cbTacid: tpl.byName.手机.cbTacid, dmValue: ['138\u0000'] }] },
      admin,
    );
    expect(b.statusCode).toBe(400);
    expect(b.json().code).toBe(ERRORS.INPUT_UNSTORABLE_TEXT.code);
  });

  it('a NUL byte in an object key answers 400', async () => {
    const res = await t.post('/api/frontend/customer/minelist', { 'na\u0000me': 'x' }, admin);
    expect(res.statusCode).toBe(400);
  });
});

describe('numbers beyond the PostgreSQL integer range', () => {
  it('an id of 2^31 in the query answers 400 in Chinese; 2^31-1 is a valid id that finds nothing', async () => {
    const over = await t.get(`/api/frontend/customer/info?cmCtid=${INT4_MAX + 1}`, admin);
    expect(over.statusCode).toBe(400);
    expect(over.json().code).toBe(ERRORS.VALIDATION.code);
    expect(hasChinese(over.json().msg)).toBe(true);
    const edge = await t.get(`/api/frontend/customer/info?cmCtid=${INT4_MAX}`, admin);
    expect(edge.statusCode).toBe(404);
  });

  it('ids of 2^31 and 2^53 in a body answer 400; 2^31-1 passes validation', async () => {
    for (const id of [INT4_MAX + 1, 2 ** 53, -(2 ** 31) - 1]) {
      const res = await t.post('/api/frontend/customer/del', { cmCtids: [id] }, admin);
      expect(res.statusCode, String(id)).toBe(400);
      expect(res.json().code).toBe(ERRORS.VALIDATION.code);
    }
    const edge = await t.post('/api/frontend/customer/del', { cmCtids: [INT4_MAX] }, admin);
    expect(edge.statusCode).toBeLessThan(500);
    expect(edge.json().code).not.toBe(ERRORS.VALIDATION.code);
  });

  it('list filters by staff, department and stage beyond int4 answer 400', async () => {
    for (const field of ['createCmSid', 'followCmDid', 'cmNid', 'minContactNum']) {
      const res = await t.post('/api/frontend/customer/minelist', { [field]: INT4_MAX + 1 }, admin);
      expect(res.statusCode, field).toBe(400);
      const edge = await t.post('/api/frontend/customer/minelist', { [field]: INT4_MAX }, admin);
      expect(edge.json().code, field).toBe(0);
    }
  });

  it('pool, owner and staff ids of discard and allocation are refused by the contract beyond int4', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['/api/frontend/customer/followdown', { cmCtids: [1], cmHsid: INT4_MAX + 1, cmCdid: 0 }],
      ['/api/frontend/customer/followdown', { cmCtids: [1], cmHsid: 1, cmCdid: INT4_MAX + 1 }],
      ['/api/frontend/customer/allot', { cmCtids: [1], cmSid: INT4_MAX + 1 }],
      ['/api/frontend/customer/batchallot', { fromCmSid: INT4_MAX + 1, toCmSids: [1] }],
    ];
    for (const [url, body] of cases) {
      const res = await t.post(url, body, admin);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code, JSON.stringify(body)).toBe(ERRORS.VALIDATION.code);
    }
    const edge = await t.post('/api/frontend/customer/allot', { cmCtids: [1], cmSid: INT4_MAX }, admin);
    expect(edge.json().code).not.toBe(ERRORS.VALIDATION.code);
    expect(edge.statusCode).toBeLessThan(500);
  });

  it('codes stored as smallint are refused by the contract beyond 32767, accepted at it', async () => {
    const cases: [string, Record<string, unknown>][] = [
      ['/api/frontend/call/list', { callType: 32_768 }],
      ['/api/frontend/call/list', { hangupPeople: 32_768 }],
      ['/api/frontend/customer/minelist', { lastContactStatus: 32_768 }],
    ];
    for (const [url, body] of cases) {
      const over = await t.post(url, body, admin);
      expect(over.json().code, JSON.stringify(body)).toBe(ERRORS.VALIDATION.code);
      const key = Object.keys(body)[0];
      const edge = await t.post(url, { [key]: 32_767 }, admin);
      expect(edge.json().code, `${key}=32767`).toBe(0);
    }
    for (const q of ['/api/frontend/staff/list?actionState=32768', '/api/frontend/customerset/nodelist?actionState=32768']) {
      const res = await t.get(q, admin);
      expect(res.json().code, q).toBe(ERRORS.VALIDATION.code);
    }
    expect((await t.get('/api/frontend/customerset/nodelist?actionState=32767', admin)).json().code).toBe(0);
  });

  it('a template control id beyond int4 inside templateControls answers 400', async () => {
    const res = await t.post(
      '/api/frontend/customer/minelist',
      { templateControls: [{ cbTacid: INT4_MAX + 1, dmValue: ['x'] }] },
      admin,
    );
    expect(res.statusCode).toBe(400);
  });
});

describe('deep nesting', () => {
  it('10,000 levels of nested templateControls answer 400 请求数据层级过深', async () => {
    // built as text: JSON.stringify itself would overflow the test's stack
    const inner = `${'{"cbTacid":1,"dmValue":[],"children":['.repeat(10_000)}{"cbTacid":1}${']}'.repeat(10_000)}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/frontend/customer/create',
      headers: { authorization: admin, 'content-type': 'application/json' },
      payload: `{"name":"深","templateControls":[${inner}]}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: ERRORS.INPUT_TOO_DEEP.code, msg: '请求数据层级过深' });
  });

  it('depth is refused above MAX_INPUT_DEPTH and accepted at it', () => {
    let atLimit: unknown = 'leaf';
    for (let i = 0; i < MAX_INPUT_DEPTH; i++) atLimit = [atLimit];
    expect(checkInput(atLimit)).toBeNull();
    expect(checkInput([atLimit])?.key).toBe('INPUT_TOO_DEEP');
  });

  it('a realistic nested group control still reaches the service', async () => {
    const res = await t.post('/api/frontend/customer/create', { name: '浅', templateControls: nestedControls(3) }, admin);
    expect(res.json().code).not.toBe(ERRORS.INPUT_TOO_DEEP.code);
    expect(res.statusCode).toBeLessThan(500);
  });
});

describe('validation messages are Chinese', () => {
  it('limit 201 answers 参数 limit 不能大于200; limit 200 is accepted', async () => {
    const res = await t.post('/api/frontend/customer/minelist', { limit: 201 }, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('参数 limit 不能大于200');
    expect(noEnglishSentence(JSON.stringify(res.json()))).toBe(true);
    const edge = await t.post('/api/frontend/customer/minelist', { limit: 200 }, admin);
    expect(edge.json().code).toBe(0);
  });

  it('a wrong type, a missing field and a bad option are explained in Chinese', async () => {
    const cases: [string, unknown][] = [
      ['/api/frontend/customer/minelist', { page: 'abc' }],
      ['/api/frontend/customer/del', {}],
      ['/api/frontend/customer/minelist', { orderSort: 'up' }],
      ['/api/frontend/customer/minelist', { page: 1.5 }],
    ];
    for (const [url, body] of cases) {
      const res = await t.post(url, body, admin);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(hasChinese(res.json().msg), res.json().msg).toBe(true);
      expect(noEnglishSentence(JSON.stringify(res.json())), JSON.stringify(res.json())).toBe(true);
    }
  });

  it('the SPEC §5 messages written in contracts keep winning', async () => {
    const res = await t.post('/api/frontend/customer/templatecontrolcreate', { name: '', dmType: 0 }, admin);
    expect(res.json().msg).toBe('请输入控件名称');
    const ids = await t.post('/api/frontend/customer/del', { cmCtids: [] }, admin);
    expect(ids.json().msg).toBe('请选择客户');
  });
});

describe('the error handler, last line of defence', () => {
  const appThrowing = async (err: unknown) => {
    const app = Fastify();
    await app.register(errorsPlugin);
    app.get('/x', async () => {
      throw err;
    });
    return app;
  };
  const dbError = (code: string, message: string) => Object.assign(new Error(message), { code });

  it('maps PostgreSQL data exceptions, wrapped or not, to a Chinese 400', async () => {
    const cases: [unknown, number][] = [
      [dbError('22003', 'value "2147483648" is out of range for type integer'), ERRORS.INPUT_OUT_OF_RANGE.code],
      [dbError('22P02', 'invalid input syntax for type integer'), ERRORS.INPUT_OUT_OF_RANGE.code],
      [dbError('22021', 'invalid byte sequence for encoding "UTF8": 0x00'), ERRORS.INPUT_UNSTORABLE_TEXT.code],
      [new Error('Failed query', { cause: dbError('22003', 'out of range') }), ERRORS.INPUT_OUT_OF_RANGE.code],
      [new RangeError('Maximum call stack size exceeded'), ERRORS.INPUT_TOO_DEEP.code],
    ];
    for (const [err, code] of cases) {
      const app = await appThrowing(err);
      const res = await app.inject({ method: 'GET', url: '/x' });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe(code);
      expect(hasChinese(res.json().msg)).toBe(true);
      await app.close();
    }
  });

  it('other database errors stay a 500 that hides the details', async () => {
    const app = await appThrowing(dbError('23505', 'duplicate key value violates unique constraint'));
    const res = await app.inject({ method: 'GET', url: '/x' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: ERRORS.INTERNAL.code, msg: ERRORS.INTERNAL.msg });
    await app.close();
  });
});
