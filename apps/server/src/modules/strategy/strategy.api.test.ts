import type { Strategy } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';

/** Customer strategy (/set/strategy, SPEC §3 and §5): defaults, save, both edges of each limit, permissions, tenancy. */
let t: TestApp;
const tokens: Record<string, string> = {};
const as = (user: string) => tokens[user];

const DEFAULTS: Strategy = {
  recycleRemind: 3,
  maxCustomer: 0,
  mustCustomerName: 0,
  repeatCustomerName: 0,
  seaPhoneEncryp: 1,
  phoneEncryp: 0,
  decryptPhoneNum: 20,
};
const info = async (user = 'admin'): Promise<Strategy> => {
  const res = await t.get('/api/frontend/customerset/strategyinfo', as(user));
  expect(res.json().code, res.body).toBe(0);
  return res.json().data;
};
const set = (body: Record<string, unknown>, user = 'admin') =>
  t.post('/api/frontend/customerset/strategyset', { ...DEFAULTS, ...body }, as(user));

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'lisi', 'other_admin']) tokens[u] = await t.login(u);
});
afterAll(async () => {
  await t?.close();
});

describe('strategy', () => {
  it('a company that never saved one reads the defaults', async () => {
    expect(await info('other_admin')).toEqual(DEFAULTS);
  });

  it('saves every field and reads it back; numbers sent as text are converted (SPEC §5)', async () => {
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
    expect((await set({ maxCustomer: '120', decryptPhoneNum: '8' })).json().code).toBe(0);
    expect(await info()).toMatchObject({ maxCustomer: 120, decryptPhoneNum: 8 });
    expect((await set({})).json().code).toBe(0);
    expect(await info()).toEqual(DEFAULTS);
  });

  it('recycleRemind runs from 0 to 365 days', async () => {
    for (const ok of [0, 365]) expect((await set({ recycleRemind: ok })).json().code, String(ok)).toBe(0);
    expect((await info()).recycleRemind).toBe(365);
    expect((await set({ recycleRemind: -1 })).json()).toMatchObject({ code: 100001, msg: '提醒天数不能小于0' });
    expect((await set({ recycleRemind: 366 })).json()).toMatchObject({ code: 100001, msg: '提醒天数不能超过365' });
    expect((await set({ recycleRemind: 1.5 })).json().code).toBe(100001);
    expect((await info()).recycleRemind).toBe(365);
    await set({});
  });

  it('maxCustomer runs from 0 (不限制) to 1,000,000', async () => {
    for (const ok of [0, 1_000_000]) expect((await set({ maxCustomer: ok })).json().code, String(ok)).toBe(0);
    expect((await set({ maxCustomer: -1 })).json()).toMatchObject({ code: 100001, msg: '客户上限不能小于0' });
    expect((await set({ maxCustomer: 1_000_001 })).json()).toMatchObject({ code: 100001, msg: '客户上限不能超过1000000' });
    expect((await info()).maxCustomer).toBe(1_000_000);
    await set({});
  });

  it('decryptPhoneNum runs from 0 to 100,000 a day', async () => {
    for (const ok of [0, 100_000]) expect((await set({ decryptPhoneNum: ok })).json().code, String(ok)).toBe(0);
    expect((await set({ decryptPhoneNum: -1 })).json()).toMatchObject({ code: 100001, msg: '每日查看次数不能小于0' });
    expect((await set({ decryptPhoneNum: 100_001 })).json()).toMatchObject({
      code: 100001,
      msg: '每日查看次数不能超过100000',
    });
    expect((await info()).decryptPhoneNum).toBe(100_000);
    await set({});
  });

  it('the switches take 0 or 1 only; every field is required', async () => {
    for (const field of ['mustCustomerName', 'repeatCustomerName', 'seaPhoneEncryp', 'phoneEncryp']) {
      expect((await set({ [field]: 2 })).json().code, field).toBe(100001);
      expect((await set({ [field]: -1 })).json().code, field).toBe(100001);
    }
    const { recycleRemind: _, ...missing } = DEFAULTS;
    expect((await t.post('/api/frontend/customerset/strategyset', missing, as('admin'))).json().code).toBe(100001);
    expect(await info()).toEqual(DEFAULTS);
  });

  it('every account reads it; only /set/strategy saves it (100003)', async () => {
    expect(await info('lisi')).toEqual(await info('admin'));
    expect((await set({ maxCustomer: 1 }, 'lisi')).json().code).toBe(100003);
    expect((await info()).maxCustomer).toBe(0);
  });

  it('each company has its own strategy', async () => {
    expect((await set({ phoneEncryp: 1, decryptPhoneNum: 3 }, 'other_admin')).json().code).toBe(0);
    expect(await info('other_admin')).toMatchObject({ phoneEncryp: 1, decryptPhoneNum: 3 });
    expect(await info('admin')).toMatchObject({ phoneEncryp: 0, decryptPhoneNum: 20 });
    expect((await set({ recycleRemind: 9 })).json().code).toBe(0);
    expect((await info('other_admin')).recycleRemind).toBe(3);
    await set({});
    await set({}, 'other_admin');
  });
});
