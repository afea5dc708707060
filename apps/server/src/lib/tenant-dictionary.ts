/**
 * An "ordered tenant dictionary": a company's own named entries in sort order, each enabled
 * (actionState 0) or not — stages (/set/node) and discard reasons (/set/discard) are two of them.
 * The table access and the name/existence rules live here once; each owner adds its own rules
 * (what an entry is called, what blocks a delete, what its API shape is).
 */
import type { ErrorKey } from '@crm/contracts';
import { and, asc, eq, ne, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client';
import { AppError } from './app-error';
import { formatDateTime } from './time';

/** A dictionary table: these columns, whatever else it has. */
export type DictionaryTable = PgTable & {
  id: PgColumn;
  tenantId: PgColumn;
  name: PgColumn;
  sortNum: PgColumn;
  actionState: PgColumn;
  createdAt: PgColumn;
};

/** One entry as stored. */
export type DictionaryEntry = {
  id: number;
  tenantId: number;
  name: string;
  sortNum: number;
  actionState: number;
  createdAt: Date;
};

export type DictionaryValues = { name: string; sortNum: number; actionState: number };

/** The table access of one dictionary; every statement is scoped by the tenant. */
export const dictionaryRepo = (table: DictionaryTable) => {
  const ofTenant = (tenantId: number, actionState?: number): SQL | undefined =>
    actionState === undefined
      ? eq(table.tenantId, tenantId)
      : and(eq(table.tenantId, tenantId), eq(table.actionState, actionState));
  const first = async (db: DbOrTx, where: SQL | undefined) =>
    ((await db.select().from(table).where(where).limit(1)) as DictionaryEntry[])[0];
  return {
    /** Entries in order (sortNum, then id), all or only those in `actionState`. */
    list: async (db: DbOrTx, tenantId: number, actionState?: number) =>
      (await db
        .select()
        .from(table)
        .where(ofTenant(tenantId, actionState))
        .orderBy(asc(table.sortNum), asc(table.id))) as DictionaryEntry[],
    find: (db: DbOrTx, tenantId: number, id: number) => first(db, and(eq(table.tenantId, tenantId), eq(table.id, id))),
    findByName: (db: DbOrTx, tenantId: number, name: string) =>
      first(db, and(eq(table.tenantId, tenantId), eq(table.name, name))),
    nameTaken: async (db: DbOrTx, tenantId: number, name: string, exceptId = 0) => {
      const rows = await db
        .select({ id: table.id })
        .from(table)
        .where(and(eq(table.tenantId, tenantId), eq(table.name, name), ne(table.id, exceptId)))
        .limit(1);
      return rows.length > 0;
    },
    insert: async (db: DbOrTx, row: { tenantId: number; name: string; sortNum: number }) => {
      const [created] = (await db.insert(table).values(row).returning({ id: table.id })) as { id: number }[];
      return created.id;
    },
    update: async (db: DbOrTx, tenantId: number, id: number, values: DictionaryValues) => {
      await db
        .update(table)
        .set(values)
        .where(and(eq(table.tenantId, tenantId), eq(table.id, id)));
    },
    delete: async (db: DbOrTx, tenantId: number, id: number) => {
      await db.delete(table).where(and(eq(table.tenantId, tenantId), eq(table.id, id)));
    },
  };
};

export type DictionaryRepo = ReturnType<typeof dictionaryRepo>;

/**
 * The rules every dictionary shares: a name is unique in the company, an edit or delete names an
 * existing entry (`notFound` is the message of NOT_FOUND, e.g. 阶段不存在).
 */
export const dictionaryRules = (repo: DictionaryRepo, p: { nameTaken: ErrorKey; notFound: string }) => {
  const requireEntry = async (db: DbOrTx, tenantId: number, id: number) => {
    const row = await repo.find(db, tenantId, id);
    if (!row) throw new AppError('NOT_FOUND', p.notFound);
    return row;
  };
  return {
    requireEntry,
    create: async (db: DbOrTx, tenantId: number, body: { name: string; sortNum: number }) => {
      if (await repo.nameTaken(db, tenantId, body.name)) throw new AppError(p.nameTaken);
      return repo.insert(db, { tenantId, name: body.name, sortNum: body.sortNum });
    },
    edit: async (db: DbOrTx, tenantId: number, id: number, values: DictionaryValues) => {
      await requireEntry(db, tenantId, id);
      if (await repo.nameTaken(db, tenantId, values.name, id)) throw new AppError(p.nameTaken);
      await repo.update(db, tenantId, id, values);
    },
  };
};

/** An entry's API fields besides its id (the id's name differs per dictionary: cmNid, cmCdid). */
export const dictionaryFields = (r: DictionaryEntry) => ({
  name: r.name,
  sortNum: r.sortNum,
  actionState: r.actionState,
  createTime: formatDateTime(r.createdAt),
});
