import { NODE_MODE, NODE_TYPE, STEP_STATE, type TemplateCreateBody, VERIFY_STATUS, VERIFY_STATUS_LABEL } from '@crm/contracts';
import type { Db, Tx } from '../../db/client';
import type { ApprovalNodeDef } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { deliver } from '../../lib/events/events';
import { docHandler, docTypeOfTemplate } from './approval-docs';
import { readControls, resolveStaff } from './approval-form';
import { type ApprovalNotice, type Notifier, sendNotices } from './approval-notify';
import { requireTemplate } from './approval-templates.service';
import * as repo from './approvals.repo';

type Ctx = {
  tx: Tx;
  inst: repo.InstanceRow;
  nodes: ApprovalNodeDef[];
  at: Date;
  staffId: number;
  notices: ApprovalNotice[];
  /** domain events of the document, delivered after the commit */
  events: number[];
};

const notice = (c: Ctx, staffId: number, kind: ApprovalNotice['kind'], status: number, text: string) =>
  c.notices.push({ staffId, kind, instanceId: c.inst.id, docType: c.inst.docType, docId: c.inst.docId, status, text });

/** Ends the flow: the instance, its document and the submitter learn the result. */
const finish = async (c: Ctx, status: number) => {
  await repo.updateInstance(c.tx, c.inst.tenantId, c.inst.id, { status, finishedAt: c.at });
  const eventId = await docHandler(c.inst.docType).onStatus(c.tx, {
    tenantId: c.inst.tenantId,
    docId: c.inst.docId,
    instanceId: c.inst.id,
    status,
    staffId: c.staffId,
    at: c.at,
  });
  if (eventId) c.events.push(eventId);
  const label = docHandler(c.inst.docType).label;
  if (c.inst.submitterId !== c.staffId || status !== VERIFY_STATUS.withdrawn) {
    notice(c, c.inst.submitterId, 'result', status, `您提交的${label}审批${VERIFY_STATUS_LABEL[status]}`);
  }
};

/** From node `from` on: CC nodes receive and pass, the first approver node waits; past the last → approved. */
const advance = async (c: Ctx, from: number) => {
  const label = docHandler(c.inst.docType).label;
  for (let i = from; i < c.nodes.length; i++) {
    const node = c.nodes[i];
    if (node.type === NODE_TYPE.approver) {
      const waiting = await repo.setNodeState(c.tx, c.inst.tenantId, c.inst.id, i, [STEP_STATE.idle], STEP_STATE.waiting);
      await repo.updateInstance(c.tx, c.inst.tenantId, c.inst.id, { currentNode: i });
      for (const w of waiting) notice(c, w.staffId, 'todo', VERIFY_STATUS.pending, `您有一条${label}审批待处理`);
      return;
    }
    const cc = await repo.setNodeState(c.tx, c.inst.tenantId, c.inst.id, i, [STEP_STATE.idle], STEP_STATE.cc, c.at);
    await repo.insertAction(c.tx, {
      tenantId: c.inst.tenantId,
      instanceId: c.inst.id,
      nodeIndex: i,
      staffId: c.inst.submitterId,
      action: 'cc',
      createdAt: c.at,
    });
    for (const s of cc) notice(c, s.staffId, 'cc', VERIFY_STATUS.pending, `${label}审批抄送给您`);
  }
  await repo.updateInstance(c.tx, c.inst.tenantId, c.inst.id, { currentNode: c.nodes.length });
  await finish(c, VERIFY_STATUS.approved);
};

/** What a transaction owes after its commit: the notices of the staff concerned and the document's domain events. */
export type ApprovalOutbox = { notices: ApprovalNotice[]; events: number[] };

export const newOutbox = (): ApprovalOutbox => ({ notices: [], events: [] });

/** Delivers what a committed transaction owes (never before the commit: a rolled-back start tells no one). */
export const flushOutbox = async (db: Db, bus: Notifier | undefined, out: ApprovalOutbox) => {
  await deliver(db, out.events);
  await sendNotices(bus, out.notices);
};

