import fs from 'node:fs';
import { AI_CALL_FAILED, AI_CALL_NO_GRADE } from '@crm/contracts';
import type { AiCallTurn } from '../../db/schema';
import { now } from '../../lib/clock';
import { gradeNotConnected } from '../aibot/flow-grade';
import type { CallRuntime } from '../calls/call-bus';
import { callRecordOf } from '../calls/calls-for-aicall';
import { systemActor } from '../calls/dial-policy';
import { taskAudience, taskRowsByIds } from '../calltasks/task-core';
import { encodeWav } from '../speech/wav';
import { storeGeneratedFile } from '../uploads/uploads.service';
import * as repo from './aicall-calls.repo';
import type { BotCallResult } from './bot/bot-types';

// Storing the AI calls (issue 16): what the bot did on each call, kept once the call is over
// (saveAiCall, saveNotConnected) with its turn clips in one WAV and the staff who may see it (the
// task's creator and agents, the reception number's agents, who took the 转人工). aicall-calls.ts
// reads them back.

export type SaveAiCall = {
  taskId: number;
  numberId: number;
  customerId: number | null;
  callUuid: string;
  source: 1 | 2;
  flowId: number;
  flowVersion: number;
  startedAt: Date;
  result: BotCallResult;
  /** AI接待: the reception setting that answered */
  receptionId?: number;
  /** AI接待: the reception number's agents (who may see its calls) */
  staffIds?: number[];
};

const staffOf = async (rt: CallRuntime, tenantId: number, p: { taskId: number; staffIds?: number[] }, extra: number | null) => {
  // the task's creator and agents, when the task is the company's
  const isOwnTask = p.taskId > 0 && (await taskRowsByIds(rt.db, tenantId, [p.taskId])).length > 0;
  const fromTask = isOwnTask ? await taskAudience(rt.db, p.taskId) : [];
  return [...new Set([...fromTask, ...(p.staffIds ?? []), ...(extra ? [extra] : [])])];
};

/** All turn clips of a call in one WAV (clip_file), each turn with its offsets in it. */
const storeClips = async (rt: CallRuntime, tenantId: number, result: BotCallResult) => {
  const turns: AiCallTurn[] = [];
  let total = 0;
  for (const t of result.turns) {
    turns.push({
      isAi: t.isAi,
      text: t.text,
      atMs: t.atMs,
      endMs: t.endMs,
      node: t.node,
      match: t.match,
      clipFrom: total,
      clipLen: t.audio.length,
    });
    total += t.audio.length;
  }
  if (total === 0) return { turns, clipFile: '' };
  const all = new Int16Array(total);
  for (const [i, t] of result.turns.entries()) all.set(t.audio, turns[i].clipFrom);
  const stored = await storeGeneratedFile(
    rt.db,
    rt.config.dataDir,
    systemActor(tenantId),
    { originalName: 'AI通话片段.wav', ext: 'wav', scene: 'aicall' },
    (full) => fs.promises.writeFile(full, encodeWav(all)),
  );
  return { turns, clipFile: stored.storedName };
};

/** The columns every stored AI call fills the same way, connected or not: where it came from and who may see it. */
const aiCallRow = async (
  rt: CallRuntime,
  tenantId: number,
  p: Omit<SaveAiCall, 'result'>,
  outcome: Pick<repo.AiCallInsert, 'grade' | 'score' | 'end' | 'counters' | 'turns'> &
    Partial<Pick<repo.AiCallInsert, 'duration' | 'rounds' | 'transferStaffId' | 'clipFile'>>,
): Promise<repo.AiCallInsert> => ({
  tenantId,
  source: p.source,
  taskId: p.taskId,
  numberId: p.numberId,
  receptionId: p.receptionId ?? 0,
  customerId: p.customerId || null,
  callUuid: p.callUuid,
  flowId: p.flowId,
  flowVersion: p.flowVersion,
  startedAt: p.startedAt,
  endedAt: now(),
  ...outcome,
  staffIds: await staffOf(rt, tenantId, p, outcome.transferStaffId ?? null),
});

/** Stores a connected AI call (its row and its turn clips); resolves to the AI call id. */
export const saveAiCall = async (rt: CallRuntime, p: SaveAiCall & { tenantId?: number }): Promise<number> => {
  const tenantId = p.tenantId ?? (await tenantOfCall(rt, p.callUuid));
  const { turns, clipFile } = await storeClips(rt, tenantId, p.result);
  const r = p.result;
  // a call that failed for a system reason is no customer's outcome: no grade, no score (issue 22)
  const isFailed = r.end === AI_CALL_FAILED;
  return repo.insertAiCall(
    rt.db,
    await aiCallRow(rt, tenantId, p, {
      duration: r.talkSeconds,
      grade: isFailed ? AI_CALL_NO_GRADE : r.grade.grade,
      score: isFailed ? 0 : r.grade.score,
      rounds: r.counters.rounds,
      end: r.end,
      counters: r.counters as unknown as Record<string, unknown>,
      turns,
      transferStaffId: r.transferStaffId,
      clipFile,
    }),
  );
};

/**
 * Stores a call that never connected: grade E, score 0, no turns; resolves to the AI call id. A leg
 * the line itself failed (`isSystemFailure`: it could not be placed, its instance died) is no
 * outcome of the number: stored as 系统异常 (end 'error'), with no grade (issue 22).
 */
export const saveNotConnected = async (
  rt: CallRuntime,
  p: Omit<SaveAiCall, 'result'> & { cause?: string; tenantId?: number; isSystemFailure?: boolean },
): Promise<number> => {
  const tenantId = p.tenantId ?? (await tenantOfCall(rt, p.callUuid));
  const grade = p.isSystemFailure ? { grade: AI_CALL_NO_GRADE, score: 0 } : gradeNotConnected();
  return repo.insertAiCall(
    rt.db,
    await aiCallRow(rt, tenantId, p, {
      grade: grade.grade,
      score: grade.score,
      end: p.isSystemFailure ? AI_CALL_FAILED : 'not_connected',
      counters: { cause: p.cause ?? '' },
      turns: [],
    }),
  );
};

/** The customer the CRM step found or made for a stored AI call (aicall-crm.ts): the call names him from then on. */
export const linkAiCallCustomer = (rt: CallRuntime, tenantId: number, id: number, customerId: number) =>
  repo.setAiCallCustomer(rt.db, tenantId, id, customerId);

const tenantOfCall = async (rt: CallRuntime, callUuid: string) => {
  const call = await callRecordOf(rt.db, callUuid);
  if (!call) throw new Error(`no call record ${callUuid}`);
  return call.tenantId;
};
