import { ACTION_STATE, type Label, type LabelBody, type LabelEditBody, type LabelGroup } from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { labelUsage } from './label-usage';
import * as repo from './labels.repo';

type Row = Awaited<ReturnType<typeof repo.listLabels>>[number];
const toLabel = (label: Row, customerNum: number): Label => ({
  cmClid: label.id,
  pid: label.pid,
  name: label.name,
  sortNum: label.sortNum,
  actionState: label.actionState,
  customerNum,
  createTime: formatDateTime(label.createdAt),
});

/** Tag groups with their tags (the tag add window and /set/label). */
export const labelTree = async (db: Db, actor: Actor, actionState?: number): Promise<LabelGroup[]> => {
  const labels = await repo.listLabels(db, actor.tenantId, actionState);
  const counts = await labelUsage.get().countsBy(db, actor.tenantId);
  const rows = labels.map((l) => toLabel(l, counts.get(l.id) ?? 0));
  const groups = rows.filter((r) => r.pid === 0).map((g) => ({ ...g, children: [] as Label[] }));
  const byId = new Map(groups.map((g) => [g.cmClid, g]));
  for (const r of rows) if (r.pid !== 0) byId.get(r.pid)?.children.push(r);
  return groups;
};

const checkParent = async (db: Db, actor: Actor, pid: number) => {
  if (pid === 0) return;
  const parent = await repo.findLabel(db, actor.tenantId, pid);
  if (!parent || parent.pid !== 0) throw new AppError('LABEL_GROUP_INVALID');
};

export const createLabel = async (db: Db, actor: Actor, body: LabelBody): Promise<number> => {
  await checkParent(db, actor, body.pid);
  if (await repo.nameTaken(db, actor.tenantId, body.pid, body.name)) throw new AppError('LABEL_NAME_TAKEN');
  return repo.insertLabel(db, { tenantId: actor.tenantId, ...body });
};

export const editLabel = async (db: Db, actor: Actor, body: LabelEditBody): Promise<void> => {
  const row = await repo.findLabel(db, actor.tenantId, body.cmClid);
  if (!row) throw new AppError('NOT_FOUND', '标签不存在');
  // A group stays a group and a tag stays a tag (it may move to another group).
  if ((row.pid === 0) !== (body.pid === 0)) throw new AppError('LABEL_GROUP_INVALID', '标签分组和标签不能互相转换');
  await checkParent(db, actor, body.pid);
  if (await repo.nameTaken(db, actor.tenantId, body.pid, body.name, row.id)) throw new AppError('LABEL_NAME_TAKEN');
  await repo.updateLabel(db, actor.tenantId, row.id, {
    pid: body.pid,
    name: body.name,
    sortNum: body.sortNum,
    actionState: body.actionState,
  });
};

/** Deleting a group needs it empty; deleting a tag that customers carry is refused. */
export const deleteLabel = async (db: Db, actor: Actor, id: number): Promise<void> => {
  const row = await repo.findLabel(db, actor.tenantId, id);
  if (!row) throw new AppError('NOT_FOUND', '标签不存在');
  if (row.pid === 0 && (await repo.countChildren(db, actor.tenantId, id)) > 0) throw new AppError('LABEL_GROUP_NOT_EMPTY');
  if (row.pid !== 0 && (await labelUsage.get().countIn(db, actor.tenantId, id)) > 0) throw new AppError('LABEL_IN_USE');
  await db.transaction(async (tx) => {
    // Soft-deleted customers lose the tag too; live ones were checked to hold none.
    await labelUsage.get().detach?.(tx, actor.tenantId, id);
    await repo.deleteLabel(tx, actor.tenantId, id);
  });
};

/** The ids must be enabled tags (not groups) of the company. */
export const requireEnabledTags = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  const unique = [...new Set(ids)];
  const rows = await repo.findLabels(db, tenantId, unique);
  if (rows.length !== unique.length || rows.some((r) => r.pid === 0 || r.actionState !== ACTION_STATE.enabled)) {
    throw new AppError('NOT_FOUND', '所选标签不存在或已禁用');
  }
  return unique;
};

/** Every id is a tag (not a group) of the company, enabled or not: rules that name tags (pool recycling) use it. */
export const requireTags = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  const unique = [...new Set(ids)];
  const rows = await repo.findLabels(db, tenantId, unique);
  if (rows.length !== unique.length || rows.some((r) => r.pid === 0)) throw new AppError('NOT_FOUND', '所选标签不存在');
};

/** Names of tags by id, for display (lists, detail, export). */
export const labelNamesByIds = async (db: DbOrTx, tenantId: number, ids: number[]) =>
  new Map((await repo.findLabels(db, tenantId, [...new Set(ids)])).map((r) => [r.id, r.name]));

/** Enabled labels by name (an import's tag column names them), as the import has always read them. */
export const enabledLabelIdsByName = async (db: DbOrTx, tenantId: number) =>
  new Map((await repo.listEnabledNames(db, tenantId)).map((l) => [l.name, l.id]));

/** The ids of the company's labels, groups and tags (what a label counter counts over). */
export const labelIdsOf = async (db: DbOrTx, tenantId: number) => (await repo.listLabels(db, tenantId)).map((l) => l.id);