/**
 * templatecreate's work inside the caller's transaction: the instance for the document linked by the
 * dmType 17 control (the document is locked and checked by its module). A document module that writes
 * its document in the same transaction (a receipt under a receipt flow) gets both or neither.
 * The caller flushes `out` after its commit.
 */
export const startInstanceIn = async (tx: Tx, out: ApprovalOutbox, actor: Actor, body: TemplateCreateBody) => {
  const t = await requireTemplate(tx, actor.tenantId, body.coMatid);
  if (t.template.actionState !== 0) throw new AppError('TEMPLATE_NOT_FOUND');
  const docType = docTypeOfTemplate(t.template.isOrder);
  if (!docType) throw new AppError('APPROVAL_DOC_INVALID');
  const { vals, docId } = readControls(t.version.controls, body);
  if (!docId) throw new AppError('APPROVAL_DOC_INVALID');
  const handler = docHandler(docType);
  await handler.lockForSubmit(tx, actor, docId);
  const staffOf = await resolveStaff(tx, actor, t.version.nodes, body);
  const at = now();
  const inst = await repo.insertInstance(tx, {
    tenantId: actor.tenantId,
    docType,
    docId,
    templateId: t.template.id,
    versionId: t.version.id,
    submitterId: actor.staffId,
    status: VERIFY_STATUS.pending,
    vals,
    createdAt: at,
  });
  await repo.insertSteps(
    tx,
    staffOf.flatMap((s, i) =>
      s.staffIds.map((staffId) => ({
        tenantId: actor.tenantId,
        instanceId: inst.id,
        nodeIndex: i,
        staffId,
        freeAdd: s.isFree ? 1 : 0,
      })),
    ),
  );
  await repo.insertAction(tx, {
    tenantId: actor.tenantId,
    instanceId: inst.id,
    staffId: actor.staffId,
    action: 'submit',
    createdAt: at,
  });
  const started = await handler.onStatus(tx, {
    tenantId: actor.tenantId,
    docId,
    instanceId: inst.id,
    status: VERIFY_STATUS.pending,
    staffId: actor.staffId,
    at,
  });
  if (started) out.events.push(started);
  const c: Ctx = { tx, inst, nodes: t.version.nodes, at, staffId: actor.staffId, ...out };
  await advance(c, 0);
  const after = await repo.findInstance(tx, actor.tenantId, inst.id);
  return { instanceId: inst.id, verify_status: after?.status ?? VERIFY_STATUS.pending };
};

/** templatecreate (SPEC §4/§7, isSave 2): starts an instance in a transaction of its own. */
export const startInstance = async (db: Db, bus: Notifier | undefined, actor: Actor, body: TemplateCreateBody) => {
  const out = newOutbox();
  const result = await db.transaction((tx) => startInstanceIn(tx, out, actor, body));
  await flushOutbox(db, bus, out);
  return result;
};

/** Locks the instance and loads its flow; refuses a finished one (a concurrent action won). */
const lockPending = async (tx: Tx, actor: Actor, instanceId: number) => {
  const inst = await repo.lockInstance(tx, actor.tenantId, instanceId);
  if (!inst) throw new AppError('APPROVAL_NOT_FOUND');
  if (inst.status !== VERIFY_STATUS.pending) throw new AppError('APPROVAL_DONE');
  const version = await repo.findVersion(tx, inst.versionId);
  return { inst, nodes: version.nodes };
};

/**
 * An action names the node it acts on (issue 22: one double click of an approver of two consecutive
 * nodes passed both). When that node is no longer the current one (or the flow ended), an approver who
 * acted on it is told 您已审批过该节点 (409), anyone else 该审批已处理; nothing is applied to another node.
 */
const requireNode = async (tx: Tx, actor: Actor, instanceId: number, nodeId: number) => {
  const inst = await repo.lockInstance(tx, actor.tenantId, instanceId);
  if (!inst) throw new AppError('APPROVAL_NOT_FOUND');
  const version = await repo.findVersion(tx, inst.versionId);
  const index = version.nodes.findIndex((n) => n.nodeId === nodeId);
  if (inst.status === VERIFY_STATUS.pending && index === inst.currentNode) return { inst, nodes: version.nodes };
  const actedThere =
    index >= 0 &&
    (await repo.stepsOf(tx, inst.id)).some(
      (s) =>
        s.nodeIndex === index &&
        s.staffId === actor.staffId &&
        (s.state === STEP_STATE.approved || s.state === STEP_STATE.rejected),
    );
  throw new AppError(actedThere ? 'APPROVAL_REPEATED' : 'APPROVAL_DONE');
};

