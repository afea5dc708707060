import { CALL_TYPE, type Grade, HANGUP_CAUSE } from '@crm/contracts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { formatDateTime } from '../../lib/time';
import { CALL_STATE, insertCall } from '../../modules/calls/calls.repo';
import { aibotFlows, aiCalls, callTaskNumbers, callTasks } from '../schema';
import { type ApiCall, uuidOf } from './demo-history-kit';

/** The demo history's finished AI task: its calls graded as the bot grades them, with transcripts. */

const AI_TASK_NAME = '老客户回访';
const SAY = {
  open: '您好，我是云呼科技的智能助理，打扰您一分钟，想了解一下您对外呼系统的需求。',
  yes: '有兴趣，你们怎么收费？',
  price: '我们按坐席计费，基础版每坐席每年三千六百元，稍后会有顾问联系您。',
  no: '不需要，谢谢。',
  bye: '好的，不打扰您了，祝您工作顺利，再见。',
  maybe: '先发点资料看看吧。',
  send: '好的，资料会通过短信发给您，有问题随时联系我们。',
};

/**
 * A finished AI task of last week (AI外呼任务 and its 报表): 40 numbers called over three days by the
 * demo 话术, graded A–E as the bot grades them (E: not connected), with their transcripts.
 */
export const seedAiCalls = async (app: FastifyInstance, tenantId: number, startMs: number, rand: () => number, call: ApiCall) => {
  const db = app.db;
  const [flow] = await db
    .select({ id: aibotFlows.id, version: aibotFlows.version })
    .from(aibotFlows)
    .where(eq(aibotFlows.tenantId, tenantId))
    .orderBy(aibotFlows.id)
    .limit(1);
  if (!flow) return 0;
  const numbers = Array.from({ length: 40 }, (_, i) => `1390010${String(1000 + i * 37).padStart(4, '0')}`);
  await call('admin', 'POST', '/api/frontend/aicall/create', {
    name: AI_TASK_NAME,
    flowId: flow.id,
    numbers,
    cmWeeks: [1, 2, 3, 4, 5],
    cmTimes: [{ start: '09:00', end: '18:00' }],
    maxLines: 5,
    maxAttempts: 1,
    redialMinutes: 30,
    wrapUpSeconds: 0,
  });
  const [task] = await db
    .select({ id: callTasks.id, creatorId: callTasks.creatorId })
    .from(callTasks)
    .where(and(eq(callTasks.tenantId, tenantId), eq(callTasks.name, AI_TASK_NAME)));
  if (!task) return 0;
  const rows = await db
    .select({ id: callTaskNumbers.id, phone: callTaskNumbers.phone })
    .from(callTaskNumbers)
    .where(eq(callTaskNumbers.taskId, task.id))
    .orderBy(callTaskNumbers.seq, callTaskNumbers.id);
  // the grade split of a typical run: A 4, B 7, C 9, D 8, E 12 (not connected)
  const plan: Grade[] = [];
  for (const [g, k] of [
    ['A', 4],
    ['B', 7],
    ['C', 9],
    ['D', 8],
    ['E', 12],
  ] as const)
    for (let j = 0; j < k; j++) plan.push(g);
  // last week's Monday to Wednesday (the task calls on weekdays)
  const weekAgo = formatDateTime(new Date(startMs - 7 * 86_400_000)).slice(0, 10);
  const monday = Date.parse(`${weekAgo}T00:00:00+08:00`) - ((new Date(`${weekAgo}T12:00:00Z`).getUTCDay() + 6) % 7) * 86_400_000;
  const firstDay = monday;
  let n = 0;
  for (let i = 0; i < rows.length; i++) {
    const grade = plan[(i * 17) % plan.length];
    const row = rows[i];
    const day = Math.floor((i * 3) / rows.length);
    const startedAt = new Date(
      Date.parse(`${formatDateTime(new Date(firstDay + day * 86_400_000)).slice(0, 10)}T09:30:00+08:00`) +
        (i % 14) * 25 * 60_000 +
        Math.floor(rand() * 600_000),
    );
    const connected = grade !== 'E';
    const answerAt = connected ? new Date(startedAt.getTime() + 8_000) : null;
    const turns = connected ? transcript(grade) : [];
    const duration = connected ? Math.round((turns.at(-1)?.endMs ?? 10_000) / 1000) + 1 : 0;
    const endAt = new Date((answerAt ?? startedAt).getTime() + (connected ? duration * 1000 : 30_000));
    const uuid = uuidOf(rand);
    await db.transaction(async (tx) => {
      await insertCall(tx, {
        uuid,
        yearMonth: formatDateTime(startedAt).slice(0, 7).replace('-', ''),
        tenantId,
        staffId: null,
        callType: CALL_TYPE.outbound,
        calledNumber: row.phone,
        taskId: task.id,
        state: CALL_STATE.ended,
        startAt: startedAt,
        ringAt: new Date(startedAt.getTime() + 1_500),
        answerAt,
        endAt,
        billsec: duration,
        hangupSide: connected ? (grade === 'D' ? 2 : 3) : 3,
        hangupCause: connected ? HANGUP_CAUSE.normal : HANGUP_CAUSE.noAnswer,
        origin: 1,
        createdAt: startedAt,
      });
      await tx.insert(aiCalls).values({
        tenantId,
        source: 1,
        taskId: task.id,
        numberId: row.id,
        callUuid: uuid,
        flowId: flow.id,
        flowVersion: Math.max(1, flow.version),
        startedAt,
        endedAt: endAt,
        duration,
        grade,
        score: { A: 92, B: 75, C: 55, D: 20, E: 0 }[grade],
        rounds: connected ? Math.floor(turns.length / 2) : 0,
        end: connected ? (grade === 'D' ? 'customer_hangup' : 'end') : 'not_connected',
        counters: connected
          ? {
              positive: grade === 'A' || grade === 'B' ? 1 : 0,
              negative: grade === 'D' ? 1 : 0,
              refused: grade === 'D' ? 1 : 0,
              kb: grade === 'A' ? 1 : 0,
              rounds: Math.floor(turns.length / 2),
              talk_seconds: duration,
              no_match: 0,
              silence: 0,
              custom: {},
            }
          : { cause: HANGUP_CAUSE.noAnswer },
        turns,
        staffIds: [task.creatorId],
        createdAt: startedAt,
      });
      await tx
        .update(callTaskNumbers)
        .set({
          state: connected ? 2 : 3,
          attempts: 1,
          lastCallUuid: uuid,
          lastCode: connected ? '' : HANGUP_CAUSE.noAnswer,
          updatedAt: endAt,
        })
        .where(and(eq(callTaskNumbers.id, row.id), eq(callTaskNumbers.tenantId, tenantId)));
    });
    n++;
  }
  const first = new Date(firstDay);
  await db
    .update(callTasks)
    .set({
      status: 4,
      createdAt: new Date(first.getTime() - 86_400_000 + 16 * 3_600_000),
      startedAt: new Date(first.getTime() + 9.5 * 3_600_000),
      completedAt: new Date(first.getTime() + (2 * 24 + 17) * 3_600_000),
    })
    .where(and(eq(callTasks.id, task.id), eq(callTasks.tenantId, tenantId)));
  return n;
};

