import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { departments } from '../../db/schema';
import { sessionActorsVersion, settingsCache } from '../../lib/settings-cache';

/**
 * The company's departments in tree order, kept by the settings cache (issue 25: department names are
 * read by the call list, the workbench and every department-scoped list); each write below drops it.
 */
const departmentsOf = settingsCache('departments', async (db: DbOrTx, tenantId: number) =>
  db
    .select({
      id: departments.id,
      pid: departments.pid,
      name: departments.name,
      sortNum: departments.sortNum,
      createdAt: departments.createdAt,
    })
    .from(departments)
    .where(eq(departments.tenantId, tenantId))
    .orderBy(asc(departments.sortNum), asc(departments.id)),
);

export const listDepartments = departmentsOf.get;

export const findDepartment = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select()
    .from(departments)
    .where(and(eq(departments.tenantId, tenantId), eq(departments.id, id)))
    .limit(1);
  return rows[0];
};

export const siblingNameTaken = async (db: DbOrTx, tenantId: number, pid: number, name: string, exceptId = 0) => {
  const rows = await db
    .select({ id: departments.id })
    .from(departments)
    .where(
      and(eq(departments.tenantId, tenantId), eq(departments.pid, pid), eq(departments.name, name), ne(departments.id, exceptId)),
    )
    .limit(1);
  return rows.length > 0;
};

/** The department and all departments below it (none when it does not exist). */
export const subtreeIds = async (db: DbOrTx, tenantId: number, rootId: number): Promise<number[]> => {
  const rows = await listDepartments(db, tenantId);
  if (!rows.some((d) => d.id === rootId)) return [];
  const children = new Map<number, number[]>();
  for (const d of rows) children.set(d.pid, [...(children.get(d.pid) ?? []), d.id]);
  const ids = [rootId];
  // a cycle cannot be saved (updateDepartment's caller refuses it), but the walk stops at one anyway
  const seen = new Set(ids);
  for (let i = 0; i < ids.length; i++) {
    for (const child of children.get(ids[i]) ?? []) {
      if (!seen.has(child)) {
        seen.add(child);
        ids.push(child);
      }
    }
  }
  return ids;
};

export const countChildren = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(departments)
    .where(and(eq(departments.tenantId, tenantId), eq(departments.pid, id)));
  return rows[0]?.n ?? 0;
};

export const insertDepartment = async (db: DbOrTx, row: { tenantId: number; pid: number; name: string; sortNum: number }) => {
  const [created] = await db.insert(departments).values(row).returning({ id: departments.id });
  departmentsOf.invalidate(row.tenantId);
  return created.id;
};

export const updateDepartment = async (
  db: DbOrTx,
  tenantId: number,
  id: number,
  values: { pid: number; name: string; sortNum: number },
) => {
  await db
    .update(departments)
    .set(values)
    .where(and(eq(departments.tenantId, tenantId), eq(departments.id, id)));
  departmentsOf.invalidate(tenantId);
};

export const deleteDepartment = async (db: DbOrTx, tenantId: number, id: number) => {
  await db.delete(departments).where(and(eq(departments.tenantId, tenantId), eq(departments.id, id)));
  departmentsOf.invalidate(tenantId);
  // its staff's department is set to null (foreign key), and a session knows its holder's department
  sessionActorsVersion.invalidate(tenantId);
};

/** Names of the company's departments by id (unknown ids are left out). */
export const departmentNames = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  if (ids.length === 0) return new Map<number, string>();
  const wanted = new Set(ids);
  const rows = await listDepartments(db, tenantId);
  return new Map(rows.filter((r) => wanted.has(r.id)).map((r) => [r.id, r.name]));
};
