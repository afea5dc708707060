import {
  ERRORS,
  extensionOf,
  FLOW_STATUS,
  type FlowCopyBody,
  type FlowCreateBody,
  type FlowDetail,
  type FlowGraph,
  type FlowIssue,
  type FlowListQuery,
  type FlowRow,
  type FlowUpdateBody,
  type FlowVersionDetail,
  type ListData,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import { staffNames } from '../staff/staff-lookup';
import { fileInfosByIds } from '../uploads/uploads.service';
import * as repo from './aibot.repo';
import { starterGraph } from './flow-starter';
import { validateFlowGraph } from './flow-validate';

// The 话术 flows (issue 16): the designer's list, drafts, publishing and versions, and what the AI
// calls read of them (the published version a call walks, names). The AI settings are in
// aibot-settings.ts, the test console in aibot-console.ts.

/** Flows are company-wide: whoever has 话术管理 (menu 301) reads and edits all of the company's. */
export const AIBOT_MENU = '/aicall/flow';
const AUDIO_EXTENSIONS = ['wav', 'mp3', 'm4a'];

const present = (f: repo.FlowRecord, creator: string): FlowRow => ({
  id: f.id,
  name: f.name,
  remark: f.remark,
  status: f.status,
  version: f.version,
  nodes: f.graph.nodes.length,
  creator,
  created_at: formatDateTime(f.createdAt),
  updated_at: formatDateTime(f.updatedAt),
});

/** The company's flow (not deleted), or AIBOT_FLOW_NOT_FOUND. */
export const requireFlow = async (db: DbOrTx, actor: Actor, id: number) => {
  const flow = await repo.findFlow(db, actor.tenantId, id);
  if (!flow) throw new AppError('AIBOT_FLOW_NOT_FOUND');
  return flow;
};

const requireFreeName = async (db: DbOrTx, actor: Actor, name: string, exceptId: number) => {
  if (await repo.isNameTaken(db, actor.tenantId, name, exceptId)) throw new AppError('AIBOT_FLOW_NAME_EXISTS');
};

/** Recordings named by the graph must be the company's own audio uploads. */
const requireOwnAudio = async (db: Db, actor: Actor, graph: FlowGraph) => {
  const ids = [...graph.nodes, ...graph.kb].flatMap((x) => (x.audio_file_id === null ? [] : [x.audio_file_id]));
  if (ids.length === 0) return;
  const files = await fileInfosByIds(db, actor.tenantId, ids);
  for (const id of ids) {
    const file = files.get(id);
    if (!file || !AUDIO_EXTENSIONS.includes(extensionOf(file.url))) throw new AppError('AIBOT_AUDIO_INVALID');
  }
};

/** Whether the name is unique-index trouble (two creates with one name at once). */
const isNameConflict = (err: unknown) => {
  const text = String((err as { message?: unknown })?.message ?? '') + String((err as { cause?: unknown })?.cause ?? '');
  return text.includes('aibot_flows_name_uq');
};
const insertOrConflict = async (db: Db, row: Parameters<typeof repo.insertFlow>[1]) => {
  try {
    return await repo.insertFlow(db, row);
  } catch (err) {
    if (isNameConflict(err)) throw new AppError('AIBOT_FLOW_NAME_EXISTS');
    throw err;
  }
};

export const listFlows = async (db: Db, actor: Actor, q: FlowListQuery): Promise<ListData<FlowRow>> => {
  const name = (q.name ?? '').trim();
  const [rows, total] = await Promise.all([
    repo.listFlows(db, actor.tenantId, name, q.limit, (q.page - 1) * q.limit),
    repo.countFlows(db, actor.tenantId, name),
  ]);
  const names = await staffNames(
    db,
    actor.tenantId,
    rows.map((f) => f.creatorId),
  );
  return { list: rows.map((f) => present(f, names.get(f.creatorId) ?? '')), count: total };
};

/** A new unpublished flow of the caller's company, created by him (its name checked free first). */
const insertDraft = async (db: Db, actor: Actor, flow: { name: string; remark: string; graph: FlowGraph }) => {
  await requireFreeName(db, actor, flow.name, 0);
  const at = now();
  return insertOrConflict(db, {
    tenantId: actor.tenantId,
    ...flow,
    status: FLOW_STATUS.draft,
    creatorId: actor.staffId,
    createdAt: at,
    updatedAt: at,
  });
};

/** A new flow starts from the starter graph (开场 → 肯定/否定/拒绝 → 介绍/结束/挂机) and the default grade rules. */
export const createFlow = (db: Db, actor: Actor, body: FlowCreateBody) =>
  insertDraft(db, actor, { name: body.name, remark: body.remark, graph: starterGraph() });

export const flowDetail = async (db: Db, actor: Actor, id: number): Promise<FlowDetail> => {
  const flow = await requireFlow(db, actor, id);
  const versions = await repo.listVersions(db, actor.tenantId, id);
  const audioIds = [...flow.graph.nodes, ...flow.graph.kb].flatMap((x) => (x.audio_file_id === null ? [] : [x.audio_file_id]));
  const audio = audioIds.length > 0 ? await fileInfosByIds(db, actor.tenantId, audioIds) : new Map();
  const names = await staffNames(db, actor.tenantId, [flow.creatorId, ...versions.map((v) => v.publisherId)]);
  return {
    ...present(flow, names.get(flow.creatorId) ?? ''),
    graph: flow.graph,
    audio_files: [...audio].map(([fileId, f]) => ({ id: fileId, name: f.name, url: f.url })),
    issues: validateFlowGraph(flow.graph),
    versions: versions.map((v) => ({
      version: v.version,
      published_at: formatDateTime(v.publishedAt),
      publisher: names.get(v.publisherId) ?? '',
    })),
  };
};

/** Saves the draft, problems and all (the designer shows them); a published flow becomes 有未发布修改. */
export const updateFlow = async (db: Db, actor: Actor, body: FlowUpdateBody): Promise<FlowIssue[]> => {
  const flow = await requireFlow(db, actor, body.id);
  await requireFreeName(db, actor, body.name, body.id);
  await requireOwnAudio(db, actor, body.graph);
  const status = flow.version === 0 ? FLOW_STATUS.draft : FLOW_STATUS.changed;
  try {
    await repo.updateFlow(db, actor.tenantId, body.id, {
      name: body.name,
      remark: body.remark,
      graph: body.graph,
      status,
      updatedAt: now(),
    });
  } catch (err) {
    if (isNameConflict(err)) throw new AppError('AIBOT_FLOW_NAME_EXISTS');
    throw err;
  }
  return validateFlowGraph(body.graph);
};

/** Freezes the draft as the next version; refused, with the problems listed, while it has any. */
export const publishFlow = async (db: Db, actor: Actor, id: number): Promise<number> => {
  await requireFlow(db, actor, id);
  return db.transaction(async (tx) => {
    const flow = await repo.lockFlow(tx, actor.tenantId, id);
    if (!flow) throw new AppError('AIBOT_FLOW_NOT_FOUND');
    const issues = validateFlowGraph(flow.graph);
    if (issues.length > 0) {
      const msg = ERRORS.AIBOT_FLOW_INVALID.msg.replace('{count}', String(issues.length)).replace('{first}', issues[0].msg);
      throw new AppError('AIBOT_FLOW_INVALID', msg, { issues });
    }
    const version = flow.version + 1;
    const at = now();
    await repo.insertVersion(tx, {
      tenantId: actor.tenantId,
      flowId: id,
      version,
      graph: flow.graph,
      publisherId: actor.staffId,
      publishedAt: at,
    });
    await repo.updateFlow(tx, actor.tenantId, id, { version, status: FLOW_STATUS.published, updatedAt: at });
    return version;
  });
};

/** A copy of the draft under a new name, as a new unpublished flow. */
export const copyFlow = async (db: Db, actor: Actor, body: FlowCopyBody) => {
  const flow = await requireFlow(db, actor, body.id);
  return insertDraft(db, actor, { name: body.name, remark: flow.remark, graph: flow.graph });
};

/** Soft delete: its versions stay for the calls that walked them. */
export const deleteFlow = async (db: Db, actor: Actor, id: number) => {
  if ((await repo.updateFlow(db, actor.tenantId, id, { deletedAt: now() })) === 0) throw new AppError('AIBOT_FLOW_NOT_FOUND');
};

/** A published version as it was frozen (a running call keeps walking it). */
export const flowVersion = async (db: DbOrTx, actor: Actor, id: number, version: number): Promise<FlowVersionDetail> => {
  const flow = await requireFlow(db, actor, id);
  const row = await repo.findVersion(db, actor.tenantId, id, version);
  if (!row) throw new AppError('AIBOT_VERSION_NOT_FOUND');
  const names = await staffNames(db, actor.tenantId, [row.publisherId]);
  return {
    id,
    name: flow.name,
    version: row.version,
    graph: row.graph,
    published_at: formatDateTime(row.publishedAt),
    publisher: names.get(row.publisherId) ?? '',
  };
};

/**
 * For the AI calls: the flow a new call walks, its last published version (null: never published,
 * or deleted). The call stores the version and keeps walking it (versionGraph) to its end.
 */
export const publishedFlow = async (db: DbOrTx, tenantId: number, flowId: number) => {
  const flow = await repo.findFlow(db, tenantId, flowId);
  if (!flow || flow.version === 0) return null;
  const row = await repo.findVersion(db, tenantId, flowId, flow.version);
  return row ? { name: flow.name, version: row.version, graph: row.graph } : null;
};

/** A version's frozen graph, also after the flow was deleted (a call that started on it). */
export const versionGraph = async (db: DbOrTx, tenantId: number, flowId: number, version: number) =>
  (await repo.findVersion(db, tenantId, flowId, version))?.graph ?? null;

/** For the AI calls and reception numbers: flow names by id, also of deleted flows. */
export const flowNames = (db: DbOrTx, tenantId: number, ids: number[]) => repo.flowNames(db, tenantId, ids);

/** Whether the company has this flow (not deleted). */
export const flowExists = async (db: DbOrTx, tenantId: number, flowId: number) =>
  (await repo.findFlow(db, tenantId, flowId)) !== undefined;

/** A flow's name, also after it was deleted ('' when there is none). */
export const flowNameOf = async (db: DbOrTx, tenantId: number, flowId: number) =>
  (await repo.flowNames(db, tenantId, [flowId])).get(flowId) ?? '';
