import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('login', () => {
  it('returns token, userInfo, menulist and permissions for a demo account', async () => {
    const res = await t.post('/api/frontend/login', { username: 'lisi', password: 'demo123456' });
    expect(res.statusCode).toBe(200);
    const { code, data } = res.json();
    expect(code).toBe(0);
    expect(data.token).toMatch(/^[\w-]{40,}$/);
    expect(data.userInfo).toMatchObject({ name: '李四', cmDidName: '销售一部', cmAridName: '销售', merchantType: 1 });
    // 销售 works group-call tasks (人工群呼, issue 15) as an agent
    expect(data.menulist.map((a: { cbAid: number }) => a.cbAid)).toEqual([1, 2, 5]);
    expect(data.permissions['/manage/mycustomer']).toEqual({ hasPremisson: 1 });
    expect(data.permissions['/account/staff']).toEqual({ hasPremisson: 0 });
  });

  it('accepts the phone number as username', async () => {
    const res = await t.post('/api/frontend/login', { username: '13800000003', password: 'demo123456' });
    expect(res.json().data.userInfo.name).toBe('王五');
  });

  it('refuses a wrong password with a Chinese message', async () => {
    const res = await t.post('/api/frontend/login', { username: 'wangwu', password: 'wrong-pass1' });
    expect(res.json()).toMatchObject({ code: 101001, msg: '账号或密码错误' });
  });

  it('answers 401 with code 100002 without a token or with an unknown token', async () => {
    for (const token of [undefined, 'not-a-real-token']) {
      const res = await t.get('/api/frontend/user/info', token);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(100002);
    }
  });

  it('logout invalidates the token', async () => {
    const token = await t.login('wangwu');
    expect((await t.get('/api/frontend/user/info', token)).statusCode).toBe(200);
    expect((await t.post('/api/frontend/logout', {}, token)).json().code).toBe(0);
    expect((await t.get('/api/frontend/user/info', token)).json().code).toBe(100002);
  });
});
