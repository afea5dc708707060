import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { staff } from '../../db/schema';
import { setClockOffsetMs } from '../../lib/clock';
import { samplesOfWav } from '../../telephony/sim/wav';
import { advanceSeconds, callRow, callSocket, endedCall, mobileEnding, readyLine, waitFor } from '../../test/calls';
import { createTestApp, type TestApp } from '../../test/harness';
import { bridgeLegs, hangupLeg, originateCustomerLeg, playInto, stopPlay } from './call-control';
import * as legs from './call-legs.repo';
import * as repo from './calls.repo';

// Several app instances on one database (issue 12): a leg lives in the line of the instance that
// placed it; commands from another instance reach it over the pub/sub (Redis when REDIS_URL is set,
// else one in-process bus the instances share); a restarted instance ends the legs it held.

const redisUrl = process.env.REDIS_URL || 'memory://call-control-instances';
const run = randomBytes(3).toString('hex');
const id = (name: string) => `${name}-${run}`;
const config = (instanceId: string) =>
  loadConfig(undefined, {
    logLevel: 'silent',
    webDist: '/nonexistent',
    simSpeed: 200,
    simTalkSeconds: 3600,
    redisUrl,
    instanceId,
    dataDir: `/tmp/crm-test-${process.pid}`,
  });

let a: TestApp;
let b: FastifyInstance;
let tenantId: number;
// wangwu: calls-redis.api.test.ts uses lisi on the same Redis (a socket login replaces the staff's others)
let wangwu: string;
let wangwuId: number;

const legIn = (legId: string, state: number) =>
  waitFor(async () => {
    const leg = await legs.findLeg(a.app.db, legId);
    return leg && leg.state >= state && leg;
  }, `leg ${legId} in state ${state}`);

beforeAll(async () => {
  a = await createTestApp({ config: { simSpeed: 200, simTalkSeconds: 3600, redisUrl, instanceId: id('a') } });
  b = await buildApp(config(id('b')), a.database);
  await b.ready();
  wangwu = await a.login('wangwu');
  wangwuId = (await a.get('/api/frontend/user/info', wangwu)).json().data.userInfo.cmSid;
  const [me] = await a.database.db.select().from(staff).where(eq(staff.id, wangwuId));
  tenantId = me.tenantId;
  await repo.upsertCallSettings(a.app.db, tenantId, { callerNumber: '', callHoursFrom: '00:00', callHoursTo: '24:00' });
});
afterAll(async () => {
  setClockOffsetMs(0);
  await b.close();
  await a.close();
});

