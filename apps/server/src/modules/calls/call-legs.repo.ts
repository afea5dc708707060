import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { callLegs, callRecords } from '../../db/schema';
import { CALL_STATE } from './calls.repo';

// The legs of calls (issue 12): all the SQL of call control.

export type CallLeg = typeof callLegs.$inferSelect;
export type CallLegInsert = typeof callLegs.$inferInsert;

export const insertLeg = async (db: DbOrTx, row: CallLegInsert) => {
  await db.insert(callLegs).values(row);
};

export const findLeg = async (db: DbOrTx, id: string) => {
  const rows = await db.select().from(callLegs).where(eq(callLegs.id, id)).limit(1);
  return rows[0];
};

export const legsOfCall = (db: DbOrTx, callUuid: string) =>
  db.select().from(callLegs).where(eq(callLegs.callUuid, callUuid)).orderBy(asc(callLegs.createdAt), asc(callLegs.id));

/** One company's agent legs of a call held by this staff member (what a route may ask about). */
export const agentLegsOfStaff = (db: DbOrTx, tenantId: number, callUuid: string, staffId: number) =>
  db
    .select({ id: callLegs.id })
    .from(callLegs)
    .where(
      and(
        eq(callLegs.tenantId, tenantId),
        eq(callLegs.callUuid, callUuid),
        eq(callLegs.role, 'agent'),
        eq(callLegs.staffId, staffId),
      ),
    )
    .limit(1);

/** Moves a leg forward to `state` only from an earlier state (a late or repeated event changes nothing). */
export const advanceLeg = async (db: DbOrTx, tenantId: number, id: string, state: number, patch: Partial<CallLegInsert>) => {
  const rows = await db
    .update(callLegs)
    .set({ ...patch, state })
    .where(and(eq(callLegs.tenantId, tenantId), eq(callLegs.id, id), lt(callLegs.state, state)))
    .returning();
  return rows[0];
};

/** A key pressed on a leg in progress. */
export const appendDigit = async (db: DbOrTx, tenantId: number, id: string, digit: string) => {
  const rows = await db
    .update(callLegs)
    .set({ digits: sql`${callLegs.digits} || ${digit}` })
    .where(and(eq(callLegs.tenantId, tenantId), eq(callLegs.id, id), lt(callLegs.state, CALL_STATE.ended)))
    .returning();
  return rows[0];
};

export const setBridged = async (db: DbOrTx, tenantId: number, id: string, otherId: string) => {
  const rows = await db
    .update(callLegs)
    .set({ bridgedWith: otherId })
    .where(and(eq(callLegs.tenantId, tenantId), eq(callLegs.id, id), lt(callLegs.state, CALL_STATE.ended)))
    .returning();
  return rows[0];
};

export const setLineHandle = async (db: DbOrTx, tenantId: number, id: string, lineHandle: string) => {
  await db
    .update(callLegs)
    .set({ lineHandle })
    .where(and(eq(callLegs.tenantId, tenantId), eq(callLegs.id, id)));
};

/** Legs an instance held that are not ended (a restarted instance ends them). */
export const activeLegsOwnedBy = (db: DbOrTx, instanceId: string) =>
  db
    .select()
    .from(callLegs)
    .where(and(eq(callLegs.ownerInstance, instanceId), lt(callLegs.state, CALL_STATE.ended)))
    .limit(1000);

/** An answered server call gets its agent (the bridged agent leg answered), once. */
export const attachAgent = async (
  db: DbOrTx,
  tenantId: number,
  uuid: string,
  agent: { staffId: number; departmentId: number | null; sipId: number | null; sipUser: string },
) => {
  const rows = await db
    .update(callRecords)
    .set(agent)
    .where(
      and(
        eq(callRecords.tenantId, tenantId),
        eq(callRecords.uuid, uuid),
        isNull(callRecords.staffId),
        lt(callRecords.state, CALL_STATE.ended),
      ),
    )
    .returning();
  return rows[0];
};
