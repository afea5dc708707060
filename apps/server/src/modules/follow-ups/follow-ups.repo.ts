import { and, count, desc, eq, gte, inArray, isNull, lte, notInArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { followRecords } from '../../db/schema';

export type FollowInsert = typeof followRecords.$inferInsert;

export const insertFollow = async (db: DbOrTx, row: FollowInsert) => {
  const [created] = await db.insert(followRecords).values(row).returning({ id: followRecords.id });
  return created.id;
};

export const findFollow = async (db: DbOrTx, tenantId: number, id: number) => {
  const rows = await db
    .select()
    .from(followRecords)
    .where(and(eq(followRecords.tenantId, tenantId), eq(followRecords.id, id), isNull(followRecords.deletedAt)))
    .limit(1);
  return rows[0];
};

export const softDeleteFollow = async (db: DbOrTx, tenantId: number, id: number, at: Date) => {
  await db
    .update(followRecords)
    .set({ deletedAt: at })
    .where(and(eq(followRecords.tenantId, tenantId), eq(followRecords.id, id)));
};

export type FollowFilter = {
  tenantId: number;
  customerId: number;
  /** follow types to include, or to exclude (written follow-ups are "everything else") */
  types?: { in: number[] } | { notIn: number[] };
  from?: Date;
  to?: Date;
};

const whereOf = (f: FollowFilter): SQL | undefined => {
  const conds: (SQL | undefined)[] = [
    eq(followRecords.tenantId, f.tenantId),
    eq(followRecords.customerId, f.customerId),
    isNull(followRecords.deletedAt),
  ];
  if (f.types && 'in' in f.types) conds.push(inArray(followRecords.followType, f.types.in));
  if (f.types && 'notIn' in f.types) conds.push(notInArray(followRecords.followType, f.types.notIn));
  if (f.from) conds.push(gte(followRecords.createdAt, f.from));
  if (f.to) conds.push(lte(followRecords.createdAt, f.to));
  return and(...conds);
};

/** One page of a customer's history, newest first. */
export const listFollows = (db: DbOrTx, f: FollowFilter, limit: number, offset: number) =>
  db
    .select()
    .from(followRecords)
    .where(whereOf(f))
    .orderBy(desc(followRecords.createdAt), desc(followRecords.id))
    .limit(limit)
    .offset(offset);

export const countFollows = async (db: DbOrTx, f: FollowFilter) => {
  const rows = await db.select({ n: count() }).from(followRecords).where(whereOf(f));
  return rows[0]?.n ?? 0;
};

/** The 丢弃/回收 history of customers that went into a pool: one row each, in one statement. */
export const insertPooledFollows = async (
  db: DbOrTx,
  p: {
    tenantId: number;
    moved: [number, number | null][];
    staffId: number | null;
    followType: number;
    sourceType: number;
    remark: string;
    at: Date;
  },
) => {
  if (p.moved.length === 0) return;
  const ids = `{${p.moved.map((m) => m[0]).join(',')}}`;
  const stageIds = `{${p.moved.map((m) => (m[1] === null ? 'NULL' : m[1])).join(',')}}`;
  await db.execute(
    sql`insert into ${followRecords} (tenant_id, customer_id, staff_id, follow_type, source_type, stage_id, remark, created_at)
        select ${p.tenantId}, m.id, ${p.staffId}, ${p.followType}, ${p.sourceType}, m.stage_id, ${p.remark}, ${p.at}
        from unnest(${ids}::int[], ${stageIds}::int[]) as m(id, stage_id)`,
  );
};

/**
 * The history of customers that changed owner (customers.moved): one record per customer, the
 * text of its group, in one set-based insert however many customers moved.
 */
export const insertMovedFollows = async (
  db: DbOrTx,
  p: {
    tenantId: number;
    groups: { reason: string; moved: [number, number | null][] }[];
    staffId: number;
    followType: number;
    sourceType: number;
    at: Date;
  },
) => {
  const groups = p.groups.filter((g) => g.moved.length > 0);
  if (groups.length === 0) return;
  const all = groups.flatMap((g, i) => g.moved.map(([id, stageId]) => [id, stageId, i + 1] as const));
  const ids = `{${all.map((m) => m[0]).join(',')}}`;
  const stageIds = `{${all.map((m) => (m[1] === null ? 'NULL' : m[1])).join(',')}}`;
  const texts = `{${all.map((m) => m[2]).join(',')}}`;
  const reasons = sql`array[${sql.join(
    groups.map((g) => sql`${g.reason}`),
    sql`, `,
  )}]::text[]`;
  await db.execute(
    sql`insert into ${followRecords} (tenant_id, customer_id, staff_id, follow_type, source_type, stage_id, remark, created_at)
        select ${p.tenantId}, m.id, ${p.staffId}, ${p.followType}, ${p.sourceType}, m.stage_id, (${reasons})[m.g], ${p.at}
        from unnest(${ids}::int[], ${stageIds}::int[], ${texts}::int[]) with ordinality as m(id, stage_id, g, n)
        order by m.n`,
  );
};
