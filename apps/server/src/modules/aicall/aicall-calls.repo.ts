import { and, desc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { aiCalls, callRecords } from '../../db/schema';

// SQL of the AI calls (issue 16): rows, and the lists with their call record.

export type AiCallInsert = typeof aiCalls.$inferInsert;
export type AiCallRow = typeof aiCalls.$inferSelect;

export const insertAiCall = async (db: DbOrTx, row: AiCallInsert) => {
  const [r] = await db
    .insert(aiCalls)
    .values(row)
    .onConflictDoUpdate({ target: aiCalls.callUuid, set: { ...row, id: undefined } })
    .returning({ id: aiCalls.id });
  return r.id;
};

export type AiCallFilter = {
  tenantId: number;
  /** undefined: either (one call by id) */
  source?: 1 | 2;
  /** null: company-wide; else the rows whose staff_ids meet these */
  scope: number[] | null;
  taskId?: number;
  grade?: string;
  /** AI_CALL_END */
  end?: string;
  /** exact number, or digits contained */
  number?: { exact: string } | { digits: string };
  from?: Date;
  to?: Date;
  id?: number;
  callUuid?: string;
};

const whereOf = (f: AiCallFilter): SQL | undefined => {
  const conds: (SQL | undefined)[] = [eq(aiCalls.tenantId, f.tenantId)];
  if (f.source !== undefined) conds.push(eq(aiCalls.source, f.source));
  if (f.id !== undefined) conds.push(eq(aiCalls.id, f.id));
  if (f.callUuid !== undefined) conds.push(eq(aiCalls.callUuid, f.callUuid));
  if (f.scope !== null) {
    const ids = f.scope.length ? f.scope : [0];
    conds.push(
      sql`${aiCalls.staffIds} && ARRAY[${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )}]::integer[]`,
    );
  }
  if (f.taskId) conds.push(eq(aiCalls.taskId, f.taskId));
  if (f.grade) conds.push(eq(aiCalls.grade, f.grade));
  if (f.end) conds.push(eq(aiCalls.end, f.end));
  if (f.number && 'exact' in f.number) conds.push(eq(callRecords.calledNumber, f.number.exact));
  if (f.number && 'digits' in f.number) conds.push(sql`position(${f.number.digits} in ${callRecords.calledNumber}) > 0`);
  if (f.from) conds.push(gte(aiCalls.startedAt, f.from));
  if (f.to) conds.push(lte(aiCalls.startedAt, f.to));
  return and(...conds);
};

// The list joins the call record in its one statement (the number is filtered and paged there, an
// allowed exception); the task's, the flow's and the customer's names come from their modules for
// the page (aicall-calls.ts).
const listColumns = {
  call: aiCalls,
  number: callRecords.calledNumber,
  recordFile: callRecords.recordFile,
};

const base = (db: DbOrTx) => db.select(listColumns).from(aiCalls).leftJoin(callRecords, eq(callRecords.uuid, aiCalls.callUuid));

export type AiCallListRow = Awaited<ReturnType<typeof listAiCalls>>[number];

export const listAiCalls = (db: DbOrTx, f: AiCallFilter, limit: number, offset: number) =>
  base(db).where(whereOf(f)).orderBy(desc(aiCalls.startedAt), desc(aiCalls.id)).limit(limit).offset(offset);

export const countAiCalls = async (db: DbOrTx, f: AiCallFilter) => {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(aiCalls)
    .leftJoin(callRecords, eq(callRecords.uuid, aiCalls.callUuid))
    .where(whereOf(f));
  return r.n;
};

export const findAiCall = async (db: DbOrTx, f: AiCallFilter & { id: number }) => (await base(db).where(whereOf(f)))[0];

/** The AI call of a call uuid as the scope sees it (aicall/transcript). */
export const findAiCallByUuid = async (db: DbOrTx, f: AiCallFilter & { callUuid: string }) =>
  (await base(db).where(whereOf(f)))[0];

/** Links an AI call to the customer the CRM step found or made for it (the list and detail name him). */
export const setAiCallCustomer = async (db: DbOrTx, tenantId: number, id: number, customerId: number) => {
  await db
    .update(aiCalls)
    .set({ customerId })
    .where(and(eq(aiCalls.tenantId, tenantId), eq(aiCalls.id, id)));
};
