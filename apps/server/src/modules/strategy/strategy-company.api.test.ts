import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { STRATEGY_DEFAULTS } from './strategy.service';

/** The strategy form as the web sends it (SPEC §5), and each company's own strategy. */
let t: TestApp;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];

const info = async (user = 'admin') => {
  const res = await t.get('/api/frontend/customerset/strategyinfo', as(user));
  expect(res.json().code, res.body).toBe(0);
  return res.json().data;
};
const set = (body: Record<string, unknown>, user = 'admin') =>
  t.post('/api/frontend/customerset/strategyset', { ...STRATEGY_DEFAULTS, ...body }, as(user));

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'other_admin']) tokens[u] = await t.login(u);
});
afterAll(async () => {
  await t?.close();
});

describe('strategy form', () => {
  it('saves every field at once and reads it back', async () => {
    const body = {
      recycleRemind: 7,
      maxCustomer: 300,
      mustCustomerName: 1,
      repeatCustomerName: 1,
      seaPhoneEncryp: 0,
      phoneEncryp: 1,
      decryptPhoneNum: 5,
    };
    expect((await set(body)).json()).toMatchObject({ code: 0, msg: '保存成功' });
    expect(await info()).toEqual(body);
    expect((await set({})).json().code).toBe(0);
  });

  it('maxCustomer and decryptPhoneNum sent as text are converted (SPEC §5 request building)', async () => {
    expect((await set({ maxCustomer: '120', decryptPhoneNum: '8' })).json().code).toBe(0);
    expect(await info()).toMatchObject({ maxCustomer: 120, decryptPhoneNum: 8 });
    expect((await set({ maxCustomer: '一百' })).json().code).toBe(100001);
    expect((await set({ recycleRemind: 1.5 })).json().code).toBe(100001);
    expect((await set({ recycleRemind: 0 })).json().code).toBe(0);
    expect((await set({ recycleRemind: -1 })).json()).toMatchObject({ code: 100001, msg: '提醒天数不能小于0' });
    expect((await set({})).json().code).toBe(0);
  });

  it('the switches take 0 or 1 only; every field is required', async () => {
    for (const field of ['mustCustomerName', 'repeatCustomerName', 'seaPhoneEncryp', 'phoneEncryp']) {
      expect((await set({ [field]: 1 })).json().code, field).toBe(0);
      expect((await set({ [field]: 2 })).json().code, field).toBe(100001);
      expect((await set({ [field]: -1 })).json().code, field).toBe(100001);
    }
    const { recycleRemind: _, ...missing } = STRATEGY_DEFAULTS;
    expect((await t.post('/api/frontend/customerset/strategyset', missing, as('admin'))).json().code).toBe(100001);
    expect((await set({})).json().code).toBe(0);
    expect(await info()).toEqual(STRATEGY_DEFAULTS);
  });

  it('each company has its own strategy', async () => {
    expect((await set({ phoneEncryp: 1, decryptPhoneNum: 3 }, 'other_admin')).json().code).toBe(0);
    expect(await info('other_admin')).toMatchObject({ phoneEncryp: 1, decryptPhoneNum: 3 });
    expect(await info('admin')).toMatchObject({
      phoneEncryp: STRATEGY_DEFAULTS.phoneEncryp,
      decryptPhoneNum: STRATEGY_DEFAULTS.decryptPhoneNum,
    });
    expect((await set({ recycleRemind: 9 })).json().code).toBe(0);
    expect((await info('other_admin')).recycleRemind).toBe(STRATEGY_DEFAULTS.recycleRemind);
    await set({});
    await set({}, 'other_admin');
  });
});
