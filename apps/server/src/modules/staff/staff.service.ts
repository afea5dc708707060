import {
  DATA_SCOPE,
  type ListData,
  type Staff,
  type StaffCreateBody,
  type StaffEditBody,
  type StaffListQuery,
  type StaffOption,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, onlyRefusal } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { hashPassword } from '../../lib/password';
import { formatDateTime, parseDateTime } from '../../lib/time';
import { departmentNames, departmentSubtree, requireDepartment } from '../departments/departments.service';
import { requireRole, roleNames } from '../roles/roles.service';
import * as repo from './staff.repo';
import { lockOut, type Publisher } from './staff-lockout';

type StaffRow = Awaited<ReturnType<typeof repo.listStaff>>['rows'][number];

const toStaff = (s: StaffRow, departmentName: string | undefined, roleName: string): Staff => ({
  cmSid: s.id,
  username: s.username,
  name: s.name,
  phone: s.phone,
  workNumber: s.workNumber,
  sex: s.sex,
  email: s.email,
  cmDid: s.departmentId,
  cmDidName: departmentName ?? '',
  cmArid: s.roleId ?? 0,
  cmAridName: roleName,
  merchantType: s.merchantType,
  actionState: s.actionState,
  expireTime: formatDateTime(s.expireAt),
  lastLoginTime: formatDateTime(s.lastLoginAt),
  lastLoginIp: s.lastLoginIp,
  isOwner: s.isOwner ? 1 : 0,
  createTime: formatDateTime(s.createdAt),
});

export const listStaff = async (db: Db, actor: Actor, q: StaffListQuery): Promise<ListData<Staff>> => {
  const { rows, count } = await repo.listStaff(
    db,
    {
      tenantId: actor.tenantId,
      name: q.name?.trim(),
      departmentId: q.cmDid,
      roleId: q.cmArid,
      actionState: q.actionState,
      merchantType: q.merchantType,
    },
    q.page,
    q.limit,
  );
  const [departments, roles] = await Promise.all([
    departmentNames(
      db,
      actor.tenantId,
      rows.flatMap((s) => (s.departmentId === null ? [] : [s.departmentId])),
    ),
    roleNames(
      db,
      actor.tenantId,
      rows.flatMap((s) => (s.roleId === null ? [] : [s.roleId])),
    ),
  ]);
  return {
    list: rows.map((s) =>
      toStaff(s, s.departmentId === null ? undefined : departments.get(s.departmentId), roles.get(s.roleId ?? 0) ?? ''),
    ),
    count,
  };
};

const checkRefs = async (db: Db, actor: Actor, body: { cmDid: number; cmArid: number }) => {
  await requireDepartment(db, actor.tenantId, body.cmDid);
  await requireRole(db, actor.tenantId, body.cmArid);
};

const valuesOf = (body: Omit<StaffEditBody, 'cmSid'>) => ({
  name: body.name,
  phone: body.phone,
  workNumber: body.workNumber,
  sex: body.sex,
  email: body.email,
  departmentId: body.cmDid,
  roleId: body.cmArid,
  merchantType: body.merchantType,
  actionState: body.actionState,
  expireAt: parseDateTime(body.expireTime),
});

export const createStaff = async (db: Db, actor: Actor, body: StaffCreateBody): Promise<number> => {
  await checkRefs(db, actor, body);
  if (await repo.usernameTaken(db, body.username)) throw new AppError('STAFF_USERNAME_TAKEN');
  if (await repo.phoneTaken(db, body.phone)) throw new AppError('STAFF_PHONE_TAKEN');
  return repo.insertStaff(db, {
    tenantId: actor.tenantId,
    username: body.username,
    passwordHash: await hashPassword(body.password),
    ...valuesOf(body),
  });
};

const requireStaff = async (db: Db, actor: Actor, id: number) => {
  const row = await repo.findStaff(db, actor.tenantId, id);
  if (!row) throw new AppError('NOT_FOUND', '员工不存在');
  return row;
};

/** The owner and the caller cannot lock themselves or the company out. */
const guardLockout = (actor: Actor, target: { id: number; isOwner: boolean }) => {
  if (target.id === actor.staffId) throw new AppError('STAFF_SELF');
  if (target.isOwner) throw new AppError('STAFF_OWNER');
};

