import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staff, strategies } from '../../db/schema';
import { createTestApp, type TestApp } from '../../test/harness';
import { getStrategy, STRATEGY_DEFAULTS } from './strategy.service';

/** The company strategy (SPEC §3): one set of defaults, limits checked at both edges. */

let t: TestApp;
let admin: string;
let otherAdmin: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  otherAdmin = await t.login('other_admin');
});
afterAll(async () => {
  await t.close();
});

const info = async (token: string) => (await t.get('/api/frontend/customerset/strategyinfo', token)).json().data;
const save = (token: string, body: Record<string, unknown>) =>
  t.post('/api/frontend/customerset/strategyset', { ...STRATEGY_DEFAULTS, ...body }, token);

describe('strategy', () => {
  it('a company that never saved one reads the product defaults, and the table defaults say the same', async () => {
    expect(await info(otherAdmin)).toEqual(STRATEGY_DEFAULTS);
    // A row written with only its key takes the column defaults: they must be the product's.
    const [other] = await t.database.db.select().from(staff).where(eq(staff.username, 'other_admin'));
    const tenantId = other.tenantId;
    await t.database.db.delete(strategies).where(eq(strategies.tenantId, tenantId));
    await t.database.db.insert(strategies).values({ tenantId });
    expect(await getStrategy(t.database.db, tenantId)).toEqual(STRATEGY_DEFAULTS);
  });

  it('saves every field, and each limit holds at both edges', async () => {
    for (const [field, ok, bad, msg] of [
      ['decryptPhoneNum', 100_000, 100_001, '每日查看次数不能超过100000'],
      ['decryptPhoneNum', 0, -1, '每日查看次数不能小于0'],
      ['maxCustomer', 1_000_000, 1_000_001, '客户上限不能超过1000000'],
      ['maxCustomer', 0, -1, '客户上限不能小于0'],
      ['recycleRemind', 365, 366, '提醒天数不能超过365'],
    ] as const) {
      expect((await save(admin, { [field]: ok })).json(), `${field}=${ok}`).toMatchObject({ code: 0, msg: '保存成功' });
      expect((await info(admin))[field]).toBe(ok);
      const refused = await save(admin, { [field]: bad });
      expect(refused.statusCode, `${field}=${bad}`).toBe(400);
      expect(refused.json().msg).toContain(msg);
      expect((await info(admin))[field]).toBe(ok);
    }
    expect((await save(admin, { phoneEncryp: 2 })).statusCode).toBe(400);
    expect((await save(admin, {})).json().code).toBe(0);
    expect(await info(admin)).toEqual(STRATEGY_DEFAULTS);
  });

  it('only the admin menu may save it; every staff reads it', async () => {
    const lisi = await t.login('lisi');
    expect((await save(lisi, { phoneEncryp: 1 })).statusCode).toBe(403);
    expect(await info(lisi)).toMatchObject({ phoneEncryp: STRATEGY_DEFAULTS.phoneEncryp });
  });
});