/**
 * Approve (1) or reject (2): only a waiting approver of the current node, named by `nodeId`. 或签: the
 * first approval advances; 会签: the node advances once all approved. A rejection ends the flow (2).
 */
export const act = async (
  db: Db,
  bus: Notifier | undefined,
  actor: Actor,
  instanceId: number,
  nodeId: number,
  status: 1 | 2,
  remark: string,
) => {
  const out = newOutbox();
  const result = await db.transaction(async (tx) => {
    const { inst, nodes } = await requireNode(tx, actor, instanceId, nodeId);
    const steps = (await repo.stepsOf(tx, inst.id)).filter((s) => s.nodeIndex === inst.currentNode);
    const mine = steps.find((s) => s.staffId === actor.staffId);
    if (!mine) throw new AppError('APPROVAL_NOT_APPROVER');
    if (mine.state !== STEP_STATE.waiting) throw new AppError('APPROVAL_ALREADY_ACTED');
    const at = now();
    const c: Ctx = { tx, inst, nodes, at, staffId: actor.staffId, ...out };
    await repo.setStep(tx, actor.tenantId, mine.id, {
      state: status === 1 ? STEP_STATE.approved : STEP_STATE.rejected,
      remark: remark.trim(),
      actedAt: at,
    });
    await repo.insertAction(tx, {
      tenantId: actor.tenantId,
      instanceId: inst.id,
      nodeIndex: inst.currentNode,
      staffId: actor.staffId,
      action: status === 1 ? 'approve' : 'reject',
      remark: remark.trim(),
      createdAt: at,
    });
    const node = nodes[inst.currentNode];
    if (status === 2) {
      await repo.setNodeState(tx, actor.tenantId, inst.id, inst.currentNode, [STEP_STATE.waiting], STEP_STATE.idle);
      await finish(c, VERIFY_STATUS.rejected);
      return VERIFY_STATUS.rejected;
    }
    const othersWaiting = steps.some((s) => s.id !== mine.id && s.state === STEP_STATE.waiting);
    if (node.mode === NODE_MODE.all && othersWaiting) return VERIFY_STATUS.pending;
    await repo.setNodeState(tx, actor.tenantId, inst.id, inst.currentNode, [STEP_STATE.waiting], STEP_STATE.idle);
    await advance(c, inst.currentNode + 1);
    return (await repo.findInstance(tx, actor.tenantId, inst.id))?.status ?? VERIFY_STATUS.pending;
  });
  await flushOutbox(db, bus, out);
  return result;
};

/** Withdraw (已撤回, 3): the submitter, while pending. */
export const withdraw = async (db: Db, bus: Notifier | undefined, actor: Actor, instanceId: number) => {
  const out = newOutbox();
  await db.transaction(async (tx) => {
    const { inst, nodes } = await lockPending(tx, actor, instanceId);
    if (inst.submitterId !== actor.staffId) throw new AppError('APPROVAL_NOT_SUBMITTER');
    const at = now();
    const waiting = await repo.setNodeState(tx, actor.tenantId, inst.id, inst.currentNode, [STEP_STATE.waiting], STEP_STATE.idle);
    await repo.insertAction(tx, {
      tenantId: actor.tenantId,
      instanceId: inst.id,
      staffId: actor.staffId,
      action: 'withdraw',
      createdAt: at,
    });
    const c: Ctx = { tx, inst, nodes, at, staffId: actor.staffId, ...out };
    await finish(c, VERIFY_STATUS.withdrawn);
    for (const w of waiting)
      notice(c, w.staffId, 'result', VERIFY_STATUS.withdrawn, `${docHandler(inst.docType).label}审批已被发起人撤回`);
  });
  await flushOutbox(db, bus, out);
};