/** A short conversation of the demo 话术 ending in `grade` (no clips: the whole call is not recorded here). */
const transcript = (grade: Grade) => {
  const lines: [boolean, string, string][] =
    grade === 'A'
      ? [
          [true, SAY.open, 'open'],
          [false, SAY.yes, 'open'],
          [true, SAY.price, 'intro'],
          [false, '可以，让顾问今天下午联系我。', 'intro'],
          [true, SAY.bye, 'bye'],
        ]
      : grade === 'B'
        ? [
            [true, SAY.open, 'open'],
            [false, SAY.yes, 'open'],
            [true, SAY.price, 'intro'],
            [false, SAY.maybe, 'intro'],
            [true, SAY.send, 'bye'],
          ]
        : grade === 'C'
          ? [
              [true, SAY.open, 'open'],
              [false, SAY.maybe, 'open'],
              [true, SAY.send, 'bye'],
            ]
          : [
              [true, SAY.open, 'open'],
              [false, SAY.no, 'open'],
              [true, SAY.bye, 'hangup'],
            ];
  let t = 0;
  return lines.map(([isAi, text, node]) => {
    const len = Math.max(1500, text.length * 230);
    const turn = { isAi, text, atMs: t, endMs: t + len, node, match: isAi ? '' : 'keyword', clipFrom: 0, clipLen: 0 };
    t += len + 600;
    return turn;
  });
};
