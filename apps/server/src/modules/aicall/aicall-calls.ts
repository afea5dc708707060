import fs from 'node:fs';
import {
  AI_CALL_END_LABEL,
  AI_CALL_FAILED,
  AI_CALL_NO_GRADE,
  type AiCallEnd,
  type AicallCallRow,
  type AicallCallsBody,
  type AicallInfo,
  CALL_TYPE,
  type ListData,
} from '@crm/contracts';
import type { AiCallTurn } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { readAll, storageOf } from '../../lib/storage';
import { formatDateTime, parseDateTime } from '../../lib/time';
import { flowNames, versionGraph } from '../aibot/aibot.service';
import { gradeNotConnected } from '../aibot/flow-grade';
import { isNumberMaskedFor } from '../calls/call-access';
import type { CallRuntime } from '../calls/call-bus';
import { callRecordOf } from '../calls/calls-for-aicall';
import { systemActor } from '../calls/dial-policy';
import { canSee, isAnyMasked, phoneMatchOf, showPhone, type Viewer, viewerOf } from '../customers/customer-access';
import { customerPlacesByIds } from '../customers/customers-for-aicall';
import { findStaffMember } from '../extensions/extensions.service';
import { encodeWav } from '../speech/wav';
import { storeGeneratedFile } from '../uploads/uploads.service';
import * as repo from './aicall-calls.repo';
import type { BotCallResult } from './bot/bot-types';

// AI calls (issue 16): what the bot did on each call, stored once the call is over (saveAiCall,
// saveNotConnected), and read back as the lists of AI外呼 (source 1) and AI接待 (source 2) and the
// SPEC §3 AI call detail. A call is visible to a company-wide scope, or to a scope that holds one
// of its staff (the task's creator and agents, the reception number's agents, who took the 转人工);
// numbers are masked by the customer-access policy as the call records are. The follow record of
// type 4 (AI跟进) links an AI call by its id in follow_records.record_id.

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
  const fromTask = p.taskId ? await repo.taskStaff(rt.db, tenantId, p.taskId) : [];
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

// ---------- reading ----------

const rangeOf = (s: string | undefined, isEnd: boolean) =>
  s ? (parseDateTime(s.length === 10 ? `${s} ${isEnd ? '23:59:59' : '00:00:00'}` : s) ?? undefined) : undefined;

/** An AI call as the lists and the detail show it: its row, call record and task, the flow's and the customer's names. */
export type AiCallView = repo.AiCallListRow & {
  flowName: string | null;
  customerName: string | null;
  customerOwnerId: number | null;
  customerPoolId: number | null;
};

/** The page's flow names (also of deleted flows) and live customers, from their modules. */
const withNames = async (rt: CallRuntime, tenantId: number, rows: repo.AiCallListRow[]): Promise<AiCallView[]> => {
  const [flows, places] = await Promise.all([
    flowNames(
      rt.db,
      tenantId,
      rows.map((r) => r.call.flowId),
    ),
    customerPlacesByIds(
      rt.db,
      tenantId,
      rows.flatMap((r) => (r.call.customerId ? [r.call.customerId] : [])),
    ),
  ]);
  return rows.map((r) => {
    const customer = r.call.customerId ? places.get(r.call.customerId) : undefined;
    return {
      ...r,
      flowName: flows.get(r.call.flowId) ?? null,
      customerName: customer?.name ?? null,
      customerOwnerId: customer?.ownerId ?? null,
      customerPoolId: customer?.poolId ?? null,
    };
  });
};

const toRow = (r: AiCallView, v: Viewer): AicallCallRow => {
  const c = r.call;
  const customer =
    r.customerOwnerId !== null || r.customerPoolId !== null
      ? { ownerId: r.customerOwnerId, poolId: r.customerPoolId }
      : undefined;
  const callType = c.source === 2 ? CALL_TYPE.inbound : CALL_TYPE.outbound;
  const isMasked = isNumberMaskedFor(v, { callType, taskId: c.taskId, customerId: c.customerId }, customer);
  const isNamed = customer !== undefined && canSee(v, customer);
  return {
    id: c.id,
    cmStid: c.taskId,
    taskName: r.taskName ?? '',
    name: isNamed ? (r.customerName ?? '') : '',
    phone: showPhone(isMasked, r.number ?? ''),
    encryptPhone: isMasked ? 1 : 0,
    cmCtid: isNamed ? (c.customerId ?? 0) : 0,
    call_starttime: formatDateTime(c.startedAt),
    duration_time: c.duration,
    grade: c.grade,
    score: c.score,
    dialogue_num: c.turns.length,
    rounds: c.rounds,
    end: c.end,
    endName: AI_CALL_END_LABEL[c.end as AiCallEnd] ?? c.end,
    flowName: r.flowName ?? '',
    flowVersion: c.flowVersion,
  };
};