export const editStaff = async (db: Db, bus: Publisher, actor: Actor, body: StaffEditBody): Promise<void> => {
  const target = await requireStaff(db, actor, body.cmSid);
  await checkRefs(db, actor, body);
  if (await repo.phoneTaken(db, body.phone, target.id)) throw new AppError('STAFF_PHONE_TAKEN');
  const values = valuesOf(body);
  const isLocking = values.actionState !== 0 || (values.expireAt !== null && values.expireAt.getTime() < Date.now());
  if (isLocking) guardLockout(actor, target);
  if (target.isOwner && values.roleId !== target.roleId) throw new AppError('STAFF_OWNER', '企业创建人的角色不能修改');
  await repo.updateStaff(db, actor.tenantId, target.id, values);
  if (isLocking) await lockOut(db, bus, actor.tenantId, target.id);
};

export const setStaffState = async (db: Db, bus: Publisher, actor: Actor, id: number, actionState: number): Promise<void> => {
  const target = await requireStaff(db, actor, id);
  if (actionState !== 0) guardLockout(actor, target);
  await repo.updateStaff(db, actor.tenantId, id, { actionState });
  if (actionState !== 0) await lockOut(db, bus, actor.tenantId, id);
};

/** An admin sets a new password; the staff member is logged out everywhere. */
export const resetStaffPassword = async (db: Db, bus: Publisher, actor: Actor, id: number, password: string): Promise<void> => {
  await requireStaff(db, actor, id);
  await repo.updateStaff(db, actor.tenantId, id, { passwordHash: await hashPassword(password) });
  await lockOut(db, bus, actor.tenantId, id);
};

/** Soft delete: history rows (customers, calls, logs) keep pointing at the staff member. */
export const deleteStaff = async (db: Db, bus: Publisher, actor: Actor, id: number): Promise<void> => {
  const target = await requireStaff(db, actor, id);
  guardLockout(actor, target);
  await repo.updateStaff(db, actor.tenantId, id, { isDeleted: true, actionState: 1 });
  await lockOut(db, bus, actor.tenantId, id);
};

/**
 * The staff ids whose rows the caller may see under the role's data scope,
 * or null when the scope is the whole company.
 */
export const scopeStaffIds = async (db: Db, actor: Actor): Promise<number[] | null> => {
  if (actor.isSystemRole || actor.dataScope === DATA_SCOPE.all) return null;
  if (actor.dataScope === DATA_SCOPE.own || actor.departmentId === null) return [actor.staffId];
  const departmentIds =
    actor.dataScope === DATA_SCOPE.departmentTree
      ? await departmentSubtree(db, actor.tenantId, actor.departmentId)
      : [actor.departmentId];
  const ids = await repo.staffIdsInDepartments(db, actor.tenantId, departmentIds);
  return ids.includes(actor.staffId) ? ids : [...ids, actor.staffId];
};

/** Staff picker options (SPEC §3 staff option), limited to the caller's data scope. */
export const staffOptions = async (db: Db, actor: Actor, linkman: string): Promise<StaffOption[]> =>
  repo.staffOptions(db, actor.tenantId, linkman.trim(), await scopeStaffIds(db, actor));

export const countCompanyStaff = (db: Db, tenantId: number) => repo.countTenantStaff(db, tenantId);
export const insertStaffRow = repo.insertStaff;

/**
 * An active staff member as the actor of work done for him without a session (a call task dials
 * for him, makes a customer he owns); undefined when he cannot act (disabled, deleted, no role).
 */
export const staffActor = async (db: DbOrTx, tenantId: number, staffId: number): Promise<Actor | undefined> => {
  const s = await repo.findStaff(db, tenantId, staffId);
  if (s?.actionState !== 0 || s.roleId === null) return undefined;
  const role = await requireRole(db as Db, tenantId, s.roleId).catch(onlyRefusal(undefined));
  if (!role) return undefined;
  return {
    sessionId: 0,
    staffId: s.id,
    tenantId: s.tenantId,
    departmentId: s.departmentId,
    roleId: s.roleId,
    dataScope: role.dataScope,
    isSystemRole: role.isSystem,
    menuIds: new Set(role.menuIds),
    actions: new Set(role.actions),
    name: s.name,
  };
};
