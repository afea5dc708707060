import {
  APPROVAL_TABS,
  type ApprovalCounts,
  type ApprovalInstance,
  type ApprovalListQuery,
  type ApprovalRow,
  DOC_LINK_DM_TYPE,
  type ListData,
  NODE_TYPE,
  STEP_STATE,
  VERIFY_STATUS,
  VERIFY_STATUS_LABEL,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { staffNames } from '../staff/staff-lookup';
import { docHandler } from './approval-docs';
import * as repo from './approvals.repo';

const ACTION_NAME: Record<string, string> = { submit: '提交审批', approve: '同意', reject: '驳回', withdraw: '撤回', cc: '抄送' };
const unix = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : 0);

/** An instance with its nodes, staff states and trail (the order detail's approval panel). */
export const instanceView = async (db: DbOrTx, actor: Actor, inst: repo.InstanceRow): Promise<ApprovalInstance> => {
  const [version, steps, actions, template] = await Promise.all([
    repo.findVersion(db, inst.versionId),
    repo.stepsOf(db, inst.id),
    repo.actionsOf(db, inst.id),
    repo.instancesByIds(db, inst.tenantId, [inst.id]),
  ]);
  const names = await staffNames(db, inst.tenantId, [
    ...steps.map((s) => s.staffId),
    ...actions.map((a) => a.staffId),
    inst.submitterId,
  ]);
  const isPending = inst.status === VERIFY_STATUS.pending;
  const canAct =
    isPending &&
    steps.some((s) => s.nodeIndex === inst.currentNode && s.staffId === actor.staffId && s.state === STEP_STATE.waiting);
  return {
    instanceId: inst.id,
    docType: inst.docType,
    docId: inst.docId,
    coMatid: inst.templateId,
    templateName: template[0]?.templateName ?? '',
    version: version.version,
    status: inst.status,
    statusName: VERIFY_STATUS_LABEL[inst.status] ?? '',
    currentNode: inst.currentNode,
    submitter: { id: inst.submitterId, name: names.get(inst.submitterId) ?? '' },
    created_at: formatDateTime(inst.createdAt),
    finished_at: formatDateTime(inst.finishedAt),
    templateControls: version.controls
      .filter((c) => c.dmType !== DOC_LINK_DM_TYPE)
      .map((c) => ({ ...c, value: inst.vals[String(c.coTacid)] ?? [] })),
    nodes: version.nodes.map((n, i) => {
      const own = steps.filter((s) => s.nodeIndex === i);
      const state =
        i < inst.currentNode || (i === inst.currentNode && inst.status === VERIFY_STATUS.approved)
          ? n.type === NODE_TYPE.approver
            ? STEP_STATE.approved
            : STEP_STATE.cc
          : i === inst.currentNode && inst.status === VERIFY_STATUS.rejected
            ? STEP_STATE.rejected
            : i === inst.currentNode && isPending
              ? STEP_STATE.waiting
              : STEP_STATE.idle;
      return {
        nodeId: n.nodeId,
        name: n.name,
        type: n.type,
        mode: n.mode,
        free: n.staffIds.length === 0 ? 1 : 0,
        state,
        staffS: own.map((s) => ({
          id: s.staffId,
          name: names.get(s.staffId) ?? '',
          freeAdd: s.freeAdd,
          actionState: s.state,
          actionTime: unix(s.actedAt),
          remarks: s.remark,
        })),
      };
    }),
    actions: actions.map((a) => ({
      staff_id: a.staffId,
      staff_name: names.get(a.staffId) ?? '',
      action: a.action,
      action_name: ACTION_NAME[a.action] ?? a.action,
      remark: a.remark,
      created_at: formatDateTime(a.createdAt),
    })),
    canAct: canAct ? 1 : 0,
    canWithdraw: isPending && inst.submitterId === actor.staffId ? 1 : 0,
  };
};

