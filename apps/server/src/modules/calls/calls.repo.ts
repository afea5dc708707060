import { CALL_TYPE } from '@crm/contracts';
import { and, asc, count, desc, eq, gt, gte, inArray, isNull, like, lt, lte, type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';
import { callRecords, callSettings, customers } from '../../db/schema';

export type CallRecord = typeof callRecords.$inferSelect;
export type CallInsert = typeof callRecords.$inferInsert;

/** state column: 0 created, 1 ringing, 2 answered, 3 ended. */
export const CALL_STATE = { created: 0, ringing: 1, answered: 2, ended: 3 } as const;

/** origin column: 0 placed by an agent, 1 placed or answered by the server (call control, issue 12). */
export const ORIGIN_SERVER = 1;

/** channel column: 1 extension (softphone / sim line), 2 bound device (merchantType 2). */
export const CHANNEL = { sip: 1, device: 2 } as const;

export const insertCall = async (db: DbOrTx, row: CallInsert) => {
  await db.insert(callRecords).values(row);
};

export const findCall = async (db: DbOrTx, uuid: string) => {
  const rows = await db.select().from(callRecords).where(eq(callRecords.uuid, uuid)).limit(1);
  return rows[0];
};

export const findTenantCall = async (db: DbOrTx, tenantId: number, uuid: string) => {
  const rows = await db
    .select()
    .from(callRecords)
    .where(and(eq(callRecords.tenantId, tenantId), eq(callRecords.uuid, uuid)))
    .limit(1);
  return rows[0];
};

/** sip line: Kamailio's names of a call in progress (JSON of SipDialog). */
export const setSipDialog = async (db: DbOrTx, tenantId: number, uuid: string, sipDialog: string) => {
  await db
    .update(callRecords)
    .set({ sipDialog })
    .where(and(eq(callRecords.tenantId, tenantId), eq(callRecords.uuid, uuid), lt(callRecords.state, CALL_STATE.ended)));
};

/** The staff's calls still in progress, oldest first. */
export const activeCallsOf = (db: DbOrTx, staffId: number) =>
  db
    .select()
    .from(callRecords)
    .where(and(eq(callRecords.staffId, staffId), lt(callRecords.state, CALL_STATE.ended)))
    .orderBy(callRecords.startAt);

/**
 * Moves a call forward to `state` only from an earlier state, so a late or repeated event
 * changes nothing; returns the updated row when the move happened.
 */
export const advanceCall = async (db: DbOrTx, tenantId: number, uuid: string, state: number, patch: Partial<CallInsert>) => {
  const rows = await db
    .update(callRecords)
    .set({ ...patch, state })
    .where(and(eq(callRecords.tenantId, tenantId), eq(callRecords.uuid, uuid), lt(callRecords.state, state)))
    .returning();
  return rows[0];
};

/** Calls in progress that started before `before` (the sweep: set-up timeout, forgotten calls). */
export const activeCallsStartedBefore = (db: DbOrTx, before: Date, unansweredOnly: boolean) =>
  db
    .select()
    .from(callRecords)
    .where(and(lt(callRecords.state, unansweredOnly ? CALL_STATE.answered : CALL_STATE.ended), lt(callRecords.startAt, before)))
    .limit(500);

export type CallFilter = {
  tenantId: number;
  /** staff ids of the data scope, null = all */
  scope: number[] | null;
  /** one call by its id */
  uuid?: string;
  departmentId?: number;
  staffId?: number;
  sipUser?: string;
  caller?: string;
  number?: string;
  /** numbers match whole (the caller may not see every number: a part would recover masked ones) */
  isNumberExact?: boolean;
  minBillsec?: number;
  maxBillsec?: number;
  callType?: number;
  hangupSide?: number;
  from?: Date;
  to?: Date;
  taskId?: number;
  isConnected?: boolean;
};

const likeOf = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const whereOf = (f: CallFilter): SQL | undefined => {
  const c: (SQL | undefined)[] = [eq(callRecords.tenantId, f.tenantId)];
  if (f.scope !== null) c.push(f.scope.length ? inArray(callRecords.staffId, f.scope) : sql`false`);
  if (f.uuid) c.push(eq(callRecords.uuid, f.uuid));
  if (f.departmentId) c.push(eq(callRecords.departmentId, f.departmentId));
  if (f.staffId) c.push(eq(callRecords.staffId, f.staffId));
  if (f.sipUser) c.push(like(callRecords.sipUser, likeOf(f.sipUser)));
  if (f.caller) c.push(f.isNumberExact ? eq(callRecords.caller, f.caller) : like(callRecords.caller, likeOf(f.caller)));
  if (f.number)
    c.push(f.isNumberExact ? eq(callRecords.calledNumber, f.number) : like(callRecords.calledNumber, likeOf(f.number)));
  if (f.minBillsec !== undefined) c.push(gte(callRecords.billsec, f.minBillsec));
  if (f.maxBillsec !== undefined) c.push(lte(callRecords.billsec, f.maxBillsec));
  if (f.callType) c.push(eq(callRecords.callType, f.callType));
  if (f.hangupSide) c.push(eq(callRecords.hangupSide, f.hangupSide));
  if (f.from) c.push(gte(callRecords.startAt, f.from));
  if (f.to) c.push(lte(callRecords.startAt, f.to));
  if (f.taskId) c.push(eq(callRecords.taskId, f.taskId));
  if (f.isConnected === true) c.push(gt(callRecords.billsec, 0));
  if (f.isConnected === false) c.push(and(eq(callRecords.billsec, 0), eq(callRecords.state, CALL_STATE.ended)));
  return and(...c);
};

/** A listed call with its customer as he is now (deleted ones too: the masking of the number follows him). */
export type CallListRow = {
  call: CallRecord;
  customerName: string | null;
  templateId: number | null;
  /** where the call's customer lives now (the masking of its number follows it) */
  customerOwnerId: number | null;
  customerPoolId: number | null;
};

export const listCalls = (db: DbOrTx, f: CallFilter, limit: number, offset: number): Promise<CallListRow[]> =>
  db
    .select({
      call: callRecords,
      customerName: customers.name,
      templateId: customers.templateId,
      customerOwnerId: customers.ownerId,
      customerPoolId: customers.poolId,
    })
    .from(callRecords)
    .leftJoin(customers, eq(customers.id, callRecords.customerId))
    .where(whereOf(f))
    .orderBy(desc(callRecords.startAt), desc(callRecords.uuid))
    .limit(limit)
    .offset(offset);

export const countCalls = async (db: DbOrTx, f: CallFilter) => {
  const rows = await db.select({ n: count() }).from(callRecords).where(whereOf(f));
  return rows[0]?.n ?? 0;
};

/** The staff's calls since `from`, per Asia/Shanghai hour (seats workbench). */
export const hourlyStats = async (db: DbOrTx, tenantId: number, staffId: number, from: Date) =>
  (
    await queryRows<{ hour: number; calls: string; connected: string; billsec: string; inbound: string }>(
      db,
      sql`select extract(hour from ${callRecords.startAt} at time zone 'Asia/Shanghai')::int as hour,
                 count(*) as calls,
                 count(*) filter (where ${callRecords.billsec} > 0) as connected,
                 coalesce(sum(${callRecords.billsec}), 0) as billsec,
                 count(*) filter (where ${callRecords.callType} = ${CALL_TYPE.inbound}) as inbound
          from ${callRecords}
          where ${callRecords.tenantId} = ${tenantId} and ${callRecords.staffId} = ${staffId}
            and ${callRecords.startAt} >= ${from}
          group by 1`,
    )
  ).map((r) => ({
    hour: Number(r.hour),
    calls: Number(r.calls),
    connected: Number(r.connected),
    billsec: Number(r.billsec),
    inbound: Number(r.inbound),
  }));

/** The call a recording file belongs to (file downloads ask who may hear it). */
export const findCallByRecordingFile = async (db: DbOrTx, tenantId: number, fileId: number) => {
  const rows = await db
    .select({ call: callRecords, customerOwnerId: customers.ownerId, customerPoolId: customers.poolId })
    .from(callRecords)
    .leftJoin(customers, eq(customers.id, callRecords.customerId))
    .where(and(eq(callRecords.tenantId, tenantId), eq(callRecords.recordFileId, fileId)))
    .limit(1);
  return rows[0];
};

/** Start times of the company's outbound calls to the number since `from` (exclusive), oldest first (the per-number caps). */
export const outboundStartsSince = async (db: DbOrTx, tenantId: number, phone: string, from: Date) => {
  const rows = await db
    .select({ startAt: callRecords.startAt })
    .from(callRecords)
    .where(
      and(
        eq(callRecords.tenantId, tenantId),
        eq(callRecords.calledNumber, phone),
        eq(callRecords.callType, CALL_TYPE.outbound),
        gt(callRecords.startAt, from),
      ),
    )
    .orderBy(asc(callRecords.startAt));
  return rows.map((r) => r.startAt);
};

// ---------- missed incoming calls (SPEC §2 call button badge) ----------

/** The staff's incoming calls that ended unanswered after `seenAt`, when he last saw his missed calls (null: never). */
export const countUnseenMissedCalls = async (
  db: DbOrTx,
  tenantId: number,
  staffId: number,
  seenAt: Date | null,
): Promise<number> => {
  const rows = await db
    .select({ n: count() })
    .from(callRecords)
    .where(
      and(
        eq(callRecords.tenantId, tenantId),
        eq(callRecords.staffId, staffId),
        eq(callRecords.callType, CALL_TYPE.inbound),
        eq(callRecords.state, CALL_STATE.ended),
        isNull(callRecords.answerAt),
        seenAt === null ? undefined : gt(callRecords.endAt, seenAt),
      ),
    );
  return rows[0]?.n ?? 0;
};

// ---------- the company's calling rules (dial-policy.ts) ----------

export const findCallSettings = async (db: DbOrTx, tenantId: number) => {
  const rows = await db.select().from(callSettings).where(eq(callSettings.tenantId, tenantId)).limit(1);
  return rows[0];
};

export const upsertCallSettings = async (
  db: DbOrTx,
  tenantId: number,
  values: {
    callerNumber: string;
    callHoursFrom: string;
    callHoursTo: string;
    bridgeMode?: '3pcc' | 'forward';
    manualObeysHours?: boolean;
    capPer5Min?: number;
    capPerDay?: number;
    dncRetentionMonths?: number;
  },
) => {
  await db
    .insert(callSettings)
    .values({ tenantId, ...values })
    .onConflictDoUpdate({ target: callSettings.tenantId, set: { ...values, updatedAt: sql`now()` } });
};
