import {
  type ApprovalTemplate,
  DOC_LINK_DM_TYPE,
  NODE_MODE,
  NODE_TYPE,
  type TemplateEditBody,
  type TemplateSaveBody,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import type { ApprovalControlDef, ApprovalNodeDef } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import { activeStaffIds, staffNames } from '../staff/staff-lookup';
import { docHandler, docTypeOfTemplate } from './approval-docs';
import * as repo from './approvals.repo';

export const APPROVAL_MENU = '/set/approval';

type Loaded = NonNullable<Awaited<ReturnType<typeof repo.findTemplate>>>;

/** Presents a template version with the names of its preset staff (SPEC §3 approval node). */
export const presentTemplate = async (
  db: DbOrTx,
  tenantId: number,
  t: repo.TemplateRow,
  v: repo.VersionRow,
): Promise<ApprovalTemplate> => {
  const names = await staffNames(
    db,
    tenantId,
    v.nodes.flatMap((n) => n.staffIds),
  );
  return {
    coMatid: t.id,
    name: t.name,
    isOrder: t.isOrder,
    actionState: t.actionState,
    version: v.version,
    templateControls: v.controls,
    nodes: v.nodes.map((n) => ({
      nodeId: n.nodeId,
      name: n.name,
      type: n.type,
      mode: n.mode,
      free: n.staffIds.length === 0 ? 1 : 0,
      staffS: n.staffIds.map((id) => ({ id, name: names.get(id) ?? '', freeAdd: 0, actionState: 4, actionTime: 0, remarks: '' })),
    })),
    updated_at: formatDateTime(t.updatedAt),
  };
};

export const listTemplates = async (db: Db, actor: Actor, q: { isAll: number; isOrder?: number }) => {
  const rows = await repo.listTemplates(db, actor.tenantId, { isAll: q.isAll === 1, isOrder: q.isOrder });
  return Promise.all(rows.map((r) => presentTemplate(db, actor.tenantId, r.template, r.version)));
};

export const requireTemplate = async (db: DbOrTx, tenantId: number, id: number): Promise<Loaded> => {
  const t = await repo.findTemplate(db, tenantId, id);
  if (!t) throw new AppError('TEMPLATE_NOT_FOUND');
  return t;
};

export const templateInfo = async (db: Db, actor: Actor, id: number) => {
  const t = await requireTemplate(db, actor.tenantId, id);
  return presentTemplate(db, actor.tenantId, t.template, t.version);
};

const LINK_NAMES: Record<number, string> = { 1: '关联订单', 2: '关联回款' };

/** The form and flow of a new version: ids assigned, order templates always link their order (dmType 17). */
const buildVersion = async (db: DbOrTx, actor: Actor, body: TemplateSaveBody) => {
  if (!body.nodes.some((n) => n.type === NODE_TYPE.approver)) throw new AppError('TEMPLATE_NO_APPROVER');
  const preset = [...new Set(body.nodes.flatMap((n) => n.staffIds))];
  const active = await activeStaffIds(db, actor.tenantId, preset);
  if (active.length !== preset.length) throw new AppError('APPROVER_INVALID');
  const controls: ApprovalControlDef[] = body.controls
    .filter((c) => c.dmType !== DOC_LINK_DM_TYPE)
    .map((c, i) => ({ coTacid: i + 1, name: c.name, dmType: c.dmType, dmDesc: c.dmDesc, dmValue: c.dmValue, dmMust: c.dmMust }));
  // a flow of a document kind (1 orders, 2 receipts, 3 seal use …) links its document by a dmType 17
  // control (the demo seed makes flows before the kinds register, hence the names of the first two here)
  if (body.isOrder > 0) {
    const linked = docTypeOfTemplate(body.isOrder);
    controls.push({
      coTacid: controls.length + 1,
      name: LINK_NAMES[body.isOrder] ?? `关联${linked ? docHandler(linked).label : '单据'}`,
      dmType: DOC_LINK_DM_TYPE,
      dmDesc: '',
      dmValue: [],
      dmMust: 1,
    });
  }
  const nodes: ApprovalNodeDef[] = body.nodes.map((n, i) => ({
    nodeId: i + 1,
    name: n.name || (n.type === NODE_TYPE.approver ? `审批节点${i + 1}` : `抄送节点${i + 1}`),
    type: n.type,
    mode: n.type === NODE_TYPE.approver ? n.mode : NODE_MODE.any,
    staffIds: [...new Set(n.staffIds)],
  }));
  return { controls, nodes };
};

export const createTemplate = async (db: Db, actor: Actor, body: TemplateSaveBody) => {
  if (await repo.templateNameTaken(db, actor.tenantId, body.name, 0)) throw new AppError('TEMPLATE_NAME_TAKEN');
  const v = await buildVersion(db, actor, body);
  return db.transaction(async (tx) => {
    const at = now();
    const id = await repo.insertTemplate(tx, {
      tenantId: actor.tenantId,
      name: body.name,
      isOrder: body.isOrder,
      actionState: body.actionState,
      createdAt: at,
      updatedAt: at,
    });
    const versionId = await repo.insertVersion(tx, { tenantId: actor.tenantId, templateId: id, version: 1, ...v, createdAt: at });
    await repo.updateTemplate(tx, actor.tenantId, id, { currentVersionId: versionId });
    return id;
  });
};

/** Editing adds a version; running instances keep the version they started with. */
export const editTemplate = async (db: Db, actor: Actor, body: TemplateEditBody) => {
  await requireTemplate(db, actor.tenantId, body.coMatid);
  if (await repo.templateNameTaken(db, actor.tenantId, body.name, body.coMatid)) throw new AppError('TEMPLATE_NAME_TAKEN');
  const v = await buildVersion(db, actor, body);
  await db.transaction(async (tx) => {
    const at = now();
    const version = (await repo.lastVersionNo(tx, body.coMatid)) + 1;
    const versionId = await repo.insertVersion(tx, {
      tenantId: actor.tenantId,
      templateId: body.coMatid,
      version,
      ...v,
      createdAt: at,
    });
    await repo.updateTemplate(tx, actor.tenantId, body.coMatid, {
      name: body.name,
      isOrder: body.isOrder,
      actionState: body.actionState,
      currentVersionId: versionId,
      updatedAt: at,
    });
  });
};

export const deleteTemplate = async (db: Db, actor: Actor, id: number) => {
  const done = await repo.updateTemplate(db, actor.tenantId, id, { deletedAt: now() });
  if (done.length === 0) throw new AppError('TEMPLATE_NOT_FOUND');
};