/** The instance for one who takes part in it or may read its document. */
export const instanceInfo = async (db: Db, actor: Actor, instanceId: number) => {
  const inst = await repo.findInstance(db, actor.tenantId, instanceId);
  if (!inst) throw new AppError('APPROVAL_NOT_FOUND');
  const isIn = await repo.isParticipant(db, actor.tenantId, inst.docType, inst.docId, actor.staffId);
  if (!isIn && !(await docHandler(inst.docType).canRead(db, actor, inst.docId))) throw new AppError('APPROVAL_NOT_FOUND');
  return instanceView(db, actor, inst);
};

/** 我的审批: 待我审批 / 我已审批 / 抄送我的 / 我发起的. */
export const listApprovals = async (db: Db, actor: Actor, q: ApprovalListQuery): Promise<ListData<ApprovalRow>> => {
  const [ids, total] = await Promise.all([
    repo.listTab(db, q.tab, actor.tenantId, actor.staffId, q.status, q.limit, (q.page - 1) * q.limit),
    repo.countTab(db, q.tab, actor.tenantId, actor.staffId, q.status),
  ]);
  const rows = await repo.instancesByIds(db, actor.tenantId, ids);
  const submitters = await staffNames(
    db,
    actor.tenantId,
    rows.map((r) => r.instance.submitterId),
  );
  const byId = new Map(rows.map((r) => [r.instance.id, r]));
  const docIds = new Map<string, number[]>();
  for (const r of rows) docIds.set(r.instance.docType, [...(docIds.get(r.instance.docType) ?? []), r.instance.docId]);
  const summaries = new Map<string, Awaited<ReturnType<ReturnType<typeof docHandler>['summaries']>>>();
  for (const [type, list] of docIds) summaries.set(type, await docHandler(type).summaries(db, actor.tenantId, list));
  const versions = new Map<number, Awaited<ReturnType<typeof repo.findVersion>>>();
  for (const r of rows)
    if (!versions.has(r.instance.versionId)) versions.set(r.instance.versionId, await repo.findVersion(db, r.instance.versionId));
  return {
    count: total,
    list: ids.flatMap((id) => {
      const r = byId.get(id);
      if (!r) return [];
      const i = r.instance;
      const s = summaries.get(i.docType)?.get(i.docId);
      const node = versions.get(i.versionId)?.nodes[i.currentNode];
      return [
        {
          instanceId: i.id,
          docType: i.docType,
          docId: i.docId,
          templateName: r.templateName,
          title: s?.title ?? '',
          customer_id: s?.customerId ?? 0,
          customer_name: s?.customerName ?? '',
          amount: s?.amount ?? 0,
          submitter_name: submitters.get(r.instance.submitterId) ?? '',
          status: i.status,
          statusName: VERIFY_STATUS_LABEL[i.status] ?? '',
          current_node_name: i.status === VERIFY_STATUS.pending ? (node?.name ?? '') : '',
          created_at: formatDateTime(i.createdAt),
          finished_at: formatDateTime(i.finishedAt),
        },
      ];
    }),
  };
};

export const approvalCounts = async (db: Db, actor: Actor): Promise<ApprovalCounts> => {
  const [todo, done, cc, mine] = await Promise.all(
    APPROVAL_TABS.map((tab) => repo.countTab(db, tab, actor.tenantId, actor.staffId)),
  );
  return { todo, done, cc, mine };
};

export const pendingApprovalCount = (db: Db, actor: Actor) => repo.countPendingForStaff(db, actor.tenantId, actor.staffId);

/** The view of a document's instance by id (the document's detail panel), or null when there is none. */
export const instanceViewOf = async (db: Db, actor: Actor, instanceId: number | null) => {
  const inst = instanceId ? await repo.findInstance(db, actor.tenantId, instanceId) : undefined;
  return inst ? instanceView(db, actor, inst) : null;
};

/** Whether the staff takes part in any instance of the document (approver, CC or submitter). */
export const takesPartInApproval = (db: DbOrTx, tenantId: number, docType: string, docId: number, staffId: number) =>
  repo.isParticipant(db, tenantId, docType, docId, staffId);
