import type { DepartmentBody, DepartmentEditBody, DepartmentNode } from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { formatDateTime } from '../../lib/time';
import { departmentUsage } from './department-usage';
import * as repo from './departments.repo';

/** The company's department tree, ordered by sortNum (/account/divisional). */
export const departmentTree = async (db: Db, actor: Actor): Promise<DepartmentNode[]> => {
  const [rows, staffNums] = await Promise.all([
    repo.listDepartments(db, actor.tenantId),
    departmentUsage.get().countsBy(db, actor.tenantId),
  ]);
  const nodes = new Map<number, DepartmentNode>();
  for (const r of rows) {
    nodes.set(r.id, {
      cmDid: r.id,
      pid: r.pid,
      name: r.name,
      sortNum: r.sortNum,
      staffNum: staffNums.get(r.id) ?? 0,
      createTime: formatDateTime(r.createdAt),
      children: [],
    });
  }
  const roots: DepartmentNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.pid ? nodes.get(node.pid) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
};

const checkParent = async (db: Db, actor: Actor, pid: number) => {
  if (pid !== 0 && !(await repo.findDepartment(db, actor.tenantId, pid))) throw new AppError('NOT_FOUND', '上级部门不存在');
};

export const createDepartment = async (db: Db, actor: Actor, body: DepartmentBody): Promise<number> => {
  await checkParent(db, actor, body.pid);
  if (await repo.siblingNameTaken(db, actor.tenantId, body.pid, body.name)) throw new AppError('DEPARTMENT_NAME_TAKEN');
  return repo.insertDepartment(db, { tenantId: actor.tenantId, ...body });
};

export const editDepartment = async (db: Db, actor: Actor, body: DepartmentEditBody): Promise<void> => {
  if (!(await repo.findDepartment(db, actor.tenantId, body.cmDid))) throw new AppError('NOT_FOUND');
  await checkParent(db, actor, body.pid);
  // A department cannot move under itself or one of its own descendants.
  if (body.pid !== 0 && (await repo.subtreeIds(db, actor.tenantId, body.cmDid)).includes(body.pid)) {
    throw new AppError('DEPARTMENT_PARENT_INVALID');
  }
  if (await repo.siblingNameTaken(db, actor.tenantId, body.pid, body.name, body.cmDid))
    throw new AppError('DEPARTMENT_NAME_TAKEN');
  await repo.updateDepartment(db, actor.tenantId, body.cmDid, { pid: body.pid, name: body.name, sortNum: body.sortNum });
};

export const deleteDepartment = async (db: Db, actor: Actor, id: number): Promise<void> => {
  if (!(await repo.findDepartment(db, actor.tenantId, id))) throw new AppError('NOT_FOUND');
  if ((await repo.countChildren(db, actor.tenantId, id)) > 0) throw new AppError('DEPARTMENT_HAS_CHILDREN');
  if ((await departmentUsage.get().countIn(db, actor.tenantId, id)) > 0) throw new AppError('DEPARTMENT_HAS_STAFF');
  await repo.deleteDepartment(db, actor.tenantId, id);
};

/** How many departments the company has (the workbench). */
export const countDepartments = async (db: Db, tenantId: number) => (await repo.listDepartments(db, tenantId)).length;

/** Department ids below (and including) a department, for data scope 3. */
export const departmentSubtree = (db: Db, tenantId: number, rootId: number) => repo.subtreeIds(db, tenantId, rootId);

export const requireDepartment = async (db: Db, tenantId: number, id: number) => {
  const row = await repo.findDepartment(db, tenantId, id);
  if (!row) throw new AppError('NOT_FOUND', '所选部门不存在');
  return row;
};

/** Names of the company's departments by id (unknown ids are left out): pools, the session's user info. */
export const departmentNames = (db: DbOrTx, tenantId: number, ids: number[]) => repo.departmentNames(db, tenantId, ids);
