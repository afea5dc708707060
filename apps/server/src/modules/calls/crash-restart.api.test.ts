import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { CALL_STATUS, type CallFrame, type CallProgress, type CalltaskDetail, type GroupcallBoard } from '@crm/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { type Config, loadConfig } from '../../config';
import { appInstances, callPresence, callRecords, callTaskNumbers, sipAccounts } from '../../db/schema';
import { setClockOffsetMs } from '../../lib/clock';
import { callSocket, endedCall, type FrameLog, mobileEnding, readyLine, waitFor } from '../../test/calls';
import { createTestApp, type TestApp } from '../../test/harness';
import { runTick } from '../calltasks/calltasks-runner';
import { INSTANCE_DEAD_MS, sweepDeadInstances } from './call-instances';

// Issue 22 items 3 and 4, kill -9 with calls and dialers running. A crash is simulated by closing
// the app (its sim line forgets its calls silently, as a dead process does) and putting back the
// rows a killed process would have left (its call sockets' presence, its heartbeat row), then
// starting a new app on the same database, with the same INSTANCE_ID (a restart) or another one
// (the cluster sweep). Item 3: no dialer counts the agents whose sockets died with the process
// until they join again from a live socket. Item 4: the calls the dead instance held end at once
// (system hang-up, cause instance_restart), the extension is free, the task number goes back.

const run = randomBytes(3).toString('hex');
const configOf = (instanceId: string): Config =>
  loadConfig(undefined, {
    logLevel: 'silent',
    webDist: '/nonexistent',
    isClockControlled: true,
    simSpeed: 200,
    simTalkSeconds: 3600,
    redisUrl: '',
    instanceId,
    dataDir: path.join(os.tmpdir(), `crm-test-${process.pid}`),
  });

const setBeijing = (hhmmss: string) => {
  const [h, m, s] = hhmmss.split(':').map(Number);
  setClockOffsetMs(Date.UTC(2030, 0, 7, h - 8, m, s) - Date.now());
};

let t: TestApp | undefined;
let restarted: FastifyInstance | undefined;
const sockets: FrameLog[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.ws.close();
  setClockOffsetMs(0);
  if (t) {
    // the harness closes the app it holds, then the database
    if (restarted) t.app = restarted;
    await t.close();
  }
  t = undefined;
  restarted = undefined;
});

/** The first life of an instance, with the demo company. */
const firstLife = async (instanceId: string) => {
  t = await createTestApp({ config: { simSpeed: 200, simTalkSeconds: 3600, instanceId } });
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  for (const u of ['admin', 'lisi']) {
    tokens[u] = await t.login(u);
    ids[u] = (await t.get('/api/frontend/user/info', tokens[u])).json().data.userInfo.cmSid;
  }
  return { t, tokens, ids };
};

/** kill -9: the process stops without a word; what it wrote stays, including its sockets' presence and heartbeat. */
const crash = async (life: TestApp, instanceId: string) => {
  const db = life.database.db;
  const presence = await db.select().from(callPresence).where(eq(callPresence.instanceId, instanceId));
  const beat = await db.select().from(appInstances).where(eq(appInstances.instanceId, instanceId));
  await life.app.close();
  if (presence.length > 0) await db.insert(callPresence).values(presence).onConflictDoNothing();
  if (beat.length > 0) await db.insert(appInstances).values(beat).onConflictDoNothing();
  return { presence, beat };
};

/** A new process on the same database. */
const start = async (life: TestApp, instanceId: string) => {
  restarted = await buildApp(configOf(instanceId), life.database);
  await restarted.ready();
  const app = restarted;
  const view: TestApp = {
    ...life,
    app,
    get: (url, token) => app.inject({ method: 'GET', url, headers: token ? { authorization: token } : {} }),
    post: (url, body, token) =>
      app.inject({ method: 'POST', url, payload: body as object, headers: token ? { authorization: token } : {} }),
  };
  return view;
};

const sipOf = async (life: TestApp, staffId: number) =>
  (
    await life.database.db
      .select()
      .from(sipAccounts)
      .where(and(eq(sipAccounts.staffId, staffId), eq(sipAccounts.isDefault, true)))
  )[0];

const ok = async (res: Promise<{ json: () => { code: number }; body: string }>) => {
  const r = await res;
  expect(r.json(), r.body).toMatchObject({ code: 0 });
  return r.json() as { code: number; data: unknown };
};

/** Every day, 08:00–21:00 Beijing: the tasks' calling window. */
const WINDOW = { cmWeeks: [1, 2, 3, 4, 5, 6, 7], cmTimes: [{ start: '08:00', end: '21:00' }] };

/** A seat task of `numbers` for 李四 in WINDOW, created by the admin; its id. */
const createSeatTask = async (
  life: TestApp,
  adminToken: string,
  lisiId: number,
  name: string,
  numbers: string[],
  extra: Record<string, unknown> = {},
) =>
  (
    (await ok(
      life.post('/api/frontend/calltask/create', { name, ...WINDOW, numbers, cmSidInfo: [lisiId], ...extra }, adminToken),
    )) as { data: { cmStid: number } }
  ).data.cmStid;