/** aicall/calls: the AI calls the caller may see, newest first. */
export const listAiCallRows = async (rt: CallRuntime, actor: Actor, q: AicallCallsBody): Promise<ListData<AicallCallRow>> => {
  const v = await viewerOf(rt.db, actor);
  let number: repo.AiCallFilter['number'];
  if (q.phone?.trim()) {
    const m = phoneMatchOf(q.phone, isAnyMasked(v));
    if (m.kind === 'none') return { count: 0, list: [] };
    number = m.kind === 'exact' ? { exact: m.phone } : { digits: m.digits };
  }
  const f: repo.AiCallFilter = {
    tenantId: actor.tenantId,
    source: q.source,
    scope: v.scope,
    taskId: q.cmStid,
    grade: q.grade,
    end: q.callEnd,
    number,
    from: rangeOf(q.start, false),
    to: rangeOf(q.end, true),
  };
  const [rows, count] = await Promise.all([
    repo.listAiCalls(rt.db, f, q.limit, (q.page - 1) * q.limit),
    repo.countAiCalls(rt.db, f),
  ]);
  return { count, list: (await withNames(rt, actor.tenantId, rows)).map((r) => toRow(r, v)) };
};

/** One AI call the caller may see (either source), or AICALL_CALL_NOT_FOUND. */
const visibleCall = async (rt: CallRuntime, actor: Actor, id: number) => {
  const v = await viewerOf(rt.db, actor);
  const row = await repo.findAiCall(rt.db, { tenantId: actor.tenantId, scope: v.scope, id });
  if (!row) throw new AppError('AICALL_CALL_NOT_FOUND');
  return { row, v };
};

export const clipUrl = (id: number, turn: number) => `/api/frontend/aicall/clip?id=${id}&turn=${turn}`;
export const recordingUrl = (id: number) => `/api/frontend/aicall/recording?id=${id}`;

/** aicall/call: SPEC §3 AI call info with the turns and their clips. */
export const aiCallInfo = async (rt: CallRuntime, actor: Actor, id: number): Promise<AicallInfo> => {
  const { row: found, v } = await visibleCall(rt, actor, id);
  const [row] = await withNames(rt, actor.tenantId, [found]);
  const c = row.call;
  const transfer = c.transferStaffId ? await findStaffMember(rt.db, actor.tenantId, c.transferStaffId) : undefined;
  // node names as the admin gave them in the version the call walked (the key when the node is gone)
  const graph = c.turns.length > 0 ? await versionGraph(rt.db, c.tenantId, c.flowId, c.flowVersion) : null;
  const names = new Map((graph?.nodes ?? []).map((n) => [n.key, n.name]));
  return {
    ...toRow(row, v),
    recording: row.recordFile ? recordingUrl(c.id) : '',
    counters: c.counters,
    transferTo: transfer?.name ?? '',
    call: c.turns.map((t, i) => ({
      isAi: t.isAi ? 1 : 0,
      callFont: t.text,
      speech_path: t.clipLen > 0 ? clipUrl(c.id, i) : '',
      at: t.atMs,
      node: t.node,
      node_name: names.get(t.node) || t.node,
      match: t.match,
    })),
  };
};

/** aicall/clip: one turn's audio as a WAV. */
export const aiCallClip = async (rt: CallRuntime, actor: Actor, id: number, turn: number): Promise<Buffer> => {
  const { row } = await visibleCall(rt, actor, id);
  const t = row.call.turns[turn];
  if (!t || t.clipLen === 0 || !row.call.clipFile) throw new AppError('AICALL_CLIP_NOT_FOUND');
  const buf = await readAll(storageOf(rt.config.dataDir), row.call.clipFile);
  if (!buf) throw new AppError('AICALL_CLIP_NOT_FOUND');
  const HEADER = 44;
  const from = HEADER + t.clipFrom * 2;
  const pcm = buf.subarray(from, from + t.clipLen * 2);
  const samples = new Int16Array(pcm.length / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = pcm.readInt16LE(i * 2);
  return encodeWav(samples);
};

/** aicall/recording: the whole call's recording (both sides) as the call record keeps it. */
export const aiCallRecording = async (rt: CallRuntime, actor: Actor, id: number): Promise<Buffer> => {
  const { row } = await visibleCall(rt, actor, id);
  const name = row.recordFile?.replace(/^\/api\/files\//, '');
  const buf = name ? await readAll(storageOf(rt.config.dataDir), name) : null;
  if (!buf) throw new AppError('AICALL_CLIP_NOT_FOUND');
  return buf;
};
