import {
  type CallProgress,
  type DeviceServerFrame,
  type DialResponse,
  ERRORS,
  HANGUP_SIDE,
  LIMITS,
  REGISTER_STATUS,
} from '@crm/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRecords, sessions, sipAccounts } from '../../db/schema';
import { setClockOffsetMs } from '../../lib/clock';
import { advanceSeconds, callRow, callSocket, endedCall, mobileEnding, openSocket, register, waitFor } from '../../test/calls';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/harness';
import { forgetKeptSessions } from '../auth/session-actors';

/**
 * Issue 11 holes 5 and 11 and the socket lifecycle of the screen walk: a revoked session closes
 * its call socket at once and every command checks the session; frames are validated; sockets
 * that never log in are closed and capped per address; a lost socket ends its staff's calls on
 * every line and, after a grace period, takes his extension offline.
 */

const LOGIN_WAIT_MS = 400;
const MAX_UNAUTHENTICATED = 4;
const GRACE_MS = 600;

let t: TestApp;
let seq = 0;
let dept1 = 0;
let salesRole = 0;

const progressOf = (f: { data: unknown }) => f.data as CallProgress;
const isExpired = (f: { code: number }) => f.code === ERRORS.LOGIN_EXPIRED.code;

/** A fresh 销售 with his own extension (bound, default, registered): each test has its own staff. */
const newAgent = async (merchantType = 1) => {
  seq += 1;
  const admin = await t.login('admin');
  const username = `sock${seq}`;
  const created = await t.post(
    '/api/frontend/staff/create',
    {
      username,
      password: DEMO_PASSWORD,
      name: `坐席${seq}`,
      phone: `1352222${String(seq).padStart(4, '0')}`,
      sex: 1,
      cmDid: dept1,
      cmArid: salesRole,
      merchantType,
    },
    admin,
  );
  expect(created.json()).toMatchObject({ code: 0 });
  const staffId = created.json().data.cmSid as number;
  const user = String(8600 + seq);
  const imei = merchantType === 2 ? `86111100000${String(seq).padStart(4, '0')}` : '';
  const sip = await t.post('/api/frontend/call/sipcreate', { user, pwd: 'Sip-pass-123', server: '127.0.0.1', imei }, admin);
  expect(sip.json()).toMatchObject({ code: 0 });
  const cmSipid = (await t.get(`/api/frontend/call/siplist?user=${user}`, admin)).json().data.list[0].cmSipid as number;
  expect((await t.post('/api/frontend/call/sipbindstaff', { cmSipid, cmSid: staffId }, admin)).json().code).toBe(0);
  const token = await t.login(username);
  expect((await t.post('/api/frontend/call/sipdefaultmy', { cmSipid }, token)).json().code).toBe(0);
  if (merchantType === 1) await register(t, token);
  return { username, staffId, token, cmSipid, admin };
};

const registerStatusOf = async (cmSipid: number) =>
  (await t.database.db.select({ s: sipAccounts.registerStatus }).from(sipAccounts).where(eq(sipAccounts.id, cmSipid)))[0].s;

beforeAll(async () => {
  t = await createTestApp({
    config: {
      simSpeed: 200,
      simTalkSeconds: 3600,
      callSocket: { loginWaitMs: LOGIN_WAIT_MS, maxUnauthenticatedPerAddress: MAX_UNAUTHENTICATED, lostGraceMs: GRACE_MS },
    },
  });
  const admin = await t.login('admin');
  dept1 = (await t.get('/api/frontend/department/list', admin))
    .json()
    .data.list.find((d: { name: string }) => d.name === '销售一部').cmDid;
  salesRole = (await t.get('/api/frontend/role/list', admin))
    .json()
    .data.list.find((r: { name: string }) => r.name === '销售').cmArid;
});
afterAll(async () => {
  setClockOffsetMs(0);
  await t.close();
});

