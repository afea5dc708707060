import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { domainEvents } from '../../db/schema';

/**
 * Domain events (DESIGN §1): a domain records what happened in the outbox, in the transaction of
 * the change itself, so an event exists if and only if its change was committed. After the commit
 * the publisher delivers it to the handlers of the owning domains; when the process dies first, the
 * queue's relay (jobs/events-relay.ts) delivers it. A delivery runs every handler of the event and
 * marks it delivered in one transaction: each reaction happens once.
 */
export type DomainEventMap = {
  /** A call ended (calls): the follow-up history, the customer's contact counters and billing (its rating) react. */
  'call.ended': {
    uuid: string;
    /** 0 when the call had no customer (billing still rates it) */
    customerId: number;
    /** the agent on the call; null for a server call no agent joined (bot, dialer) */
    staffId: number | null;
    callType: number;
    billsec: number;
    recordFile: string;
    remark: string;
    /** ISO time the call ended */
    at: string;
  };
  /**
   * A call leg moved (call control, issue 12): the dialer, the bot and the reports react. `kind`:
   * created, offered, ringing, answered, digit, bridged, ended.
   */
  'call.leg': {
    kind: 'created' | 'offered' | 'ringing' | 'answered' | 'digit' | 'bridged' | 'ended';
    legId: string;
    callUuid: string;
    role: string;
    /** ISO time on the business clock */
    at: string;
    digit?: string;
    otherLegId?: string;
    side?: number;
    cause?: string;
  };
  /** Customers went into a pool (pools: followdown or recycling): the follow-up history reacts. */
  'customers.pooled': {
    /** [customerId, stageId] of each customer moved */
    moved: [number, number | null][];
    /** who discarded them; null = the system (recycling) */
    staffId: number | null;
    /** FOLLOW_SOURCE of the move (crm: a person, system: recycling) */
    sourceType: number;
    /** the reason (丢弃原因 or 系统回收) */
    reason: string;
    at: string;
  };
  /**
   * Customers changed owner (pools: claim 领取, allot 分配, batch transfer 批量转移; one event per
   * move, one per chunk of a batch): the follow-up history writes a record each.
   */
  'customers.moved': {
    kind: 'claim' | 'allot' | 'transfer';
    /** the person acting (claimer or allocator) */
    staffId: number;
    /** per receiver and history text: the customers as [customerId, stageId after the move] */
    groups: { toStaffId: number; reason: string; moved: [number, number | null][] }[];
    at: string;
  };
  /**
   * A deal order's approval status changed (orders, issue 13): 0 submitted, 1 approved, 2 rejected,
   * 3 withdrawn. Pools keep the pending-order count and the last deal; on approval customers move
   * the customer to the 成交 stage and the follow-up history writes a record.
   */
  'order.status': {
    orderId: number;
    customerId: number;
    /** owner of the order (the follow record's writer) */
    ownerId: number;
    /** who acted (submitter, last approver, withdrawer) */
    staffId: number;
    status: number;
    amount: number;
    productNames: string;
    /** the customer's orders awaiting approval after this change */
    pendingOrders: number;
    at: string;
  };
  /**
   * A seat task's customer refused (issue 15: the agent's outcome 拒绝): the compliance 禁拨 list
   * reacts (the number is not dialled again for the configured time).
   */
  'call.task.refused': {
    taskId: number;
    /** the task's name (the 禁拨 entry's reason names it) */
    taskName: string;
    numberId: number;
    /** normalised */
    phone: string;
    /** 0 when the number has no customer */
    customerId: number;
    staffId: number;
    callUuid: string;
    at: string;
  };
};
export type EventType = keyof DomainEventMap;
export type DomainEvent<T extends EventType = EventType> = { id: number; tenantId: number; type: T; payload: DomainEventMap[T] };
type Handler<T extends EventType> = (tx: Tx, event: DomainEvent<T>) => Promise<void>;

const handlers = new Map<EventType, Map<string, Handler<EventType>>>();

/** The owning domain reacts to `type` (`name` identifies the reaction; registering twice replaces it). */
export const onEvent = <T extends EventType>(type: T, name: string, handler: Handler<T>) => {
  const forType = handlers.get(type) ?? new Map<string, Handler<EventType>>();
  forType.set(name, handler as unknown as Handler<EventType>);
  handlers.set(type, forType);
};

/** Records an event in the transaction of its change; returns its id for `deliver` after the commit. */
export const publish = async <T extends EventType>(tx: DbOrTx, tenantId: number, type: T, payload: DomainEventMap[T]) => {
  const [row] = await tx.insert(domainEvents).values({ tenantId, type, payload }).returning({ id: domainEvents.id });
  return row.id;
};

/** Attempts before an event stops being retried (it stays in the outbox with its error). */
export const MAX_EVENT_ATTEMPTS = 5;

const deliverOne = async (db: Db, id: number): Promise<'delivered' | 'skipped' | 'failed'> => {
  try {
    return await db.transaction(async (tx) => {
      // skip locked: another instance delivering the same event holds it
      const [row] = await tx
        .select()
        .from(domainEvents)
        .where(and(eq(domainEvents.id, id), isNull(domainEvents.deliveredAt)))
        .for('update', { skipLocked: true });
      if (!row) return 'skipped';
      const event = { id: row.id, tenantId: row.tenantId, type: row.type as EventType, payload: row.payload } as DomainEvent;
      for (const handler of handlers.get(event.type)?.values() ?? []) await handler(tx, event);
      await tx
        .update(domainEvents)
        .set({ deliveredAt: sql`now()`, attempts: sql`${domainEvents.attempts} + 1`, error: '' })
        .where(eq(domainEvents.id, id));
      return 'delivered';
    });
  } catch (err) {
    await db
      .update(domainEvents)
      .set({ attempts: sql`${domainEvents.attempts} + 1`, error: String((err as Error)?.message ?? err).slice(0, 500) })
      .where(eq(domainEvents.id, id));
    return 'failed';
  }
};

/**
 * Delivers events: the given ids (right after their commit), or the oldest pending ones (the
 * relay). Never throws for a failing handler: the event keeps its error and is retried.
 */
export const deliver = async (db: Db, ids?: number[]): Promise<{ delivered: number; failed: number }> => {
  const pending = ids
    ? ids
    : (
        await db
          .select({ id: domainEvents.id })
          .from(domainEvents)
          .where(and(isNull(domainEvents.deliveredAt), lt(domainEvents.attempts, MAX_EVENT_ATTEMPTS)))
          .orderBy(asc(domainEvents.id))
          .limit(500)
      ).map((r) => r.id);
  let delivered = 0;
  let failed = 0;
  for (const id of pending) {
    const r = await deliverOne(db, id);
    if (r === 'delivered') delivered++;
    if (r === 'failed') failed++;
  }
  return { delivered, failed };
};

/** Delivered events older than `days` leave the outbox. */
export const purgeDelivered = async (db: Db, days: number) => {
  const old = await db
    .select({ id: domainEvents.id })
    .from(domainEvents)
    .where(sql`${domainEvents.deliveredAt} < now() - make_interval(days => ${days})`)
    .limit(10_000);
  if (old.length > 0)
    await db.delete(domainEvents).where(
      inArray(
        domainEvents.id,
        old.map((r) => r.id),
      ),
    );
  return old.length;
};
