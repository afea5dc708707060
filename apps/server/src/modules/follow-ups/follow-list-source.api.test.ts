import { type DialResponse, FOLLOW_SOURCE, type FollowRecord } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../../lib/clock';
import { createCallTestApp, endedCall, mobileEnding, register, waitFor } from '../../test/calls';
import { fetchTemplate, mustCreate } from '../../test/customers';
import type { TestApp } from '../../test/harness';

/**
 * SPEC §7: the drawer asks followlist with sourceType=1 (the screen asking), not a filter on the
 * record's origin: the phone calls (written by the call, sourceType 2) are listed under category 3.
 */
let t: TestApp;
let lisi: string;

const history = async (query: string) => {
  const res = await t.get(`/api/frontend/customer/followlist?${query}`, lisi);
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as { list: FollowRecord[]; count: number };
};

beforeAll(async () => {
  t = await createCallTestApp();
  lisi = await t.login('lisi');
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('followlist with sourceType=1, as SPEC §7 says the drawer sends it', () => {
  it('lists the phone calls under followType=3 and every record under 全部', async () => {
    const tpl = await fetchTemplate(t, lisi);
    const id = await mustCreate(t, lisi, tpl, '来源参数测试客户');
    expect((await t.post('/api/frontend/customer/followcreate', { cmCtid: id, remark: '写跟进' }, lisi)).json().code).toBe(0);
    await register(t, lisi);
    // an unanswered call (空号 on the sim line) writes its phone-call record when it ends
    const res = await t.post('/api/frontend/call/dial', { cmCtid: id, dstNumber: mobileEnding(7) }, lisi);
    expect(res.json().code, res.body).toBe(0);
    const call = res.json().data as DialResponse;
    await endedCall(t, call.uuid);

    // the phone record is written by the call.ended event, delivered after the call's commit
    const calls = await waitFor(async () => {
      const found = await history(`cmCtid=${id}&sourceType=1&followType=3`);
      return found.count > 0 ? found : undefined;
    }, 'the call’s phone record');
    expect(calls.list.map((r) => r.record_id)).toEqual([call.uuid]);
    expect(calls.list[0]).toMatchObject({ followType: 3, sourceType: FOLLOW_SOURCE.call });
    expect((await history(`cmCtid=${id}&sourceType=1&followType=-1`)).count).toBe(2);
    expect((await history(`cmCtid=${id}&sourceType=1&followType=0`)).list.map((r) => r.remark)).toEqual(['写跟进']);
    // the same answers without the parameter
    expect((await history(`cmCtid=${id}&followType=3`)).count).toBe(1);
  });
});