describe('revoked sessions (hole 5)', () => {
  it('logout closes the open socket at once (100002, code 4002)', async () => {
    const a = await newAgent();
    const s = await callSocket(t, a.token);
    expect((await t.post('/api/frontend/logout', {}, a.token)).json().code).toBe(0);
    expect(await s.next(isExpired, '100002')).toMatchObject({ msg_type: 3, msg: ERRORS.LOGIN_EXPIRED.msg });
    await waitFor(async () => s.closeCode() === 4002, 'close 4002');
  });

  it('a password change closes the sockets of the other sessions, not the current one', async () => {
    const a = await newAgent();
    const other = await t.login(a.username);
    const s = await callSocket(t, other);
    const res = await t.post(
      '/api/frontend/user/password',
      { oldPassword: DEMO_PASSWORD, newPassword: 'Newpass123', confirmPassword: 'Newpass123' },
      a.token,
    );
    expect(res.json().code).toBe(0);
    await s.next(isExpired, '100002');
    await waitFor(async () => s.closeCode() === 4002, 'close 4002');
    const mine = await callSocket(t, a.token);
    await t.post(
      '/api/frontend/user/password',
      { oldPassword: 'Newpass123', newPassword: 'Newpass456', confirmPassword: 'Newpass456' },
      a.token,
    );
    mine.send({ type: 'heartbeat' });
    await mine.next((f) => f.msg_type === 2, 'pong');
    expect(mine.frames.some(isExpired)).toBe(false);
    expect(mine.closeCode()).toBeUndefined();
    mine.ws.terminate();
  });

  it('disabling the account closes its socket and ends its call in progress', async () => {
    const a = await newAgent();
    const s = await callSocket(t, a.token);
    const call = (await t.post('/api/frontend/call/dial', { dstNumber: mobileEnding(1) }, a.token)).json().data as DialResponse;
    await waitFor(async () => (await callRow(t, call.uuid))?.state === 2, 'answer');
    expect((await t.post('/api/frontend/staff/state', { cmSid: a.staffId, actionState: 1 }, a.admin)).json().code).toBe(0);
    await s.next(isExpired, '100002');
    await waitFor(async () => s.closeCode() === 4002, 'close 4002');
    expect(await endedCall(t, call.uuid)).toMatchObject({ hangupSide: HANGUP_SIDE.agent });
  });

  it('every command checks the session: a dial over a socket whose session is gone places no call', async () => {
    const a = await newAgent();
    const s = await callSocket(t, a.token);
    // the session ends without any message reaching the socket (e.g. expired, or another instance lost the publish)
    await t.database.db.delete(sessions).where(eq(sessions.staffId, a.staffId));
    forgetKeptSessions(t.database.db);
    s.send({ type: 'dial', dstNumber: mobileEnding(1) });
    await s.next(isExpired, '100002');
    await waitFor(async () => s.closeCode() === 4002, 'close 4002');
    expect(await t.database.db.select().from(callRecords).where(eq(callRecords.staffId, a.staffId))).toEqual([]);
  });

  it('a heartbeat over a socket whose session is gone ends it too', async () => {
    const a = await newAgent();
    const s = await callSocket(t, a.token);
    await t.database.db.delete(sessions).where(eq(sessions.staffId, a.staffId));
    forgetKeptSessions(t.database.db);
    s.send({ type: 'heartbeat' });
    await s.next(isExpired, '100002');
    await waitFor(async () => s.closeCode() === 4002, 'close 4002');
  });
});

describe('heartbeats and the idle expiry (hole 12)', () => {
  it('a heartbeat is no activity: it does not refresh the session, and past the idle expiry it ends the socket', async () => {
    const a = await newAgent();
    const s = await callSocket(t, a.token);
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await t.database.db.update(sessions).set({ lastSeenAt: twoHoursAgo }).where(eq(sessions.staffId, a.staffId));
    forgetKeptSessions(t.database.db);
    s.send({ type: 'heartbeat' });
    await s.next((f) => f.msg_type === 2, 'pong');
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.staffId, a.staffId));
    expect(row.lastSeenAt.getTime()).toBe(twoHoursAgo.getTime());
    const idle = new Date(Date.now() - (LIMITS.sessionIdleSeconds + 60) * 1000);
    await t.database.db.update(sessions).set({ lastSeenAt: idle }).where(eq(sessions.staffId, a.staffId));
    forgetKeptSessions(t.database.db);
    s.send({ type: 'heartbeat' });
    await s.next(isExpired, '100002');
    await waitFor(async () => s.closeCode() === 4002, 'close 4002');
  });
});

describe('frames and unauthenticated sockets (hole 11)', () => {
  it('null, arrays, numbers, text and objects without a type answer 100001, never 100500', async () => {
    const a = await newAgent();
    const s = await callSocket(t, a.token);
    const bad = ['null', '[]', '5', '"dial"', '{}', '{"type":5}', 'not json'];
    for (const raw of bad) s.ws.send(raw);
    await waitFor(
      async () => s.frames.filter((f) => f.code === ERRORS.VALIDATION.code).length === bad.length,
      'a refusal per bad frame',
    );
    expect(s.frames.some((f) => f.code === ERRORS.INTERNAL.code)).toBe(false);
    // a dial frame with a token of the wrong type or an over-long token logs nobody in
    s.send({ type: 'heartbeat' });
    await s.next((f) => f.msg_type === 2, 'still serving');
    s.ws.terminate();
    const anon = await openSocket(t, '/ws/call');
    anon.send({ type: 'login', token: { not: 'a string' } });
    await anon.next(isExpired, '100002 for a non-string token');
    const long = await openSocket(t, '/ws/call');
    long.send({ type: 'login', token: `${a.token}${'x'.repeat(300)}` });
    await long.next(isExpired, '100002 for an over-long token');
  });

  it(`a socket that does not log in within the wait is closed (1008); one that does stays`, async () => {
    const a = await newAgent();
    const idle = await openSocket(t, '/ws/call');
    const s = await callSocket(t, a.token);
    await waitFor(async () => idle.closeCode() === 1008, 'login timeout', LOGIN_WAIT_MS + 2000);
    await new Promise((r) => setTimeout(r, LOGIN_WAIT_MS));
    expect(s.closeCode()).toBeUndefined();
    s.ws.terminate();
  });

  it(`edge: ${MAX_UNAUTHENTICATED} sockets not logged in from one address are held, one more is refused; a login frees a place`, async () => {
    const a = await newAgent();
    const held = [];
    for (let i = 0; i < MAX_UNAUTHENTICATED; i++) held.push(await openSocket(t, '/ws/call'));
    for (const h of held) await h.next((f) => f.msg_type === 0, 'ask login');
    const refused = await openSocket(t, '/ws/call');
    await waitFor(async () => refused.closeCode() === 1008, 'refused');
    expect(held.every((h) => h.closeCode() === undefined)).toBe(true);
    // one of them logs in: a new socket is accepted again
    held[0].send({ type: 'login', token: a.token });
    await held[0].next((f) => f.msg_type === 1, 'login ok');
    const next = await openSocket(t, '/ws/call');
    await next.next((f) => f.msg_type === 0, 'ask login');
    expect(next.closeCode()).toBeUndefined();
    for (const h of [...held, next]) h.ws.terminate();
  });
});

