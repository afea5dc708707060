import {
  AI_CALL_END_LABEL,
  type AiCallEnd,
  type AicallCallRow,
  type AicallCallsBody,
  type AicallInfo,
  CALL_TYPE,
  type ListData,
} from '@crm/contracts';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { readAll, storageOf } from '../../lib/storage';
import { formatDateTime, parseDateTime } from '../../lib/time';
import { flowNames, versionGraph } from '../aibot/aibot.service';
import { isNumberMaskedFor } from '../calls/call-access';
import type { CallRuntime } from '../calls/call-bus';
import { taskRowsByIds } from '../calltasks/task-core';
import { canSee, isAnyMasked, phoneMatchOf, showPhone, type Viewer, viewerOf } from '../customers/customer-access';
import { customerPlacesByIds } from '../customers/customers-for-aicall';
import { findStaffMember } from '../extensions/extensions.service';
import { encodeWav } from '../speech/wav';
import * as repo from './aicall-calls.repo';

// AI calls (issue 16): what the bot did on each call, stored once the call is over (aicall-store.ts),
// read back here as the lists of AI外呼 (source 1) and AI接待 (source 2) and the SPEC §3 AI call
// detail. A call is visible to a company-wide scope, or to a scope that holds one of its staff (the
// task's creator and agents, the reception number's agents, who took the 转人工); numbers are
// masked by the customer-access policy as the call records are. The follow record of type 4
// (AI跟进) links an AI call by its id in follow_records.record_id.

const rangeOf = (s: string | undefined, isEnd: boolean) =>
  s ? (parseDateTime(s.length === 10 ? `${s} ${isEnd ? '23:59:59' : '00:00:00'}` : s) ?? undefined) : undefined;

/** An AI call as the lists and the detail show it: its row, call record and task, the flow's and the customer's names. */
export type AiCallView = repo.AiCallListRow & {
  taskName: string | null;
  flowName: string | null;
  customerName: string | null;
  customerOwnerId: number | null;
  customerPoolId: number | null;
};

/** The page's task and flow names (also of deleted ones) and live customers, from their modules. */
const withNames = async (rt: CallRuntime, tenantId: number, rows: repo.AiCallListRow[]): Promise<AiCallView[]> => {
  const taskIds = [...new Set(rows.flatMap((r) => (r.call.taskId ? [r.call.taskId] : [])))];
  const [tasks, flows, places] = await Promise.all([
    taskIds.length ? taskRowsByIds(rt.db, tenantId, taskIds) : Promise.resolve([]),
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
  const taskNames = new Map(tasks.map((t) => [Number(t.id), String(t.name)]));
  return rows.map((r) => {
    const customer = r.call.customerId ? places.get(r.call.customerId) : undefined;
    return {
      ...r,
      taskName: taskNames.get(r.call.taskId) ?? null,
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
