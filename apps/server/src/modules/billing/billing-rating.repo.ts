import { sql } from 'drizzle-orm';
import { type DbOrTx, queryRows } from '../../db/client';

// The rating job's SQL (issue 27): a batch of a company's pending calls is read in one statement
// and settled in one statement (reservations released, ledger rows, rated marks, the balance),
// whatever the batch's size. The cost of each call is computed in JS (rating.ts, the one pricing
// rule); what depends on the order of the calls (the credit each may still take, the balance
// after each charge) is a window sum in SQL.

const n = (v: unknown) => Number(v ?? 0);

/** A pending call as rating needs it. */
export type PendingCall = { callUuid: string; kind: string; startMs: number; isAnswered: boolean; duration: number };

/**
 * Takes up to `limit` pending calls of a company, oldest first, their rows locked (rows another
 * worker holds are skipped: they are his to rate).
 */
export const takePending = async (db: DbOrTx, tenantId: number, limit: number): Promise<PendingCall[]> =>
  (
    await queryRows<{ u: string; k: string; s: unknown; a: boolean; d: unknown }>(
      db,
      sql`select call_uuid as u, kind as k, (extract(epoch from start_at) * 1000)::float8 as s, answer_at is not null as a, duration as d
          from billing_call_usage where status = 0 and tenant_id = ${tenantId}
          order by created_at limit ${limit} for update skip locked`,
    )
  ).map((r) => ({ callUuid: r.u, kind: r.k, startMs: n(r.s), isAnswered: r.a === true, duration: n(r.d) }));

/** A call's rating: its billed seconds and cost under its plan part (zeros and no plan: not billable). */
export type CallRating = {
  callUuid: string;
  billedSeconds: number;
  firstBlock: number;
  increment: number;
  rate: number;
  connectFee: number;
  cost: number;
  planId: number | null;
};

export type Settled = { released: number; charged: number; marked: number; lastLedgerId: number };

/**
 * Settles rated calls in one statement, on the company's balance row the caller holds locked
 * (`balance`, `reserved` as read under that lock). In the calls' order: their reservations are
 * released (deleted) into the available credit; each call takes min(cost, what is left) (the
 * rest is its shortfall: never below zero), written as a ledger row with the balance after it
 * (the window sum of the charges so far), dated when the call ended, keyed `call:<uuid>` (a call
 * already charged fails the statement instead of charging twice); each call is marked rated with
 * its figures and ledger row; the balance row takes the total and the released credit.
 */
export const settleRated = async (
  db: DbOrTx,
  tenantId: number,
  locked: { balance: number; reserved: number },
  calls: CallRating[],
): Promise<Settled> => {
  if (calls.length === 0) return { released: 0, charged: 0, marked: 0, lastLedgerId: 0 };
  const json = JSON.stringify(
    calls.map((c, o) => ({
      o,
      u: c.callUuid,
      b: c.billedSeconds,
      f: c.firstBlock,
      i: c.increment,
      r: c.rate,
      c: c.connectFee,
      k: c.cost,
      p: c.planId,
    })),
  );
  const [row] = await queryRows<{ released: unknown; charged: unknown; marked: unknown; last_id: unknown }>(
    db,
    sql`with v as (
          select * from json_to_recordset(${json}::json)
            as v(o int, u text, b int, f int, i int, r bigint, c bigint, k bigint, p int)),
        held as (
          delete from billing_reservations where tenant_id = ${tenantId} and call_uuid in (select u from v) returning amount),
        rel as (select coalesce(sum(amount), 0)::bigint as released from held),
        s0 as (
          select v.*, cu.kind, cu.staff_id, cu.end_at,
                 greatest(0::bigint, least(v.k, ${locked.balance}::bigint - ${locked.reserved}::bigint + rel.released
                   - coalesce(sum(v.k) over (order by v.o rows between unbounded preceding and 1 preceding), 0)))::bigint as amount
          from v join billing_call_usage cu on cu.tenant_id = ${tenantId} and cu.call_uuid = v.u cross join rel),
        -- each charge's ledger id taken in the calls' order (ids follow the balance after), so the
        -- rated marks need no join with the inserted rows
        s as (
          select s0.*, ${locked.balance}::bigint - sum(s0.amount) over (order by s0.o) as balance_after,
                 case when s0.amount > 0 then nextval(pg_get_serial_sequence('billing_ledger', 'id')) end as lid
          from s0 order by s0.o),
        led as (
          insert into billing_ledger (id, tenant_id, type, charge_kind, amount, balance_after, source_kind, source_id, idem_key, staff_id, created_at)
          select s.lid, ${tenantId}, 'call', s.kind, -s.amount, s.balance_after, 'call', s.u, 'call:' || s.u, s.staff_id, s.end_at
          from s where s.lid is not null
          returning id),
        mark as (
          update billing_call_usage cu set status = 1, billed_seconds = s.b, first_block = s.f, increment = s.i, rate = s.r,
                 connect_fee = s.c, cost = s.k, amount = s.amount, plan_id = s.p, ledger_id = s.lid, rated_at = now()
          -- by the primary key alone: s holds this company's rows takePending locked pending in this
          -- transaction (a filter on status or company here lets the planner scan all pending rows)
          from s
          where cu.call_uuid = s.u
          returning 1),
        tot as (select coalesce(sum(amount), 0)::bigint as charged from s),
        bal as (
          update billing_balances bb set balance = bb.balance - tot.charged, reserved = bb.reserved - rel.released, updated_at = now()
          from tot, rel where bb.tenant_id = ${tenantId} and (tot.charged <> 0 or rel.released <> 0)
          returning 1)
        select (select released from rel) as released, (select charged from tot) as charged,
               (select count(*) from mark) as marked, (select coalesce(max(id), 0) from led) as last_id,
               (select count(*) from bal) as bal`,
  );
  return { released: n(row.released), charged: n(row.charged), marked: n(row.marked), lastLedgerId: n(row.last_id) };
};
