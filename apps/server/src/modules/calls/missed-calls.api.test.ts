import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../../lib/clock';
import { advanceSeconds, createCallTestApp, endedCall, mobileEnding, register } from '../../test/calls';
import type { TestApp } from '../../test/harness';

/** SPEC §2: the call button's badge counts missed incoming calls until the agent has seen them. */
let t: TestApp;
let admin: string;
let lisi: string;
let wangwu: string;
let sipId: number;

const missed = async (token: string) => {
  const res = await t.get('/api/frontend/call/missedcount', token);
  expect(res.json().code, res.body).toBe(0);
  return res.json().data.count as number;
};
/** An incoming call to lisi's extension that rings `ringSeconds` and is then hung up by the caller. */
const ring = async (ringSeconds: number) => {
  const res = await t.post(
    '/api/frontend/call/simincoming',
    { cmSipid: sipId, callerNumber: mobileEnding(9), ringSeconds },
    admin,
  );
  expect(res.json().code, res.body).toBe(0);
  return res.json().data.uuid as string;
};

beforeAll(async () => {
  t = await createCallTestApp();
  admin = await t.login('admin');
  lisi = await t.login('lisi');
  wangwu = await t.login('wangwu');
  await register(t, lisi);
  sipId = (await t.get('/api/frontend/call/siplist?user=8001', admin)).json().data.list[0].cmSipid;
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('missed incoming calls', () => {
  it('count until seen, for their agent only; answered calls never count', async () => {
    expect(await missed(lisi)).toBe(0);
    await endedCall(t, await ring(1));
    expect(await missed(lisi)).toBe(1);
    await endedCall(t, await ring(1));
    expect(await missed(lisi)).toBe(2);
    expect(await missed(wangwu)).toBe(0);

    // an answered incoming call is not missed
    const answered = await ring(60);
    expect((await t.post('/api/frontend/call/answer', { uuid: answered }, lisi)).json().code).toBe(0);
    advanceSeconds(3);
    expect((await t.post('/api/frontend/call/hangup', { uuid: answered }, lisi)).json().code).toBe(0);
    await endedCall(t, answered);
    expect(await missed(lisi)).toBe(2);

    // seen: the badge clears; a call missed afterwards counts again
    expect((await t.post('/api/frontend/call/missedseen', {}, lisi)).json()).toMatchObject({ code: 0, data: null });
    expect(await missed(lisi)).toBe(0);
    advanceSeconds(1);
    await endedCall(t, await ring(1));
    expect(await missed(lisi)).toBe(1);
  });
});