describe('a lost socket (screen walk)', () => {
  it('sim line: closing the page mid-call ends the call as the agent; the next dial is not refused', async () => {
    const a = await newAgent();
    const s = await callSocket(t, a.token);
    const call = (await t.post('/api/frontend/call/dial', { dstNumber: mobileEnding(1) }, a.token)).json().data as DialResponse;
    await waitFor(async () => (await callRow(t, call.uuid))?.state === 2, 'answer');
    s.ws.terminate();
    expect(await endedCall(t, call.uuid)).toMatchObject({ hangupSide: HANGUP_SIDE.agent, hangupCause: 'normal' });
    // the reloaded page dials again
    const again = await callSocket(t, a.token);
    advanceSeconds(1);
    const next = await t.post('/api/frontend/call/dial', { dstNumber: mobileEnding(1) }, a.token);
    expect(next.json().code).toBe(0);
    await again.next((f) => f.msg_type === 4 && progressOf(f).uuid === next.json().data.uuid, 'created');
    advanceSeconds(3);
    await t.post('/api/frontend/call/hangup', { uuid: next.json().data.uuid }, a.token);
    await endedCall(t, next.json().data.uuid);
    again.ws.terminate();
  });

  it('device line: closing the page mid-call ends the record and tells the phone to hang up', async () => {
    const a = await newAgent(2);
    const sip = (await t.get(`/api/frontend/call/siplist?user=${String(8600 + seq)}`, a.admin)).json().data.list[0];
    const d = await openSocket<DeviceServerFrame>(t, `/ws/device?imei=${sip.imei}`, { 'x-device-secret': sip.deviceSecret });
    await d.next((f) => f.type === 'hello', 'hello');
    const s = await callSocket(t, a.token);
    const res = await t.post('/api/callend/phone/dial', { dstNumber: mobileEnding(1), sourceType: 2 }, a.token);
    expect(res.json().code).toBe(0);
    const uuid = res.json().data.uuid as string;
    await d.next((f) => f.type === 'dial', 'dial command');
    s.ws.terminate();
    await d.next((f) => f.type === 'hangup' && f.uuid === uuid, 'hang-up command');
    expect(await endedCall(t, uuid)).toMatchObject({ hangupSide: HANGUP_SIDE.agent });
    d.ws.terminate();
  });

  it('the extension goes offline after the grace period when no socket of the staff is left', async () => {
    const a = await newAgent();
    expect(await registerStatusOf(a.cmSipid)).toBe(REGISTER_STATUS.registered);
    const s = await callSocket(t, a.token);
    s.ws.terminate();
    await new Promise((r) => setTimeout(r, GRACE_MS / 3));
    expect(await registerStatusOf(a.cmSipid)).toBe(REGISTER_STATUS.registered);
    await waitFor(async () => (await registerStatusOf(a.cmSipid)) === REGISTER_STATUS.unregistered, 'offline', GRACE_MS + 3000);
  });

  it('a reload (a new socket within the grace period) keeps the extension online', async () => {
    const a = await newAgent();
    const s = await callSocket(t, a.token);
    s.ws.terminate();
    const reloaded = await callSocket(t, a.token);
    await new Promise((r) => setTimeout(r, GRACE_MS * 2));
    expect(await registerStatusOf(a.cmSipid)).toBe(REGISTER_STATUS.registered);
    reloaded.ws.terminate();
  });
});

describe('entering /login unregisters (SPEC §2)', () => {
  it('logout takes the default extension offline at once', async () => {
    const a = await newAgent();
    expect((await t.post('/api/frontend/logout', {}, a.token)).json().code).toBe(0);
    expect(await registerStatusOf(a.cmSipid)).toBe(REGISTER_STATUS.unregistered);
  });

  it('sipdefaultregisterStatus 0 takes it offline and keeps the session', async () => {
    const a = await newAgent();
    const res = await t.post('/api/frontend/call/sipdefaultregisterStatus', { registerStatus: 0 }, a.token);
    expect(res.json().code).toBe(0);
    expect(await registerStatusOf(a.cmSipid)).toBe(REGISTER_STATUS.unregistered);
    expect((await t.get('/api/frontend/user/info', a.token)).statusCode).toBe(200);
  });
});
