import { and, eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { callTests } from '../../db/schema';

// 线路测试 (test-call.ts): all the SQL of a company's test calls (one row per company, its latest).

export type CallTest = typeof callTests.$inferSelect;

/** never placed, or released: no test in progress */
const EPOCH = new Date(0);

/** The company's test row, locked for the rest of the transaction (created empty when missing). */
export const lockCallTest = async (tx: Tx, tenantId: number, staffId: number): Promise<CallTest> => {
  await tx.insert(callTests).values({ tenantId, staffId, startedAt: EPOCH }).onConflictDoNothing({ target: callTests.tenantId });
  const rows = await tx.select().from(callTests).where(eq(callTests.tenantId, tenantId)).for('update');
  return rows[0];
};

/** A new test is being placed: its leg is not known yet. */
export const reserveCallTest = async (tx: Tx, tenantId: number, staffId: number, prompt: string, at: Date) => {
  await tx
    .update(callTests)
    .set({ staffId, prompt, startedAt: at, callUuid: '', legId: '', playStartAt: null, playEndAt: null, playResult: '' })
    .where(eq(callTests.tenantId, tenantId));
};

/** The placement failed (refused by the dial policy): the company may test again at once. */
export const releaseCallTest = async (db: DbOrTx, tenantId: number) => {
  await db
    .update(callTests)
    .set({ startedAt: EPOCH })
    .where(and(eq(callTests.tenantId, tenantId), eq(callTests.legId, '')));
};

export const setCallTestLeg = async (db: DbOrTx, tenantId: number, callUuid: string, legId: string) => {
  await db.update(callTests).set({ callUuid, legId }).where(eq(callTests.tenantId, tenantId));
};

export const setCallTestPlay = async (
  db: DbOrTx,
  tenantId: number,
  legId: string,
  patch: { playStartAt?: Date; playEndAt?: Date; playResult?: string },
) => {
  await db
    .update(callTests)
    .set(patch)
    .where(and(eq(callTests.tenantId, tenantId), eq(callTests.legId, legId)));
};

export const findCallTestOfCall = async (db: DbOrTx, tenantId: number, callUuid: string) => {
  const rows = await db.select().from(callTests).where(eq(callTests.tenantId, tenantId)).limit(1);
  return rows[0]?.callUuid === callUuid ? rows[0] : undefined;
};
