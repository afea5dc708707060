import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DialResponse } from '@crm/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setClockOffsetMs } from '../../lib/clock';
import { advanceSeconds, callRow, endedCall, register, waitFor } from '../../test/calls';
import { createTestApp, type TestApp } from '../../test/harness';
import { hangupActiveCallsOf, sweepCalls } from './calls-lifecycle';

/**
 * The sip line's internal API (issue 7) as Kamailio uses it: auth, route, events, and the app
 * ending calls through Kamailio's JSON-RPC. Kamailio is played here by a small HTTP server that
 * answers the RPCs and reports the dialog's end back, as the real one does (the real stack runs
 * in npm run test:sip).
 */
const SECRET = 'internal-test-secret-0123456789';
let t: TestApp;
let lisi: string;
let rpc: http.Server;
const rpcCalls: { method: string; params: unknown; secret: string }[] = [];

const internal = (path: string, body: unknown, secret = SECRET) =>
  t.app.inject({
    method: 'POST',
    url: `/internal/telephony/${path}`,
    payload: body as object,
    headers: { 'x-telephony-secret': secret },
  });

/** What Kamailio posts after an RPC: the BYE ended the dialog, or the CANCEL failed the INVITE. */
const reportBack = (method: string, params: unknown) => {
  const uuid =
    method === 'tm.cancel'
      ? byCallId.get(String((params as string[])[0]))
      : byDialog.get(String((params as { callId?: string }).callId));
  if (!uuid) return;
  const event = method === 'tm.cancel' ? { event: 'failed', sipStatus: '487' } : { event: 'ended' };
  setTimeout(() => void internal('event', { ...event, callUuid: uuid, callId: 'c' }), 20);
};
const byCallId = new Map<string, string>();
const byDialog = new Map<string, string>();

beforeAll(async () => {
  rpc = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const body = JSON.parse(raw) as { method: string; params: unknown; id: number };
      rpcCalls.push({ method: body.method, params: body.params, secret: String(req.headers['x-telephony-secret']) });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', result: 'ok', id: body.id }));
      reportBack(body.method, body.params);
    });
  });
  await new Promise<void>((r) => rpc.listen(0, '127.0.0.1', r));
  const port = (rpc.address() as AddressInfo).port;
  t = await createTestApp({
    config: {
      telephony: 'sip',
      sip: {
        internalSecret: SECRET,
        wsUrl: 'ws://127.0.0.1:8080',
        domain: '127.0.0.1',
        recordingDir: '',
        rpcUrl: `http://127.0.0.1:${port}/RPC`,
      },
    },
  });
  lisi = await t.login('lisi');
  await register(t, lisi);
});

afterAll(async () => {
  setClockOffsetMs(0);
  await t?.close();
  rpc?.close();
});

const dial = async (number: string) => {
  const res = await t.post('/api/frontend/call/dial', { dstNumber: number }, lisi);
  expect(res.json(), res.body).toMatchObject({ code: 0 });
  return (res.json().data as DialResponse).uuid;
};

describe('the sip line as Kamailio sees it', () => {
  it('answers only with the shared secret', async () => {
    expect((await internal('auth', { user: '8001' }, 'wrong-secret-wrong-secret')).statusCode).toBe(403);
    const res = await internal('auth', { user: '8001' });
    expect(res.statusCode).toBe(200);
    expect(res.json().password).toMatch(/.+/);
    expect((await internal('auth', { user: '9999' })).statusCode).toBe(404);
  });

  it('routes a call uuid to its number from the call record, for its own extension only', async () => {
    const uuid = await dial('13800138000');
    // the app restarted (no call held in memory): the record still answers Kamailio
    t.app.calls.provider.close();
    const ok = await internal('route', { uuid, agent: '8001' });
    expect(ok.json()).toEqual({ number: '13800138000' });
    expect((await internal('route', { uuid, agent: '8002' })).statusCode).toBe(404);
    expect((await internal('route', { uuid: 'not-a-call', agent: '8001' })).statusCode).toBe(404);

    // the set-up timeout: the ringing INVITE is cancelled in Kamailio, the record says timeout by the system
    await internal('event', { event: 'ringing', callUuid: uuid, callId: 'call-a', cseq: '2' });
    byCallId.set('call-a', uuid);
    expect(JSON.parse((await callRow(t, uuid)).sipDialog)).toMatchObject({ callId: 'call-a', cseq: '2' });
    advanceSeconds(61);
    await sweepCalls(t.app.calls);
    const row = await endedCall(t, uuid);
    expect(rpcCalls.at(-1)).toEqual({ method: 'tm.cancel', params: ['call-a', '2'], secret: SECRET });
    expect(row).toMatchObject({ hangupSide: 3, hangupCause: 'timeout' });
  });

  it('a system hang-up of a call in talk ends the dialog in Kamailio (BYE both ways)', async () => {
    advanceSeconds(120);
    const uuid = await dial('13800138001');
    await internal('event', { event: 'ringing', callUuid: uuid, callId: 'call-b', cseq: '2' });
    await internal('event', { event: 'answered', callUuid: uuid, callId: 'call-b', fromTag: 'ft-b', toTag: 'tt-b' });
    byDialog.set('call-b', uuid);
    await waitFor(async () => (await callRow(t, uuid)).state === 2, 'answered');
    advanceSeconds(5);
    await hangupActiveCallsOf(t.app.calls, (await callRow(t, uuid)).staffId ?? 0, 'multi_login');
    const row = await endedCall(t, uuid);
    expect(rpcCalls.at(-1)).toEqual({
      method: 'crm.end_dialog',
      params: { callId: 'call-b', fromTag: 'ft-b', toTag: 'tt-b' },
      secret: SECRET,
    });
    // Kamailio's report of the BYE it sent keeps the app's side and cause
    expect(row).toMatchObject({ hangupSide: 3, hangupCause: 'multi_login', billsec: 5 });
  });

  it('a failed INVITE maps to the record cause (486 → busy)', async () => {
    advanceSeconds(120);
    const uuid = await dial('13800138006');
    await internal('event', { event: 'ringing', callUuid: uuid, callId: 'call-c', cseq: '2' });
    await internal('event', { event: 'failed', callUuid: uuid, callId: 'call-c', sipStatus: '486' });
    expect(await endedCall(t, uuid)).toMatchObject({ hangupSide: 2, hangupCause: 'busy', billsec: 0 });
  });
});
