import { and, asc, count, desc, eq, gte, ilike, inArray, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import {
  contractAccountLogs,
  contractAccounts,
  contractCounters,
  contractEvents,
  contractRules,
  contractSeals,
  contractSigners,
  contracts,
  contractTemplates,
} from '../../db/schema';

export type ContractRecord = typeof contracts.$inferSelect;
export type SignerRecord = typeof contractSigners.$inferSelect;
export type SealRecord = typeof contractSeals.$inferSelect;
export type TemplateRecord = typeof contractTemplates.$inferSelect;
export type AccountRecord = typeof contractAccounts.$inferSelect;
export type EventRecord = typeof contractEvents.$inferSelect;

// ---------- account and credits ----------

export const findAccount = async (db: DbOrTx, tenantId: number) =>
  (await db.select().from(contractAccounts).where(eq(contractAccounts.tenantId, tenantId)).limit(1))[0];

export const saveAccount = (db: DbOrTx, row: typeof contractAccounts.$inferInsert) =>
  db
    .insert(contractAccounts)
    .values(row)
    .onConflictDoUpdate({ target: contractAccounts.tenantId, set: { ...row, tenantId: undefined } });

/** One credit per archived contract; a second call for the same contract adds nothing (unique index). */
export const insertCreditUse = async (db: DbOrTx, row: typeof contractAccountLogs.$inferInsert) =>
  (await db.insert(contractAccountLogs).values(row).onConflictDoNothing().returning({ id: contractAccountLogs.id })).length;

export const creditsUsed = async (db: DbOrTx, tenantId: number) =>
  Number(
    (
      await db
        .select({ n: sql<number>`coalesce(sum(${contractAccountLogs.credits}), 0)` })
        .from(contractAccountLogs)
        .where(eq(contractAccountLogs.tenantId, tenantId))
    )[0].n,
  );

export const listCreditUses = async (db: DbOrTx, tenantId: number, page: number, limit: number) => {
  const where = eq(contractAccountLogs.tenantId, tenantId);
  const [rows, total] = await Promise.all([
    db
      .select({
        id: contractAccountLogs.id,
        contractId: contractAccountLogs.contractId,
        contractNo: contracts.contractNo,
        credits: contractAccountLogs.credits,
        kind: contractAccountLogs.kind,
        staffId: contractAccountLogs.staffId,
        createdAt: contractAccountLogs.createdAt,
      })
      .from(contractAccountLogs)
      .leftJoin(contracts, and(eq(contracts.id, contractAccountLogs.contractId), eq(contracts.tenantId, tenantId)))
      .where(where)
      .orderBy(desc(contractAccountLogs.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(contractAccountLogs).where(where),
  ]);
  return { rows, total: Number(total[0].n) };
};

// ---------- numbering ----------

export const findRule = async (db: DbOrTx, tenantId: number) =>
  (await db.select().from(contractRules).where(eq(contractRules.tenantId, tenantId)).limit(1))[0];

export const saveRule = (db: DbOrTx, row: typeof contractRules.$inferInsert) =>
  db
    .insert(contractRules)
    .values(row)
    .onConflictDoUpdate({
      target: contractRules.tenantId,
      set: { prefix: row.prefix, dateFormat: row.dateFormat, seqDigits: row.seqDigits, updatedAt: row.updatedAt },
    });

/** The next sequence of a period: one atomic upsert, so racing creates never get the same value. */
export const nextSequence = async (tx: DbOrTx, tenantId: number, period: string) =>
  (
    await tx
      .insert(contractCounters)
      .values({ tenantId, period, value: 1 })
      .onConflictDoUpdate({
        target: [contractCounters.tenantId, contractCounters.period],
        set: { value: sql`${contractCounters.value} + 1` },
      })
      .returning({ value: contractCounters.value })
  )[0].value;

export const peekSequence = async (db: DbOrTx, tenantId: number, period: string) =>
  (
    await db
      .select({ value: contractCounters.value })
      .from(contractCounters)
      .where(and(eq(contractCounters.tenantId, tenantId), eq(contractCounters.period, period)))
  )[0]?.value ?? 0;

// ---------- seals ----------

export const listSeals = (db: DbOrTx, tenantId: number, withDestroyed: boolean) =>
  db
    .select()
    .from(contractSeals)
    .where(and(eq(contractSeals.tenantId, tenantId), withDestroyed ? undefined : eq(contractSeals.status, 0)))
    .orderBy(asc(contractSeals.id));

export const findSeal = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select()
      .from(contractSeals)
      .where(and(eq(contractSeals.tenantId, tenantId), eq(contractSeals.id, id)))
      .limit(1)
  )[0];

export const insertSeal = async (db: DbOrTx, row: typeof contractSeals.$inferInsert) =>
  (await db.insert(contractSeals).values(row).returning({ id: contractSeals.id }))[0].id;

export const updateSeal = (db: DbOrTx, tenantId: number, id: number, set: Partial<typeof contractSeals.$inferInsert>) =>
  db
    .update(contractSeals)
    .set(set)
    .where(and(eq(contractSeals.tenantId, tenantId), eq(contractSeals.id, id)));

/** Seals whose uploaded image is this file (file access). */
export const sealsWithFile = (db: DbOrTx, tenantId: number, fileId: number) =>
  db
    .select({ id: contractSeals.id })
    .from(contractSeals)
    .where(and(eq(contractSeals.tenantId, tenantId), eq(contractSeals.fileId, fileId)));

// ---------- templates ----------

export const listTemplates = (db: DbOrTx, tenantId: number, isAll: boolean) =>
  db
    .select()
    .from(contractTemplates)
    .where(and(eq(contractTemplates.tenantId, tenantId), isAll ? undefined : eq(contractTemplates.status, 0)))
    .orderBy(desc(contractTemplates.id));

export const findTemplate = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select()
      .from(contractTemplates)
      .where(and(eq(contractTemplates.tenantId, tenantId), eq(contractTemplates.id, id)))
      .limit(1)
  )[0];

export const templateNameTaken = async (db: DbOrTx, tenantId: number, name: string, exceptId: number) =>
  (
    await db
      .select({ id: contractTemplates.id })
      .from(contractTemplates)
      .where(and(eq(contractTemplates.tenantId, tenantId), eq(contractTemplates.name, name)))
  ).some((r) => r.id !== exceptId);

export const insertTemplate = async (db: DbOrTx, row: typeof contractTemplates.$inferInsert) =>
  (await db.insert(contractTemplates).values(row).returning({ id: contractTemplates.id }))[0].id;

export const updateTemplate = (db: DbOrTx, tenantId: number, id: number, set: Partial<typeof contractTemplates.$inferInsert>) =>
  db
    .update(contractTemplates)
    .set(set)
    .where(and(eq(contractTemplates.tenantId, tenantId), eq(contractTemplates.id, id)));

export const templatesWithFile = (db: DbOrTx, tenantId: number, fileId: number) =>
  db
    .select({ id: contractTemplates.id })
    .from(contractTemplates)
    .where(and(eq(contractTemplates.tenantId, tenantId), eq(contractTemplates.pdfFileId, fileId)));

// ---------- contracts ----------

export const insertContract = async (db: DbOrTx, row: typeof contracts.$inferInsert) =>
  (await db.insert(contracts).values(row).returning({ id: contracts.id }))[0].id;

export const findContract = async (db: DbOrTx, tenantId: number, id: number) =>
  (
    await db
      .select()
      .from(contracts)
      .where(and(eq(contracts.tenantId, tenantId), eq(contracts.id, id)))
      .limit(1)
  )[0];

export const lockContract = async (tx: DbOrTx, tenantId: number, id: number) =>
  (
    await tx
      .select()
      .from(contracts)
      .where(and(eq(contracts.tenantId, tenantId), eq(contracts.id, id)))
      .for('update')
  )[0];

export const updateContract = (tx: DbOrTx, tenantId: number, id: number, set: Partial<typeof contracts.$inferInsert>) =>
  tx
    .update(contracts)
    .set(set)
    .where(and(eq(contracts.tenantId, tenantId), eq(contracts.id, id)));

export type ContractFilter = {
  tenantId: number;
  /** owners the caller may see; null = all */
  ownerIds: number[] | null;
  status?: number;
  customerId?: number;
  orderId?: number;
  ownerId?: number;
  number?: string;
  customerName?: string;
  from?: Date | null;
  to?: Date | null;
};

const whereOf = (f: ContractFilter) => {
  const parts: (SQL | undefined)[] = [
    eq(contracts.tenantId, f.tenantId),
    // the original of a discarded contract is reached through its 已作废 version
    isNull(contracts.discardedById),
    f.ownerIds === null ? undefined : f.ownerIds.length ? inArray(contracts.ownerId, f.ownerIds) : sql`false`,
    f.status === undefined ? undefined : eq(contracts.status, f.status),
    f.customerId ? eq(contracts.customerId, f.customerId) : undefined,
    f.orderId ? eq(contracts.orderId, f.orderId) : undefined,
    f.ownerId ? eq(contracts.ownerId, f.ownerId) : undefined,
    f.number ? ilike(contracts.contractNo, `%${f.number.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
    f.customerName
      ? ilike(sql`${contracts.fields}->>'customer_name'`, `%${f.customerName.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
      : undefined,
    f.from ? gte(contracts.createdAt, f.from) : undefined,
    f.to ? lt(contracts.createdAt, f.to) : undefined,
  ];
  return and(...parts);
};

export const listContracts = async (db: DbOrTx, f: ContractFilter, page: number, limit: number) => {
  const where = whereOf(f);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(contracts)
      .where(where)
      .orderBy(desc(contracts.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(contracts).where(where),
  ]);
  return { rows, total: Number(total[0].n) };
};

export const countByStatus = async (db: DbOrTx, f: ContractFilter) =>
  (await db.select({ status: contracts.status, n: count() }).from(contracts).where(whereOf(f)).groupBy(contracts.status)).map(
    (r) => ({ status: r.status, n: Number(r.n) }),
  );

export const contractsByIds = (db: DbOrTx, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([] as ContractRecord[])
    : db
        .select()
        .from(contracts)
        .where(and(eq(contracts.tenantId, tenantId), inArray(contracts.id, ids)))
        .orderBy(asc(contracts.id));

export const findArchivedBySha = async (db: DbOrTx, sha256: string) =>
  (
    await db
      .select()
      .from(contracts)
      .where(and(eq(contracts.archivedSha256, sha256), sql`${contracts.archivedSha256} <> ''`))
      .limit(1)
  )[0];

/** Contracts holding a stored file in any of their versions (file access). */
export const contractsWithFile = (db: DbOrTx, tenantId: number, fileId: number) =>
  db
    .select()
    .from(contracts)
    .where(
      and(
        eq(contracts.tenantId, tenantId),
        sql`${fileId} in (${contracts.draftFileId}, ${contracts.signedFileId}, ${contracts.archivedFileId}, ${contracts.dismissedFileId})`,
      ),
    );

// ---------- signers ----------

export const insertSigners = async (tx: DbOrTx, rows: (typeof contractSigners.$inferInsert)[]) => {
  if (rows.length) await tx.insert(contractSigners).values(rows);
};

export const signersOf = (db: DbOrTx, tenantId: number, contractId: number) =>
  db
    .select()
    .from(contractSigners)
    .where(and(eq(contractSigners.tenantId, tenantId), eq(contractSigners.contractId, contractId)))
    .orderBy(asc(contractSigners.party));

/** The signer a link token belongs to (by its hash; the token names the company). */
export const signerByTokenHash = async (db: DbOrTx, tokenHash: string) =>
  (await db.select().from(contractSigners).where(eq(contractSigners.tokenHash, tokenHash)).limit(1))[0];

export const lockSigner = async (tx: DbOrTx, tenantId: number, id: number) =>
  (
    await tx
      .select()
      .from(contractSigners)
      .where(and(eq(contractSigners.tenantId, tenantId), eq(contractSigners.id, id)))
      .for('update')
  )[0];

export const updateSigner = (tx: DbOrTx, tenantId: number, id: number, set: Partial<typeof contractSigners.$inferInsert>) =>
  tx
    .update(contractSigners)
    .set(set)
    .where(and(eq(contractSigners.tenantId, tenantId), eq(contractSigners.id, id)));

export const signersWithFile = (db: DbOrTx, tenantId: number, fileId: number) =>
  db
    .select({ contractId: contractSigners.contractId })
    .from(contractSigners)
    .where(and(eq(contractSigners.tenantId, tenantId), eq(contractSigners.signatureFileId, fileId)));

// ---------- audit ----------

export const lastEvent = async (tx: DbOrTx, tenantId: number, contractId: number) =>
  (
    await tx
      .select()
      .from(contractEvents)
      .where(and(eq(contractEvents.tenantId, tenantId), eq(contractEvents.contractId, contractId)))
      .orderBy(desc(contractEvents.seq))
      .limit(1)
  )[0];

export const insertEvent = (tx: DbOrTx, row: typeof contractEvents.$inferInsert) => tx.insert(contractEvents).values(row);

export const eventsOf = (db: DbOrTx, tenantId: number, contractId: number) =>
  db
    .select()
    .from(contractEvents)
    .where(and(eq(contractEvents.tenantId, tenantId), eq(contractEvents.contractId, contractId)))
    .orderBy(asc(contractEvents.seq));

export const numberTaken = async (db: DbOrTx, tenantId: number, contractNo: string) =>
  (
    await db
      .select({ id: contracts.id })
      .from(contracts)
      .where(and(eq(contracts.tenantId, tenantId), eq(contracts.contractNo, contractNo)))
      .limit(1)
  ).length > 0;

/** A create whose PDF could not be made leaves nothing behind (its number is not given again). */
export const deleteNewContract = async (tx: DbOrTx, tenantId: number, id: number) => {
  await tx.delete(contractSigners).where(and(eq(contractSigners.tenantId, tenantId), eq(contractSigners.contractId, id)));
  await tx.delete(contractEvents).where(and(eq(contractEvents.tenantId, tenantId), eq(contractEvents.contractId, id)));
  await tx.delete(contracts).where(and(eq(contracts.tenantId, tenantId), eq(contracts.id, id)));
};
