import { sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';

// The dial's credit check in one statement (issue 27): the dial adds one round trip, whatever it
// finds. See reserveForCall.

const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The reservation asked for: what the caller's (cached) plan says the call needs. */
export type ReserveAsk = {
  tenantId: number;
  callUuid: string;
  kind: string;
  at: Date;
  /** the plan the caller believes in force at `at` (0: none) */
  planId: number;
  /** false: the plan's part is free (nothing is held; the statement only checks the plan) */
  isHeld: boolean;
  /** the least credit the call must find, and the most one reservation holds */
  min: number;
  cap: number;
  /** the part's pricing (for the reservation's max_seconds, rating.ts maxTalkSeconds in SQL) */
  connectFee: number;
  pricePerMinute: number;
  firstBlock: number;
  increment: number;
};

/**
 * One statement: finds the plan in force for the company at `at`; when it is the one asked about
 * and the call is held, locks the company's balance row and holds min(available, cap) when at
 * least `min` is available, and inserts the call's reservation. Answers the plan found (another
 * one: nothing was done, the caller's plan cache was stale) and the amount held (null: no credit,
 * or nothing held).
 */
export const reserveForCall = async (db: DbOrTx, a: ReserveAsk): Promise<{ planId: number; amount: number | null }> => {
  const [row] = await queryRows<{ plan_id: unknown; amount: unknown }>(
    db,
    sql`with pl as (
          select coalesce((
            select pa.plan_id from billing_plan_assignments pa
            where pa.tenant_id = ${a.tenantId} and pa.effective_from <= ${a.at}
              and (pa.effective_to is null or pa.effective_to > ${a.at})
            order by pa.effective_from desc, pa.id desc limit 1), 0) as plan_id),
        cur as (
          select balance, reserved from billing_balances
          where tenant_id = ${a.tenantId} and ${a.isHeld} and (select plan_id from pl) = ${a.planId}
          for update),
        upd as (
          update billing_balances b set reserved = b.reserved + least(cur.balance - cur.reserved, ${a.cap}::bigint), updated_at = now()
          from cur where b.tenant_id = ${a.tenantId} and cur.balance - cur.reserved >= ${a.min}::bigint
          returning least(cur.balance - cur.reserved, ${a.cap}::bigint) as amount),
        -- max_seconds: rating.ts maxTalkSeconds(part, amount) (a free-of-time part: 0)
        ins as (
          insert into billing_reservations (call_uuid, tenant_id, amount, kind, plan_id, max_seconds)
          select ${a.callUuid}, ${a.tenantId}, upd.amount, ${a.kind}, ${a.planId},
            case when ${a.pricePerMinute}::bigint = 0 then case when upd.amount >= ${a.connectFee}::bigint then 0 else 1 end
            else greatest(1, case
              when upd.amount < ${a.connectFee}::bigint then 0
              when (120 * (upd.amount - ${a.connectFee}::bigint + 1) - 61) / (2 * ${a.pricePerMinute}::bigint) < ${a.firstBlock}::bigint then 0
              else ${a.firstBlock}::bigint + (((120 * (upd.amount - ${a.connectFee}::bigint + 1) - 61) / (2 * ${a.pricePerMinute}::bigint)
                   - ${a.firstBlock}::bigint) / ${a.increment}::bigint) * ${a.increment}::bigint end - 2) end
          from upd
          returning amount)
        select (select plan_id from pl) as plan_id, (select amount from ins) as amount`,
  );
  return { planId: Number(row.plan_id), amount: n(row.amount) };
};