describe('after a crash, dialers count only agents who joined again from a live socket (item 3)', () => {
  it('a group task and a seat task place no call for an agent whose socket died; they do once he re-joins', async () => {
    const instanceId = `crash-dialer-${run}`;
    const { t: life, tokens, ids } = await firstLife(instanceId);
    // before the tasks' window (08:00–21:00 Beijing): nothing is dialled before the crash
    setBeijing('07:00:00');
    await readyLine(life, tokens.lisi);
    const group = (
      (await ok(
        life.post(
          '/api/frontend/groupcall/create',
          {
            name: '崩溃前的群呼',
            ...WINDOW,
            numbers: [mobileEnding(1), mobileEnding(1)],
            cmSidInfo: [ids.lisi],
            maxLines: 2,
            wrapUpSeconds: 0,
          },
          tokens.admin,
        ),
      )) as { data: { cmStid: number } }
    ).data.cmStid;
    const seat = await createSeatTask(life, tokens.admin, ids.lisi, '崩溃前的坐席任务', [mobileEnding(1)]);
    await ok(life.post('/api/frontend/groupcall/start', { cmStid: group }, tokens.admin));
    await ok(life.post('/api/frontend/calltask/start', { cmStid: seat }, tokens.admin));

    // work mode needs a live call socket
    const refused = await life.post('/api/frontend/groupcall/work', { cmStid: group }, tokens.lisi);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 115034 });
    const socket = await callSocket(life, tokens.lisi);
    sockets.push(socket);
    await ok(life.post('/api/frontend/groupcall/work', { cmStid: group }, tokens.lisi));
    const board = async (app: TestApp) =>
      ((await ok(app.get(`/api/frontend/groupcall/board?cmStid=${group}`, tokens.admin))) as { data: GroupcallBoard }).data;
    expect((await board(life)).agents.find((a) => a.cmSid === ids.lisi)?.state).not.toBe(0);

    // kill -9, then the restart: his extension is still registered, his work-mode rows still say working
    const left = await crash(life, instanceId);
    expect(left.presence.map((p) => p.staffId)).toEqual([ids.lisi]);
    expect((await sipOf(life, ids.lisi)).registerStatus).toBe(1);
    const second = await start(life, instanceId);
    setBeijing('10:00:00');
    // three seconds of ticks inside the window: not one call for him
    await new Promise((r) => setTimeout(r, 3_000));
    const callsOf = (taskId: number) => second.database.db.select().from(callRecords).where(eq(callRecords.taskId, taskId));
    expect(await callsOf(group)).toHaveLength(0);
    expect((await board(second)).agents.find((a) => a.cmSid === ids.lisi)?.state).toBe(0);
    // the seat task the same: he must join again (from a live socket) before it dials
    await ok(second.post('/api/frontend/calltask/unwork', { cmStid: seat }, tokens.lisi));

    // the page's socket reconnects to the new process and joins again: the dialer calls for him
    const back = await callSocket(second, tokens.lisi);
    sockets.push(back);
    await ok(second.post('/api/frontend/groupcall/work', { cmStid: group }, tokens.lisi));
    await waitFor(async () => (await callsOf(group)).length > 0, 'a group call after the re-join', 8_000);
    const ringing = await back.next(
      (f: CallFrame) => f.msg_type === 5 && (f.data as CallProgress).event === 'ringing',
      'his extension rings for the answered customer',
      8_000,
    );
    expect((ringing.data as CallProgress).uuid).toBeTruthy();
    await ok(second.post('/api/frontend/groupcall/stop', { cmStid: group }, tokens.admin));
    await ok(second.post('/api/frontend/calltask/stop', { cmStid: seat }, tokens.admin));
  }, 60_000);

  it('a seat task he worked before the crash dials nothing for him after the restart; it does once he re-joins', async () => {
    const instanceId = `crash-seat-${run}`;
    const { t: life, tokens, ids } = await firstLife(instanceId);
    setBeijing('07:00:00');
    await readyLine(life, tokens.lisi);
    const seat = await createSeatTask(life, tokens.admin, ids.lisi, '崩溃前在做的坐席任务', [mobileEnding(1), mobileEnding(1)], {
      wrapUpSeconds: 0,
    });
    await ok(life.post('/api/frontend/calltask/start', { cmStid: seat }, tokens.admin));
    sockets.push(await callSocket(life, tokens.lisi));
    await ok(life.post('/api/frontend/calltask/work', { cmStid: seat }, tokens.lisi));
    const isWorking = async (app: TestApp) =>
      (
        (await ok(app.get(`/api/frontend/calltask/detail?cmStid=${seat}`, tokens.admin))) as {
          data: CalltaskDetail;
        }
      ).data.agents.find((a) => a.cmSid === ids.lisi)?.isWorking;
    expect(await isWorking(life)).toBe(1);

    // kill -9 before the window opens: his extension is still registered, his work row still says working
    const left = await crash(life, instanceId);
    expect(left.presence.map((p) => p.staffId)).toEqual([ids.lisi]);
    expect((await sipOf(life, ids.lisi)).registerStatus).toBe(1);
    const second = await start(life, instanceId);
    setBeijing('10:00:00');
    // the power dialer's tick inside the window (run here, not left to the once-per-cluster schedule)
    expect((await runTick((restarted as FastifyInstance).calls)).due).toBe(0);
    await new Promise((r) => setTimeout(r, 2_000));
    const callsOf = () => second.database.db.select().from(callRecords).where(eq(callRecords.taskId, seat));
    expect(await callsOf()).toHaveLength(0);
    expect(await isWorking(second)).toBe(0);

    // his page's socket reconnects to the new process and joins again: the task dials for him
    sockets.push(await callSocket(second, tokens.lisi));
    await ok(second.post('/api/frontend/calltask/work', { cmStid: seat }, tokens.lisi));
    await waitFor(async () => (await callsOf()).length > 0, 'a seat call after the re-join', 8_000);
    await ok(second.post('/api/frontend/calltask/stop', { cmStid: seat }, tokens.admin));
  }, 60_000);
});

