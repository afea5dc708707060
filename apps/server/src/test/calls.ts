import type { CallFrame } from '@crm/contracts';
import { and, eq, ne } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import { callPresence, callRecords } from '../db/schema';
import { clockOffsetMs, setClockOffsetMs } from '../lib/clock';
import { createTestApp, type TestApp } from './harness';

/** Helpers shared by the calling API tests (issue 6). */

/**
 * The sim line 200× faster; answered customers stay on the line unless the number says otherwise
 * (an hour of sim talk: 18 s of real time; a test that needs a call to outlive a longer run sets
 * `talkSeconds`).
 */
export const createCallTestApp = (opts: { dataDir?: string; talkSeconds?: number } = {}) =>
  createTestApp({ dataDir: opts.dataDir, config: { simSpeed: 200, simTalkSeconds: opts.talkSeconds ?? 3600 } });

let seq = 0;
/** A fresh valid mobile number ending in `digit` (the sim outcome table keys on it). */
export const mobileEnding = (digit: number) => {
  seq += 1;
  return `13977${String(seq).padStart(5, '0')}${digit}`;
};

/** Moves the business clock forward (dial lock, hang-up minimum, set-up timeout). */
export const advanceSeconds = (s: number) => setClockOffsetMs(clockOffsetMs() + s * 1000);

export const waitFor = async <T>(
  probe: () => Promise<T | undefined | null | false>,
  what: string,
  timeoutMs = 4000,
): Promise<T> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

export const callRow = async (t: TestApp, uuid: string) =>
  (await t.database.db.select().from(callRecords).where(eq(callRecords.uuid, uuid)))[0];

/** Waits until the call has ended and returns its record. */
export const endedCall = (t: TestApp, uuid: string) =>
  waitFor(async () => {
    const row = await callRow(t, uuid);
    return row?.state === 3 ? row : undefined;
  }, `call ${uuid} to end`);

/** Reports the default extension registered (sim line: the web reports it itself). */
export const register = async (t: TestApp, token: string) => {
  const res = await t.post('/api/frontend/call/sipdefaultregisterStatus', { registerStatus: 1 }, token);
  if (res.json().code !== 0) throw new Error(res.body);
};

/**
 * The staff's line ready for a test of its own (issue 11: tests stand alone): the default extension
 * registered and no call of the staff left on it (each is hung up as the agent, 3 s on).
 */
export const readyLine = async (t: TestApp, token: string) => {
  await register(t, token);
  const me = (await t.get('/api/frontend/user/info', token)).json().data.userInfo.cmSid as number;
  const live = await t.database.db
    .select({ uuid: callRecords.uuid })
    .from(callRecords)
    .where(and(eq(callRecords.staffId, me), ne(callRecords.state, 3)));
  for (const { uuid } of live) {
    advanceSeconds(3);
    await t.post('/api/frontend/call/hangup', { uuid }, token);
    await endedCall(t, uuid);
  }
};

/** A socket client that keeps every JSON frame it receives. */
export type FrameLog<T = CallFrame> = {
  ws: WebSocket;
  frames: T[];
  closeCode: () => number | undefined;
  /** the first frame (from `from` on) matching, waiting for it */
  next: (match: (f: T) => boolean, what: string, timeoutMs?: number) => Promise<T>;
  send: (msg: unknown) => void;
};

export const openSocket = async <T = CallFrame>(
  t: TestApp,
  path: string,
  headers: Record<string, string> = {},
): Promise<FrameLog<T>> => {
  const frames: T[] = [];
  let code: number | undefined;
  const ws = await t.app.injectWS(
    path,
    { headers },
    {
      onInit: (socket) => {
        socket.on('message', (data) => frames.push(JSON.parse(String(data)) as T));
        socket.on('close', (c) => {
          code = c;
        });
      },
    },
  );
  return {
    ws,
    frames,
    closeCode: () => code,
    next: (match, what, timeoutMs = 4000) => waitFor(async () => frames.find(match), what, timeoutMs),
    send: (msg) => ws.send(JSON.stringify(msg)),
  };
};

/** A logged-in call socket of the token's staff, heartbeating as the web does (its presence stays live). */
export const callSocket = async (t: TestApp, token: string) => {
  const s = await openSocket(t, '/ws/call');
  await s.next((f) => f.msg_type === 0, 'ask login');
  s.send({ type: 'login', token });
  await s.next((f) => f.msg_type === 1, 'login ok');
  const beat = setInterval(() => s.send({ type: 'heartbeat' }), 20_000);
  beat.unref();
  s.ws.on('close', () => clearInterval(beat));
  return s;
};

const opened: FrameLog[] = [];
/**
 * Work mode needs the agent's call socket alive (issue 22): opens one for the token's staff unless
 * he has one (a test's own socket is left alone); `closeOpenedSockets` closes those it opened.
 */
export const ensureCallSocket = async (t: TestApp, token: string) => {
  const me = (await t.get('/api/frontend/user/info', token)).json().data.userInfo.cmSid as number;
  const live = await t.database.db.select().from(callPresence).where(eq(callPresence.staffId, me));
  if (live.length === 0) opened.push(await callSocket(t, token));
};
export const closeOpenedSockets = () => {
  for (const s of opened.splice(0)) s.ws.close();
};