describe('call control across instances', () => {
  it('plays into, stops and hangs up from another instance the leg one instance holds', async () => {
    const { callUuid, legId } = await originateCustomerLeg(a.app.calls, { tenantId, number: mobileEnding(1), ringSeconds: 30 });
    expect((await legIn(legId, 2)).ownerInstance).toBe(id('a'));
    expect(b.calls.line.isActive(legId)).toBe(false);
    // 0.2 s of prompt, from b, played by a's line
    expect(await playInto(b.calls, legId, new Int16Array(1600).fill(1000))).toBe('done');
    // 60 s of prompt stopped from b
    const long = playInto(b.calls, legId, new Int16Array(480_000));
    await new Promise((r) => setTimeout(r, 20));
    await stopPlay(b.calls, legId);
    expect(await long).toBe('stopped');
    advanceSeconds(3);
    expect(await hangupLeg(b.calls, legId, 1, 'normal')).toBe(true);
    expect(a.app.calls.line.isActive(legId)).toBe(false);
    const call = await endedCall(a, callUuid);
    expect(call).toMatchObject({ hangupSide: 1, hangupCause: 'normal' });
    // the prompt crossed the bus intact: 0.2 s at 1000 in the owner's recording
    const wav = await a.get(call.recordFile, await a.login('admin'));
    const samples = samplesOfWav(wav.rawPayload);
    let best = 0;
    for (let i = 0; i + 1600 <= samples.length; i += 40) {
      let sum = 0;
      for (let k = i; k < i + 1600; k++) sum += samples[k];
      best = Math.max(best, sum / 1600);
    }
    expect(best).toBeGreaterThan(950);
  });

  it("bridges from another instance: the agent leg is placed by the customer leg's owner", async () => {
    await readyLine(a, wangwu);
    const s = await callSocket(a, wangwu);
    const { callUuid, legId } = await originateCustomerLeg(a.app.calls, { tenantId, number: mobileEnding(2), ringSeconds: 30 });
    await legIn(legId, 2);
    const agentLegId = await bridgeLegs(b.calls, legId, wangwuId);
    expect(await legIn(agentLegId, 1)).toMatchObject({ ownerInstance: id('a'), role: 'agent' });
    await s.next((f) => f.msg_type === 5 && (f.data as { uuid: string }).uuid === callUuid, 'the agent rings');
    // he answers through instance b's route; a's line answers his leg
    const res = await b.inject({
      method: 'POST',
      url: '/api/frontend/call/answer',
      payload: { uuid: callUuid },
      headers: { authorization: wangwu },
    });
    expect(res.json().code).toBe(0);
    await waitFor(async () => (await legs.findLeg(a.app.db, legId))?.bridgedWith === agentLegId, 'bridged');
    expect((await callRow(a, callUuid)).staffId).toBe(wangwuId);
    advanceSeconds(3);
    await hangupLeg(b.calls, agentLegId, 1, 'normal');
    expect(await endedCall(a, callUuid)).toMatchObject({ hangupSide: 1 });
    expect(await legs.findLeg(a.app.db, legId)).toMatchObject({ state: 3 });
    s.ws.terminate();
  });

  it('a restarted instance ends the legs its previous life held; a leg whose owner is gone is ended on its row', async () => {
    const c = await buildApp(config(id('c')), a.database);
    await c.ready();
    const placed = await originateCustomerLeg(c.calls, { tenantId, number: mobileEnding(1), ringSeconds: 30 });
    await legIn(placed.legId, 2);
    // the record follows its leg's event after the leg's own row: wait for it before the owner goes
    await waitFor(async () => (await callRow(a, placed.callUuid)).state === 2, 'the record answered');
    await c.close();
    // the record still says answered: nobody ended it
    expect((await callRow(a, placed.callUuid)).state).toBe(2);
    const again = await buildApp(config(id('c')), a.database);
    await again.ready();
    try {
      const ended = await endedCall(a, placed.callUuid);
      expect(ended).toMatchObject({ hangupSide: 3, hangupCause: 'instance_restart' });
      expect(await legs.findLeg(a.app.db, placed.legId)).toMatchObject({ state: 3, hangupCause: 'instance_restart' });
    } finally {
      await again.close();
    }

    // an owner that never comes back: a hang-up from another instance asks the line to end what may
    // outlive it (the stored handle: a sip dialog) and ends the leg on its row
    const d = await buildApp(config(id('d')), a.database);
    await d.ready();
    const lost = await originateCustomerLeg(d.calls, { tenantId, number: mobileEnding(1), ringSeconds: 30 });
    await legIn(lost.legId, 2);
    const handle = await waitFor(async () => (await legs.findLeg(a.app.db, lost.legId))?.lineHandle, 'the leg handle');
    expect(JSON.parse(handle)).toEqual({ sim: lost.legId });
    await d.close();
    advanceSeconds(3);
    const asked: string[] = [];
    const line = a.app.calls.line;
    const original = line.endByHandle;
    line.endByHandle = async (h, cause) => {
      asked.push(`${h} ${cause}`);
      return false;
    };
    try {
      expect(await hangupLeg(a.app.calls, lost.legId)).toBe(true);
    } finally {
      line.endByHandle = original;
    }
    expect(asked).toEqual([`${handle} normal`]);
    expect(await endedCall(a, lost.callUuid)).toMatchObject({ hangupSide: 3, hangupCause: 'normal' });
  }, 20_000);
});
