import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { departments } from '../../db/schema';

export const listDepartments = (db: DbOrTx, tenantId: number) =>
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
    .orderBy(asc(departments.sortNum), asc(departments.id));

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

/** The department and all departments below it. */
export const subtreeIds = async (db: DbOrTx, tenantId: number, rootId: number): Promise<number[]> => {
  const rows = await queryRows<{ id: number }>(
    db,
    sql`
    with recursive tree as (
      select id from ${departments} where tenant_id = ${tenantId} and id = ${rootId}
      union all
      select d.id from ${departments} d join tree on d.pid = tree.id where d.tenant_id = ${tenantId}
    )
    select id from tree`,
  );
  return rows.map((r) => Number(r.id));
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
};

export const deleteDepartment = async (db: DbOrTx, tenantId: number, id: number) => {
  await db.delete(departments).where(and(eq(departments.tenantId, tenantId), eq(departments.id, id)));
};

/** Names of the company's departments by id (unknown ids are left out). */
export const departmentNames = async (db: DbOrTx, tenantId: number, ids: number[]) => {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db
    .select({ id: departments.id, name: departments.name })
    .from(departments)
    .where(and(eq(departments.tenantId, tenantId), inArray(departments.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
};
