import type { CallProgress, DialResponse } from '@crm/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { setClockOffsetMs } from '../../lib/clock';
import { advanceSeconds, callSocket, endedCall, mobileEnding, register } from '../../test/calls';
import { createTestApp, type TestApp } from '../../test/harness';

// Several server instances share call events through Redis (REDIS_URL) and one PostgreSQL: the test
// runs in the PostgreSQL project when a Redis is given (CI gives both), never twice at once on one Redis.
const redisUrl = process.env.REDIS_URL ?? '';
const isPostgres = Boolean(process.env.DATABASE_URL);

describe.runIf(redisUrl && isPostgres)('call events across instances (Redis pub/sub)', () => {
  let a: TestApp;
  let b: FastifyInstance;
  let lisi: string;

  beforeAll(async () => {
    a = await createTestApp({ config: { simSpeed: 200, simTalkSeconds: 3600, redisUrl } });
    // a second instance on the same database
    b = await buildApp(
      loadConfig(process.env, { logLevel: 'silent', webDist: '/nonexistent', simSpeed: 200, simTalkSeconds: 3600, redisUrl }),
      a.database,
    );
    await b.ready();
    lisi = await a.login('lisi');
    await register(a, lisi);
  });
  afterAll(async () => {
    setClockOffsetMs(0);
    await b.close();
    await a.close();
  });

  it('a call placed on one instance reaches the socket held by the other', async () => {
    const s = await callSocket(a, lisi);
    const res = await b.inject({
      method: 'POST',
      url: '/api/frontend/call/dial',
      payload: { dstNumber: mobileEnding(1) },
      headers: { authorization: lisi },
    });
    const call = res.json().data as DialResponse;
    const event = (name: string) => (f: { msg_type: number; data: unknown }) =>
      f.msg_type === 4 && (f.data as CallProgress).uuid === call.uuid && (f.data as CallProgress).event === name;
    await s.next(event('answered'), 'answered via redis');
    advanceSeconds(5);
    const hangup = await b.inject({
      method: 'POST',
      url: '/api/frontend/call/hangup',
      payload: { uuid: call.uuid },
      headers: { authorization: lisi },
    });
    expect(hangup.json().code).toBe(0);
    await s.next(event('ended'), 'ended via redis');
    expect((await endedCall(a, call.uuid)).hangupSide).toBe(1);

    // a second login on the other instance replaces the first socket
    const ws = await b.injectWS('/ws/call');
    const frames: { msg_type: number }[] = [];
    ws.on('message', (d) => frames.push(JSON.parse(String(d))));
    ws.send(JSON.stringify({ type: 'login', token: lisi }));
    await s.next((f) => f.code === 110011, '请勿多端登录 via redis');
    ws.terminate();
  });
});
