import { ACTIONS, LIVE_MENU_IDS, type Role, type RoleBody, type RoleEditBody } from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { roleUsage } from './role-usage';
import * as repo from './roles.repo';

const ACTION_KEYS: readonly string[] = ACTIONS.map((a) => a.key);

/** Keeps only menu ids of existing pages and known action keys, de-duplicated. */
const clean = (body: RoleBody) => ({
  name: body.name,
  remark: body.remark,
  dataScope: body.dataScope,
  menuIds: [...new Set(body.menuIds.filter((id) => LIVE_MENU_IDS.includes(id)))],
  actions: [...new Set(body.actions.filter((a) => ACTION_KEYS.includes(a)))],
});

export const listRoles = async (db: Db, actor: Actor): Promise<Role[]> => {
  const [rows, staffNums] = await Promise.all([repo.listRoles(db, actor.tenantId), roleUsage.get().countsBy(db, actor.tenantId)]);
  return rows.map((role) => ({
    cmArid: role.id,
    name: role.name,
    remark: role.remark,
    dataScope: role.dataScope,
    menuIds: role.isSystem ? LIVE_MENU_IDS : role.menuIds.filter((id) => LIVE_MENU_IDS.includes(id)),
    actions: role.isSystem ? [...ACTION_KEYS] : role.actions,
    isSystem: role.isSystem ? 1 : 0,
    staffNum: staffNums.get(role.id) ?? 0,
    createTime: formatDateTime(role.createdAt),
  }));
};

export const createRole = async (db: Db, actor: Actor, body: RoleBody): Promise<number> => {
  if (await repo.nameTaken(db, actor.tenantId, body.name)) throw new AppError('ROLE_NAME_TAKEN');
  return repo.insertRole(db, { tenantId: actor.tenantId, ...clean(body) });
};

export const editRole = async (db: Db, actor: Actor, body: RoleEditBody): Promise<void> => {
  const role = await repo.findRole(db, actor.tenantId, body.cmArid);
  if (!role) throw new AppError('NOT_FOUND');
  if (role.isSystem) throw new AppError('ROLE_SYSTEM');
  if (await repo.nameTaken(db, actor.tenantId, body.name, role.id)) throw new AppError('ROLE_NAME_TAKEN');
  await repo.updateRole(db, actor.tenantId, role.id, clean(body));
};

export const deleteRole = async (db: Db, actor: Actor, id: number): Promise<void> => {
  const role = await repo.findRole(db, actor.tenantId, id);
  if (!role) throw new AppError('NOT_FOUND');
  if (role.isSystem) throw new AppError('ROLE_SYSTEM');
  if ((await roleUsage.get().countIn(db, actor.tenantId, id)) > 0) throw new AppError('ROLE_IN_USE');
  await repo.deleteRole(db, actor.tenantId, id);
};

export const requireRole = async (db: Db, tenantId: number, id: number) => {
  const role = await repo.findRole(db, tenantId, id);
  if (!role) throw new AppError('NOT_FOUND', '所选角色不存在');
  return role;
};

export const insertRole = repo.insertRole;

/** A role of the company, undefined when there is none (the session's user info). */
export const findRole = (db: DbOrTx, tenantId: number, id: number) => repo.findRole(db, tenantId, id);

/** Names of the company's roles by id (unknown ids are left out): the staff list. */
export const roleNames = (db: DbOrTx, tenantId: number, ids: number[]) => repo.roleNames(db, tenantId, ids);

/** The ids of the tenant's system roles (billing tells their holders of a low balance). */
export const systemRoleIds = (db: DbOrTx, tenantId: number) => repo.systemRoleIds(db, tenantId);
