import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/harness';
import { REFUSAL_IN_BODY_HEADER } from './errors';

/**
 * Issue 23: the web's expected business refusals (HTTP 400/404) showed as console "Failed to load
 * resource" errors. The web client asks for them in the envelope alone (HTTP 200, code ≠ 0, SPEC §7/§8).
 */
let t: TestApp;
let token = '';
const inBody = { [REFUSAL_IN_BODY_HEADER]: '1' };

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('lisi');
});
afterAll(async () => t.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: token, ...headers } });

describe('business refusals for the web client', () => {
  it('come as HTTP 200 with the envelope when asked, with their HTTP status otherwise', async () => {
    const validation = await get('/api/frontend/customer/info', inBody);
    expect(validation.statusCode).toBe(200);
    expect(validation.json()).toMatchObject({ code: 100001, msg: '请选择客户或输入电话号码' });
    expect((await get('/api/frontend/customer/info')).statusCode).toBe(400);

    // an AppError on a route whose 200 schema describes its success: the refusal is sent as it is
    const missing = await get('/api/frontend/customer/info?cmCtid=999999', inBody);
    expect(missing.statusCode).toBe(200);
    expect(missing.json()).toEqual({ code: 106007, msg: '客户不存在或您无权查看', data: null });
    expect((await get('/api/frontend/customer/info?cmCtid=999999')).statusCode).toBe(404);
  });

  it('leave the session refusal at 401 and an unknown path at 404', async () => {
    const noSession = await t.app.inject({ method: 'GET', url: '/api/frontend/user/info', headers: inBody });
    expect(noSession.statusCode).toBe(401);
    expect((await get('/api/frontend/nothing-here', inBody)).statusCode).toBe(404);
  });
});
