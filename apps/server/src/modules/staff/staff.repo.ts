import { and, asc, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { staff } from '../../db/schema';
import { namesCache, sessionActorsVersion } from '../../lib/settings-cache';

export type StaffFilter = {
  tenantId: number;
  name?: string;
  departmentId?: number;
  roleId?: number;
  actionState?: number;
  merchantType?: number;
};

const whereOf = (f: StaffFilter): SQL => {
  const conds: SQL[] = [eq(staff.tenantId, f.tenantId), eq(staff.isDeleted, false)];
  if (f.name) {
    const like = `%${f.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const match = or(
      ilike(staff.name, like),
      ilike(staff.username, like),
      ilike(staff.phone, like),
      ilike(staff.workNumber, like),
    );
    if (match) conds.push(match);
  }
  if (f.departmentId !== undefined) conds.push(eq(staff.departmentId, f.departmentId));
  if (f.roleId !== undefined) conds.push(eq(staff.roleId, f.roleId));
  if (f.actionState !== undefined) conds.push(eq(staff.actionState, f.actionState));
  if (f.merchantType !== undefined) conds.push(eq(staff.merchantType, f.merchantType));
  return and(...conds) as SQL;
};

export const listStaff = async (db: DbOrTx, f: StaffFilter, page: number, limit: number) => {
  const where = whereOf(f);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(staff)
      .where(where)
      .orderBy(desc(staff.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: sql<number>`count(*)::int` }).from(staff).where(where),
  ]);
  return { rows, count: total[0]?.n ?? 0 };
};

export const findStaff = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select()
    .from(staff)
    .where(and(eq(staff.tenantId, tenantId), eq(staff.id, id), eq(staff.isDeleted, false)))
    .limit(1);
  return rows[0];
};

export const usernameTaken = async (db: DbOrTx, username: string) => {
  const rows = await db.select({ id: staff.id }).from(staff).where(sql`lower(${staff.username}) = lower(${username})`).limit(1);
  return rows.length > 0;
};

export const phoneTaken = async (db: DbOrTx, phone: string, exceptId = 0) => {
  const rows = await db
    .select({ id: staff.id })
    .from(staff)
    .where(and(eq(staff.phone, phone), eq(staff.isDeleted, false), ne(staff.id, exceptId)))
    .limit(1);
  return rows.length > 0;
};

export type StaffValues = {
  name: string;
  phone: string;
  workNumber: string;
  sex: number;
  email: string;
  departmentId: number | null;
  roleId: number;
  merchantType: number;
  actionState: number;
  expireAt: Date | null;
};

/**
 * Every staff member's name in a company by id (deleted ones too: old records still name who did
 * them), kept by the settings cache (issue 25: the call, order and follow-up lists name their staff on
 * every page); insertStaff and a change of name drop it.
 */
const namesOf = namesCache('staff-names', (db: DbOrTx, tenantId: number) =>
  db.select({ id: staff.id, name: staff.name }).from(staff).where(eq(staff.tenantId, tenantId)),
);

/** The names of staff of the tenant by id (unknown ids are left out). */
export const staffNames = namesOf.names;

export const insertStaff = async (
  db: DbOrTx,
  row: StaffValues & { tenantId: number; username: string; passwordHash: string; isOwner?: boolean },
) => {
  const [created] = await db.insert(staff).values(row).returning({ id: staff.id });
  namesOf.invalidate(row.tenantId);
  return created.id;
};

/** What a session's holder is not judged by (auth hook): a write of only these keeps the sessions kept. */
const NOT_IN_SESSION = new Set(['lastLoginIp', 'lastLoginAt', 'passwordHash', 'avatarFileId']);

export const updateStaff = async (
  db: DbOrTx,
  tenantId: number,
  id: number,
  values: Partial<StaffValues> & {
    passwordHash?: string;
    isDeleted?: boolean;
    avatarFileId?: number | null;
    lastLoginIp?: string;
    lastLoginAt?: Date;
  },
) => {
  await db
    .update(staff)
    .set(values)
    .where(and(eq(staff.tenantId, tenantId), eq(staff.id, id)));
  if (values.name !== undefined) namesOf.invalidate(tenantId);
  if (Object.keys(values).some((k) => !NOT_IN_SESSION.has(k))) sessionActorsVersion.invalidate(tenantId);
};

export const staffOptions = (db: DbOrTx, tenantId: number, linkman: string, ids: number[] | null) => {
  const conds: SQL[] = [eq(staff.tenantId, tenantId), eq(staff.isDeleted, false)];
  if (linkman) conds.push(ilike(staff.name, `%${linkman.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (ids) conds.push(inArray(staff.id, ids));
  return db
    .select({ staff_id: staff.id, linkman: staff.name, cmDid: staff.departmentId })
    .from(staff)
    .where(and(...conds))
    .orderBy(asc(staff.id))
    .limit(100);
};

export const staffIdsInDepartments = async (db: DbOrTx, tenantId: number, departmentIds: number[]) => {
  if (departmentIds.length === 0) return [];
  const rows = await db
    .select({ id: staff.id })
    .from(staff)
    .where(and(eq(staff.tenantId, tenantId), inArray(staff.departmentId, departmentIds)));
  return rows.map((r) => r.id);
};

export const countTenantStaff = async (db: DbOrTx, tenantId: number) => {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staff)
    .where(and(eq(staff.tenantId, tenantId), eq(staff.isDeleted, false)));
  return rows[0]?.n ?? 0;
};

/** Live (not deleted) staff per department or per role of the company. */
export const countLiveStaffBy = async (db: DbOrTx, tenantId: number, by: 'departmentId' | 'roleId') => {
  const column = by === 'departmentId' ? staff.departmentId : staff.roleId;
  const rows = await db
    .select({ id: column, n: sql<number>`count(*)::int` })
    .from(staff)
    .where(and(eq(staff.tenantId, tenantId), eq(staff.isDeleted, false)))
    .groupBy(column);
  return new Map(rows.filter((r) => r.id !== null).map((r) => [Number(r.id), Number(r.n)]));
};

/** Live staff in one department or with one role. */
export const countLiveStaffIn = async (db: DbOrTx, tenantId: number, by: 'departmentId' | 'roleId', id: number) => {
  const column = by === 'departmentId' ? staff.departmentId : staff.roleId;
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staff)
    .where(and(eq(staff.tenantId, tenantId), eq(column, id), eq(staff.isDeleted, false)));
  return rows[0]?.n ?? 0;
};

/** The live account a login name (account name, any case, or phone) names. */
export const findLoginAccount = async (db: DbOrTx, username: string) => {
  const rows = await db
    .select({
      id: staff.id,
      tenantId: staff.tenantId,
      passwordHash: staff.passwordHash,
      actionState: staff.actionState,
      expireAt: staff.expireAt,
    })
    .from(staff)
    .where(and(eq(staff.isDeleted, false), or(sql`lower(${staff.username}) = lower(${username})`, eq(staff.phone, username))))
    .limit(1);
  return rows[0];
};

/** A staff row by id alone (the session's own staff member, deleted or not). */
export const findStaffById = async (db: DbOrTx, id: number) => {
  const rows = await db.select().from(staff).where(eq(staff.id, id)).limit(1);
  return rows[0];
};
