import {
  ACTION_STATE,
  type CascaderOption,
  DM_TYPE,
  OPTION_KINDS,
  SEARCHABLE_KINDS,
  type TemplateControl,
  type TemplateControlBody,
  type TemplateControlEditBody,
  type TemplateInfo,
  TREE_KINDS,
  templateControlBody,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import * as repo from './customer-templates.repo';

export type { ControlRow } from './customer-templates.repo';

/** The company's template row, created on first use. */
export const ensureTemplate = async (db: DbOrTx, tenantId: number) =>
  (await repo.findTemplate(db, tenantId)) ?? (await repo.insertTemplate(db, tenantId));

const toApi = (row: repo.ControlRow, children: TemplateControl[]): TemplateControl => ({
  cbTacid: row.id,
  coTacid: row.id,
  cmAtid: row.templateId,
  pid: row.pid,
  name: row.name,
  dmType: row.dmType,
  dmDesc: row.dmDesc,
  dmValue: OPTION_KINDS.includes(row.dmType) ? row.options : row.dmType === DM_TYPE.staticText ? row.staticText : '',
  ctrlList: TREE_KINDS.includes(row.dmType) ? (row.tree as CascaderOption[]) : [],
  dmMust: row.dmMust,
  isJudge: row.isJudge,
  isFollowShow: row.isFollowShow,
  isSearch: row.isSearch,
  sortNum: row.sortNum,
  actionState: row.actionState,
  children,
});

/** Controls as a tree (group → children), in order. */
export const buildControlTree = (rows: repo.ControlRow[]): TemplateControl[] => {
  const childrenOf = new Map<number, repo.ControlRow[]>();
  for (const r of rows) if (r.pid) childrenOf.set(r.pid, [...(childrenOf.get(r.pid) ?? []), r]);
  return rows
    .filter((r) => r.pid === 0)
    .map((r) =>
      toApi(
        r,
        (childrenOf.get(r.id) ?? []).map((c) => toApi(c, [])),
      ),
    );
};

export type LoadedTemplate = {
  id: number;
  isMustName: number;
  rows: repo.ControlRow[];
  enabled: repo.ControlRow[];
  byId: Map<number, repo.ControlRow>;
};

/** Everything the customer rules need from the template, in one read. */
export const loadTemplate = async (db: DbOrTx, tenantId: number): Promise<LoadedTemplate> => {
  const found = await repo.findTemplateWithControls(db, tenantId);
  const tpl = found?.template ?? (await repo.insertTemplate(db, tenantId));
  const rows = found?.controls ?? [];
  const disabledGroups = new Set(
    rows.filter((r) => r.dmType === DM_TYPE.group && r.actionState !== ACTION_STATE.enabled).map((r) => r.id),
  );
  const enabled = rows.filter((r) => r.actionState === ACTION_STATE.enabled && !disabledGroups.has(r.pid));
  return { id: tpl.id, isMustName: tpl.isMustName, rows, enabled, byId: new Map(rows.map((r) => [r.id, r])) };
};

/** GET templateinfo: the enabled controls; isSearch=1 keeps the ones usable as list filters. */
export const templateInfo = async (db: Db, actor: Actor, isSearch: number): Promise<TemplateInfo> => {
  const tpl = await loadTemplate(db, actor.tenantId);
  let rows = tpl.enabled;
  if (isSearch === 1) {
    rows = rows.filter((r) => r.dmType === DM_TYPE.group || (r.isSearch === 1 && SEARCHABLE_KINDS.includes(r.dmType)));
    const groupsWithChildren = new Set(rows.filter((r) => r.pid).map((r) => r.pid));
    rows = rows.filter((r) => r.dmType !== DM_TYPE.group || groupsWithChildren.has(r.id));
  }
  return { isMustName: tpl.isMustName, cmAtid: tpl.id, templateControls: buildControlTree(rows) };
};

/** The designer's view: every control, disabled ones included. */
export const templateDesign = async (db: Db, actor: Actor): Promise<TemplateInfo> => {
  const tpl = await loadTemplate(db, actor.tenantId);
  return { isMustName: tpl.isMustName, cmAtid: tpl.id, templateControls: buildControlTree(tpl.rows) };
};

const valuesOf = (body: TemplateControlBody): repo.ControlValues => ({
  pid: body.pid,
  name: body.name,
  dmType: body.dmType,
  dmDesc: body.dmDesc,
  options: OPTION_KINDS.includes(body.dmType) ? body.options : [],
  tree: TREE_KINDS.includes(body.dmType) ? body.tree : [],
  staticText: body.dmType === DM_TYPE.staticText ? body.staticText : '',
  dmMust: body.dmType === DM_TYPE.staticText ? 0 : body.dmMust,
  isJudge: body.isJudge,
  isFollowShow: body.isFollowShow,
  isSearch: SEARCHABLE_KINDS.includes(body.dmType) ? body.isSearch : 0,
  sortNum: body.sortNum,
  actionState: body.actionState,
});

const checkParent = async (db: Db, actor: Actor, pid: number) => {
  if (pid === 0) return;
  const parent = await repo.findControl(db, actor.tenantId, pid);
  if (!parent || parent.dmType !== DM_TYPE.group) throw new AppError('NOT_FOUND', '所属分组不存在');
};

export const createControl = async (db: Db, actor: Actor, body: TemplateControlBody): Promise<number> => {
  const tpl = await ensureTemplate(db, actor.tenantId);
  await checkParent(db, actor, body.pid);
  return repo.insertControl(db, { tenantId: actor.tenantId, templateId: tpl.id, ...valuesOf(body) });
};

/**
 * The stored control with the fields sent applied, checked by the create rules (issue 11 hole 13:
 * a field not sent keeps its value instead of going back to its default).
 */
const mergedControl = (row: repo.ControlRow, edit: TemplateControlEditBody): TemplateControlBody => {
  const { cbTacid: _id, ...sent } = edit;
  const changes = Object.fromEntries(Object.entries(sent).filter(([, v]) => v !== undefined));
  const stored = {
    pid: row.pid,
    name: row.name,
    dmType: row.dmType,
    dmDesc: row.dmDesc,
    options: row.options,
    tree: row.tree,
    staticText: row.staticText,
    dmMust: row.dmMust,
    isJudge: row.isJudge,
    isFollowShow: row.isFollowShow,
    isSearch: row.isSearch,
    sortNum: row.sortNum,
    actionState: row.actionState,
  };
  const parsed = templateControlBody.safeParse({ ...stored, ...changes });
  if (!parsed.success) throw new AppError('VALIDATION', parsed.error.issues[0]?.message);
  return parsed.data;
};

export const editControl = async (db: Db, actor: Actor, edit: TemplateControlEditBody): Promise<void> => {
  const row = await repo.findControl(db, actor.tenantId, edit.cbTacid);
  if (!row) throw new AppError('NOT_FOUND', '控件不存在');
  const body = mergedControl(row, edit);
  // Changing the kind would make stored values meaningless.
  if (row.dmType !== body.dmType && (await repo.isControlUsed(db, actor.tenantId, row.id))) {
    throw new AppError('TEMPLATE_CONTROL_USED', '该控件已有客户数据，不能修改控件类型');
  }
  if (body.pid === row.id) throw new AppError('VALIDATION', '控件不能放在自己里面');
  if (row.dmType === DM_TYPE.group && body.dmType !== DM_TYPE.group && (await repo.countChildren(db, row.id)) > 0) {
    throw new AppError('TEMPLATE_CONTROL_USED', '请先删除分组内的控件');
  }
  await checkParent(db, actor, body.pid);
  await repo.updateControl(db, actor.tenantId, row.id, valuesOf(body));
};

export const deleteControl = async (db: Db, actor: Actor, id: number): Promise<void> => {
  const row = await repo.findControl(db, actor.tenantId, id);
  if (!row) throw new AppError('NOT_FOUND', '控件不存在');
  if ((await repo.countChildren(db, id)) > 0) throw new AppError('TEMPLATE_CONTROL_USED', '请先删除分组内的控件');
  if (await repo.isControlUsed(db, actor.tenantId, id)) throw new AppError('TEMPLATE_CONTROL_USED');
  await repo.deleteControl(db, actor.tenantId, id);
};

/** Reorders controls: sortNum follows the order of the ids given. */
export const sortControls = async (db: Db, actor: Actor, ids: number[]): Promise<void> => {
  await db.transaction(async (tx) => {
    for (const [i, id] of ids.entries()) await repo.setControlOrder(tx, actor.tenantId, id, (i + 1) * 10);
  });
};

export const setMustName = async (db: Db, actor: Actor, isMustName: number): Promise<void> => {
  await ensureTemplate(db, actor.tenantId);
  await repo.setMustName(db, actor.tenantId, isMustName);
};

export const insertControlRow = repo.insertControl;
export const setTemplateMustName = repo.setMustName;