describe('calls of an instance that died end at once (item 4)', () => {
  it('a restart ends the answered task call its line held: extension free, number back without the attempt', async () => {
    const instanceId = `crash-call-${run}`;
    const { t: life, tokens, ids } = await firstLife(instanceId);
    setBeijing('10:00:00');
    await readyLine(life, tokens.lisi);
    const seat = await createSeatTask(life, tokens.admin, ids.lisi, '通话中崩溃', [mobileEnding(1)], {
      maxAttempts: 2,
      redialMinutes: 5,
    });
    await ok(life.post('/api/frontend/calltask/start', { cmStid: seat }, tokens.admin));
    sockets.push(await callSocket(life, tokens.lisi));
    await ok(life.post('/api/frontend/calltask/work', { cmStid: seat }, tokens.lisi));
    const answered = await waitFor(async () => {
      const [c] = await life.database.db.select().from(callRecords).where(eq(callRecords.taskId, seat));
      return c?.state === 2 ? c : undefined;
    }, 'the task call answered');
    expect(answered.ownerInstance).toBe(instanceId);
    expect((await sipOf(life, ids.lisi)).callStatus).toBe(CALL_STATUS.talking);

    await crash(life, instanceId);
    // the record still says 通话中 after the process died
    const [stuck] = await life.database.db.select().from(callRecords).where(eq(callRecords.uuid, answered.uuid));
    expect(stuck.state).toBe(2);
    await start(life, instanceId);
    // ended by the start itself, not minutes later by a sweep
    const [ended] = await life.database.db.select().from(callRecords).where(eq(callRecords.uuid, answered.uuid));
    expect(ended).toMatchObject({ state: 3, hangupSide: 3, hangupCause: 'instance_restart' });
    expect((await sipOf(life, ids.lisi)).callStatus).toBeLessThan(CALL_STATUS.dialling);
    // the number is given back (not 拨打中), the attempt the crash cut not counted
    const number = await waitFor(async () => {
      const [n] = await life.database.db.select().from(callTaskNumbers).where(eq(callTaskNumbers.taskId, seat));
      return n?.state === 0 ? n : undefined;
    }, 'the number back to pending');
    expect(number).toMatchObject({ attempts: 0, lastCode: 'instance_restart' });
    expect(number.nextAt?.getTime()).toBeGreaterThan(ended.endAt?.getTime() ?? 0);
  }, 60_000);

  it('the cluster sweep ends the calls and sockets of an instance that stays dead', async () => {
    const deadId = `crash-dead-${run}`;
    const { t: life, tokens } = await firstLife(deadId);
    setBeijing('10:00:00');
    await readyLine(life, tokens.lisi);
    sockets.push(await callSocket(life, tokens.lisi));
    const dialled = await life.post('/api/frontend/call/dial', { dstNumber: mobileEnding(1) }, tokens.lisi);
    const uuid = (dialled.json().data as { uuid: string }).uuid;
    expect(uuid, dialled.body).toBeTruthy();
    await waitFor(async () => {
      const [c] = await life.database.db.select().from(callRecords).where(eq(callRecords.uuid, uuid));
      return c?.state === 2;
    }, 'the call answered');
    await crash(life, deadId);
    // another instance runs on; the dead one's heartbeat goes silent
    const other = await start(life, `crash-other-${run}`);
    const [before] = await other.database.db.select().from(callRecords).where(eq(callRecords.uuid, uuid));
    expect(before.state).toBe(2);
    await other.database.db
      .update(appInstances)
      .set({ seenAt: new Date(Date.now() - INSTANCE_DEAD_MS - 1_000) })
      .where(eq(appInstances.instanceId, deadId));
    expect(await sweepDeadInstances((restarted as FastifyInstance).calls)).toBe(1);
    const done = await endedCall(other, uuid);
    expect(done).toMatchObject({ hangupSide: 3, hangupCause: 'instance_restart' });
    expect(await other.database.db.select().from(callPresence).where(eq(callPresence.instanceId, deadId))).toHaveLength(0);
    expect(await other.database.db.select().from(appInstances).where(eq(appInstances.instanceId, deadId))).toHaveLength(0);
  }, 60_000);
});
