import {
  HANGUP_CAUSE,
  HANGUP_CAUSE_LABEL,
  HANGUP_SIDE,
  TEST_CALL_STATE_LABEL,
  type TestCallBody,
  type TestCallEvent,
  type TestCallStatus,
} from '@crm/contracts';
import type { Tx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import type { PlayResult } from '../../telephony/control';
import { type Speech, SpeechError } from '../../telephony/tts';
import type { CallRuntime } from './call-bus';
import { hangupLeg, originateCustomerLeg, playInto } from './call-control';
import * as legs from './call-legs.repo';
import * as tests from './call-tests.repo';
import * as repo from './calls.repo';

// 线路测试: an admin's test call through call control. The prompt is synthesized first (no call
// without it), then a customer leg is placed through every rule of the dial policy (hours,
// blacklist, number rules); once answered the prompt plays into it and the leg is hung up. The
// call is a server call like any other: its record, recording and call.leg events. One test at a
// time per company (call_tests, its row locked while a new test is placed).

const { CALL_STATE } = repo;

/** how long the test leg rings before it gives up (no_answer) */
const RING_SECONDS = 30;
/** a test being placed (leg not yet known) for longer than this is taken as abandoned */
const PLACING_STALE_MS = 60_000;
/** the runner stops waiting for an answer after this (real time; the line gives up long before) */
const ANSWER_WAIT_MS = (RING_SECONDS + 60) * 1000;
const POLL_MS = 100;

/** A test whose leg is not ended, or one still being placed (not yet stale), holds the company's line test. */
const isBusy = async (tx: Tx, row: tests.CallTest, at: Date) => {
  if (!row.legId) return at.getTime() - row.startedAt.getTime() < PLACING_STALE_MS;
  const leg = await legs.findLeg(tx, row.legId);
  return leg !== undefined && leg.state < CALL_STATE.ended;
};

const synthesize = async (speech: Speech, text: string) => {
  if (!speech.isAvailable) throw new AppError('TTS_UNAVAILABLE');
  try {
    return await speech.synthesize(text);
  } catch (err) {
    throw new AppError(err instanceof SpeechError && err.reason === 'unavailable' ? 'TTS_UNAVAILABLE' : 'TTS_FAILED');
  }
};

/** Waits for the leg to be answered (the leg) or to end first (undefined). */
const answeredLeg = async (rt: CallRuntime, legId: string) => {
  const until = Date.now() + ANSWER_WAIT_MS;
  for (;;) {
    const leg = await legs.findLeg(rt.db, legId);
    if (!leg || leg.state === CALL_STATE.ended) return undefined;
    if (leg.state === CALL_STATE.answered) return leg;
    if (Date.now() > until) {
      await hangupLeg(rt, legId, HANGUP_SIDE.system, HANGUP_CAUSE.timeout);
      return undefined;
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
};

/** Once answered: the prompt, then the hang-up. */
const runTestCall = async (rt: CallRuntime, tenantId: number, legId: string, samples: Int16Array) => {
  if (!(await answeredLeg(rt, legId))) return;
  await tests.setCallTestPlay(rt.db, tenantId, legId, { playStartAt: now() });
  const result: PlayResult = await playInto(rt, legId, samples).catch(() => 'ended' as const);
  await tests.setCallTestPlay(rt.db, tenantId, legId, { playEndAt: now(), playResult: result });
  if (result !== 'ended') await hangupLeg(rt, legId, HANGUP_SIDE.system, HANGUP_CAUSE.normal);
};

/** Places the company's test call; resolves to its call uuid once the leg is placed (its progress: testCallStatus). */
export const startTestCall = async (
  rt: CallRuntime,
  speech: Speech,
  actor: Actor,
  body: TestCallBody,
  onError: (err: unknown) => void,
) => {
  const samples = await synthesize(speech, body.prompt);
  const at = now();
  await rt.db.transaction(async (tx) => {
    const row = await tests.lockCallTest(tx, actor.tenantId, actor.staffId);
    if (await isBusy(tx, row, at)) throw new AppError('TEST_CALL_BUSY');
    await tests.reserveCallTest(tx, actor.tenantId, actor.staffId, body.prompt, at);
  });
  let placed: Awaited<ReturnType<typeof originateCustomerLeg>>;
  try {
    placed = await originateCustomerLeg(rt, { tenantId: actor.tenantId, number: body.number, actor, ringSeconds: RING_SECONDS });
  } catch (err) {
    await tests.releaseCallTest(rt.db, actor.tenantId);
    throw err;
  }
  await tests.setCallTestLeg(rt.db, actor.tenantId, placed.callUuid, placed.legId);
  void runTestCall(rt, actor.tenantId, placed.legId, samples).catch(onError);
  return { uuid: placed.callUuid };
};

const STATE_OF = ['calling', 'ringing', 'answered', 'ended'] as const;

/** The test call's leg, step by step, for the page that polls it. */
export const testCallStatus = async (rt: CallRuntime, actor: Actor, uuid: string): Promise<TestCallStatus> => {
  const test = await tests.findCallTestOfCall(rt.db, actor.tenantId, uuid);
  const call = test ? await repo.findCall(rt.db, uuid) : undefined;
  const leg = test ? await legs.findLeg(rt.db, test.legId) : undefined;
  if (!test || !call || !leg || call.tenantId !== actor.tenantId) throw new AppError('CALL_NOT_FOUND');
  const causeName = HANGUP_CAUSE_LABEL[leg.hangupCause] ?? leg.hangupCause;
  const steps: { kind: TestCallEvent['kind']; at: Date | null; text: string }[] = [
    { kind: 'created', at: leg.createdAt, text: `发起呼叫 ${leg.target}` },
    { kind: 'ringing', at: leg.ringAt, text: '对方振铃' },
    { kind: 'answered', at: leg.answerAt, text: '已接通' },
    { kind: 'playing', at: test.playStartAt, text: '播放提示语' },
  ];
  if (test.playEndAt) {
    const text = test.playResult === 'done' ? '提示语播放完毕' : '提示语未播完，通话已结束';
    steps.push({ kind: 'played', at: test.playEndAt, text });
  }
  const shown: TestCallEvent[] = steps
    .filter((s) => s.at !== null)
    .map((s) => ({ kind: s.kind, at: formatDateTime(s.at), text: s.text }));
  if (leg.digits) shown.push({ kind: 'digits', at: '', text: `对方按键 ${leg.digits}` });
  if (leg.endAt) shown.push({ kind: 'ended', at: formatDateTime(leg.endAt), text: `已结束（${causeName}）` });
  const state = STATE_OF[Math.min(3, Math.max(0, leg.state))];
  return {
    uuid,
    number: leg.target,
    state,
    stateName: TEST_CALL_STATE_LABEL[state],
    digits: leg.digits,
    hangupCause: leg.hangupCause,
    hangupCauseName: leg.state === CALL_STATE.ended ? causeName : '',
    billsec: call.billsec,
    events: shown,
  };
};
