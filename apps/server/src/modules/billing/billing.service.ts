import type {
  AdjustBody,
  CallKind,
  OperatorRechargeBody,
  PlanAssignBody,
  RatePart,
  RatePlan,
  RatePlanBody,
  RerateBody,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import type { DialCredit, DialCreditGate, DialCreditRequest } from '../calls/dial-credit';
import { findCompanyByRef } from '../company/company.service';
import * as repo from './billing.repo';
import * as dialRepo from './billing-dial.repo';
import * as ratingRepo from './billing-rating.repo';
import { book, type Movement, type Notifier, recordCrossings, tellAdmins } from './ledger';
import { callCost, isFreePart, maxTalkSeconds, minimumCredit } from './rating';

export type PlanRates = Record<CallKind, RatePart>;

/** A company's plan assignment with its rates. */
type PlanInForce = { id: number; name: string; rates: PlanRates };

/**
 * The longest talk one reservation pays for: a call holds at most this much of the company's
 * credit (or all that is left), and is ended with cause credit_exhausted when its talk reaches
 * what it holds. One hour: a long call on a small balance never blocks the other calls' credit.
 */
export const RESERVE_SECONDS = 3600;

const FREE: DialCredit = { maxSeconds: null };

// ---------- companies and plans (platform operator) ----------

export const requireCompany = async (db: DbOrTx, ref: number | string) => {
  const company = await findCompanyByRef(db, ref);
  if (!company) throw new AppError('BILLING_COMPANY_NOT_FOUND');
  return company;
};

export const createPlan = async (db: Db, body: RatePlanBody) => {
  const id = await repo.insertPlan(db, body.name, body.rates);
  if (id === undefined) throw new AppError('BILLING_PLAN_NAME_EXISTS');
  return id;
};

export const listPlans = async (db: Db): Promise<RatePlan[]> =>
  (await repo.listPlans(db)).map((p) => ({
    id: p.id,
    name: p.name,
    rates: p.rates as PlanRates,
    created_at: formatDateTime(p.createdAt),
  }));

export const assignPlan = async (db: Db, body: PlanAssignBody) => {
  const company = await requireCompany(db, body.company);
  if (!(await repo.findPlan(db, body.plan_id))) throw new AppError('BILLING_PLAN_NOT_FOUND');
  const from = body.effective_from ? new Date(body.effective_from) : now();
  await db.transaction(async (tx) => {
    await repo.lockBalance(tx, company.id);
    await repo.assignPlan(tx, company.id, body.plan_id, from, body.operator);
  });
  forgetPlan(company.id);
  return company.id;
};

export const planInForce = async (db: DbOrTx, tenantId: number, at: Date): Promise<PlanInForce | undefined> => {
  const p = await repo.planAt(db, tenantId, at);
  return p ? { id: p.id, name: p.name, rates: p.rates as PlanRates } : undefined;
};

// ---------- the dial's credit (calls/dial-credit.ts gate) ----------

/**
 * Each company's plan assignments with their rates, kept a few seconds for the dial's credit
 * check. Safe to keep: a plan's rates never change (a correction is a new plan), and the check's
 * statement verifies that the plan it was given is the one in force (another instance assigned a
 * new one: the statement does nothing, the entry is read again and the check retried). An
 * assignment made here drops the entry at once.
 */
const PLAN_CACHE_MS = 5000;
const planCache = new Map<number, { until: number; list: Assignment[] }>();

const cachedAssignments = async (db: DbOrTx, tenantId: number, isFresh = false) => {
  const hit = planCache.get(tenantId);
  if (hit && !isFresh && hit.until > Date.now()) return hit.list;
  const list = await assignmentsOf(db, tenantId);
  if (planCache.size > 10_000) planCache.clear();
  planCache.set(tenantId, { until: Date.now() + PLAN_CACHE_MS, list });
  return list;
};

/** The plan cache forgets the company (its plan was assigned). */
export const forgetPlan = (tenantId: number) => planCache.delete(tenantId);

/**
 * Reserves credit for a call about to be placed, in the transaction that inserts its record, in
 * one statement (billing-dial.repo reserveForCall) given the company's cached plan. No plan for
 * the company, or a free part: free (no limit, nothing held). Else the company's balance row is
 * locked and min(available, one reservation) is held when the first block (and connect fee) is
 * available, else 余额不足 (117000); the call may talk what it holds.
 */
export const reserveForDial = async (tx: DbOrTx, req: DialCreditRequest): Promise<DialCredit> => {
  for (let attempt = 0; ; attempt++) {
    const plan = pick(await cachedAssignments(tx, req.tenantId, attempt > 0), req.at.getTime());
    const part = plan?.rates[req.kind];
    const isHeld = !!part && !isFreePart(part);
    const min = part && isHeld ? minimumCredit(part) : 0;
    const r = await dialRepo.reserveForCall(tx, {
      tenantId: req.tenantId,
      callUuid: req.callUuid,
      kind: req.kind,
      at: req.at,
      planId: plan?.planId ?? 0,
      isHeld,
      min,
      cap: part && isHeld ? Math.max(min, callCost(part, true, RESERVE_SECONDS).cost) : 0,
      connectFee: part?.connect_fee ?? 0,
      pricePerMinute: part?.price_per_minute ?? 0,
      firstBlock: part?.first_block ?? 1,
      increment: part?.increment ?? 1,
    });
    // another instance assigned a plan since this one read it: read it again (once is enough)
    if (r.planId !== (plan?.planId ?? 0) && attempt === 0) continue;
    if (r.planId !== (plan?.planId ?? 0)) throw new Error('billing: the plan in force changed twice during a dial');
    if (!part || !isHeld) return FREE;
    if (r.amount === null) throw new AppError('BILLING_NO_CREDIT');
    return { maxSeconds: maxTalkSeconds(part, r.amount) };
  }
};

export const dialCreditGate: DialCreditGate = { reserve: reserveForDial };

// ---------- rating (the job) ----------

/** Calls of one company rated per transaction. */
export const RATE_BATCH = 500;

type Assignment = { planId: number; from: number; to: number; rates: PlanRates };

const assignmentsOf = async (db: DbOrTx, tenantId: number): Promise<Assignment[]> =>
  (await repo.assignmentsOf(db, tenantId)).map((a) => ({
    planId: a.planId,
    from: a.effectiveFrom.getTime(),
    to: a.effectiveTo ? a.effectiveTo.getTime() : Number.POSITIVE_INFINITY,
    rates: a.rates as PlanRates,
  }));

/** The plan in force at `at` among the company's assignments (latest start wins, as planAt). */
const pick = (list: Assignment[], at: number) => {
  let best: Assignment | undefined;
  for (const a of list) if (a.from <= at && at < a.to && (!best || a.from >= best.from)) best = a;
  return best;
};

/**
 * Rates up to `limit` waiting calls of one company in one transaction of four statements: the
 * calls are taken with their rows locked (another worker skips them), the company's balance is
 * locked, each call's cost is computed (rating.ts) and the batch is settled in one statement
 * (billing-rating.repo settleRated: reservations released, each call charged never more than the
 * credit left, ledger rows with their balance after, rated marks, the balance). A retried job
 * finds the calls rated and does nothing: a call is charged once.
 */
export const rateTenantBatch = async (db: Db, tenantId: number, limit = RATE_BATCH) =>
  db.transaction(async (tx) => {
    const rows = await ratingRepo.takePending(tx, tenantId, limit);
    if (rows.length === 0) return { rated: 0, alerts: [] as Awaited<ReturnType<typeof recordCrossings>> };
    const locked = await repo.lockBalance(tx, tenantId);
    const plans = await assignmentsOf(tx, tenantId);
    const rated = rows.map((r): ratingRepo.CallRating => {
      const plan = pick(plans, r.startMs);
      const part = plan?.rates[r.kind as CallKind];
      if (!plan || !part) return { ...UNRATED, callUuid: r.callUuid };
      const { billed, cost } = callCost(part, r.isAnswered, r.duration);
      return {
        callUuid: r.callUuid,
        billedSeconds: billed,
        firstBlock: part.first_block,
        increment: part.increment,
        rate: part.price_per_minute,
        connectFee: part.connect_fee,
        cost,
        planId: plan.planId,
      };
    });
    const settled = await ratingRepo.settleRated(tx, tenantId, locked, rated);
    const after = locked.balance - settled.charged;
    const alerts =
      settled.lastLedgerId > 0 ? await recordCrossings(tx, tenantId, locked.balance, after, settled.lastLedgerId) : [];
    return { rated: rows.length, alerts };
  });

const UNRATED: Omit<ratingRepo.CallRating, 'callUuid'> = {
  billedSeconds: 0,
  firstBlock: 0,
  increment: 0,
  rate: 0,
  connectFee: 0,
  cost: 0,
  planId: null,
};

/**
 * Rates every waiting call (the job's run): company by company, batch by batch, until none is
 * left or `budgetMs` passed. Low-balance notices go out after each commit.
 */
export const rateDue = async (db: Db, bus?: Notifier, budgetMs = 50_000) => {
  const started = Date.now();
  let total = 0;
  for (;;) {
    const tenants = await repo.pendingTenants(db, 20);
    if (tenants.length === 0) break;
    let progressed = 0;
    for (const tenantId of tenants) {
      const r = await rateTenantBatch(db, tenantId);
      progressed += r.rated;
      await tellAdmins(db, bus, tenantId, r.alerts);
    }
    total += progressed;
    // rows other workers hold: theirs to rate
    if (progressed === 0 || Date.now() - started > budgetMs) break;
  }
  return total;
};

// ---------- recharges, adjustments, re-rating (platform operator) ----------

/**
 * A recharge the operator records (no payment gateway: the money arrived by the channel named).
 * One per company and reference: the same reference again with the same amounts answers the first
 * (a retried CLI or request adds nothing), with other amounts is refused.
 */
export const recharge = async (db: Db, body: OperatorRechargeBody) => {
  const company = await requireCompany(db, body.company);
  const tenantId = company.id;
  return db.transaction(async (tx) => {
    const locked = await repo.lockBalance(tx, tenantId);
    const existing = await repo.findRechargeByRef(tx, tenantId, body.ref);
    if (existing) {
      if (Number(existing.amount) !== body.amount || Number(existing.bonus) !== body.bonus)
        throw new AppError('BILLING_REF_CONFLICT');
      return { recharge_id: existing.id, tenant_id: tenantId, balance: locked.balance, is_new: false };
    }
    const idemKey = `recharge:${body.ref}`;
    const booked = await book(tx, tenantId, locked, [
      {
        type: 'recharge',
        chargeKind: '',
        amount: body.amount + body.bonus,
        sourceKind: 'recharge',
        sourceId: body.ref,
        idemKey,
        operator: body.operator,
        remark: [body.channel, body.bonus > 0 ? `含赠送${body.bonus}` : '', body.remark].filter(Boolean).join(' '),
      },
    ]);
    const id = await repo.insertRecharge(tx, {
      tenantId,
      channel: body.channel,
      amount: body.amount,
      bonus: body.bonus,
      operator: body.operator,
      ref: body.ref,
      remark: body.remark,
      ledgerId: booked.ids.get(idemKey) as number,
    });
    return { recharge_id: id, tenant_id: tenantId, balance: booked.after, is_new: true };
  });
};

/** A manual adjustment (a credit, or a debit within the available credit), once per reference. */
export const adjust = async (db: Db, body: AdjustBody, bus?: Notifier) => {
  const company = await requireCompany(db, body.company);
  const tenantId = company.id;
  const idemKey = `adjust:${body.ref}`;
  const r = await db.transaction(async (tx) => {
    const locked = await repo.lockBalance(tx, tenantId);
    if (await repo.findLedgerByKey(tx, tenantId, idemKey)) return { balance: locked.balance, alerts: [] };
    if (body.amount < 0 && locked.balance - locked.reserved + body.amount < 0) throw new AppError('BILLING_ADJUST_OVERDRAW');
    const booked = await book(tx, tenantId, locked, [
      {
        type: 'adjust',
        chargeKind: 'adjust',
        amount: body.amount,
        sourceKind: 'adjust',
        sourceId: body.ref,
        idemKey,
        operator: body.operator,
        remark: body.reason,
      },
    ]);
    const alerts = await recordCrossings(tx, tenantId, booked.before, booked.after, booked.ids.get(idemKey) as number);
    return { balance: booked.after, alerts };
  });
  await tellAdmins(db, bus, tenantId, r.alerts);
  return { balance: r.balance };
};

/**
 * Re-rates a company's rated calls that started in [from, to) under the plans now assigned (after
 * a plan correction): each call whose cost changes gets one adjustment row of the difference
 * (never an edit of its charge), the call's rating shows the new figures, and the run is audited
 * (operator, reason, range, counts, total). A refund is always booked; an extra charge takes at
 * most the credit available (the rest stays unbilled, as for a call's own shortfall).
 */
export const rerate = async (db: Db, body: RerateBody, bus?: Notifier) => {
  const company = await requireCompany(db, body.company);
  const tenantId = company.id;
  const from = new Date(body.from);
  const to = new Date(body.to);
  if (!(from < to)) throw new AppError('BILLING_RANGE_INVALID');
  const r = await db.transaction(async (tx) => {
    const locked = await repo.lockBalance(tx, tenantId);
    const calls = await repo.ratedCallsBetween(tx, tenantId, from, to);
    const plans = await assignmentsOf(tx, tenantId);
    const auditId = await repo.insertRerate(tx, {
      tenantId,
      fromAt: from,
      toAt: to,
      operator: body.operator,
      reason: body.reason,
      calls: calls.length,
      adjusted: 0,
      delta: 0,
    });
    let available = locked.balance - locked.reserved;
    const movements: Movement[] = [];
    for (const c of calls) {
      const plan = pick(plans, c.startAt.getTime());
      const part = plan?.rates[c.kind as CallKind];
      const { billed, cost } = part ? callCost(part, c.answerAt !== null, c.duration) : { billed: 0, cost: 0 };
      const was = Number(c.amount);
      let diff = cost - was;
      if (diff > 0) diff = Math.min(diff, Math.max(0, available));
      if (diff === 0 && cost === Number(c.cost)) continue;
      available -= diff;
      if (diff !== 0) {
        movements.push({
          type: 'adjust',
          chargeKind: c.kind,
          amount: -diff,
          sourceKind: 'rerate',
          sourceId: c.callUuid,
          idemKey: `rerate:${auditId}:${c.callUuid}`,
          staffId: c.staffId,
          operator: body.operator,
          remark: `重新计费：${body.reason}`,
        });
      }
      await repo.updateUsageCost(tx, tenantId, c.callUuid, {
        billedSeconds: billed,
        firstBlock: part?.first_block ?? 0,
        increment: part?.increment ?? 0,
        rate: part?.price_per_minute ?? 0,
        connectFee: part?.connect_fee ?? 0,
        cost,
        amount: was + diff,
        planId: plan?.planId ?? null,
      });
    }
    const booked = await book(tx, tenantId, locked, movements);
    const delta = booked.after - booked.before;
    await repo.finishRerate(tx, tenantId, auditId, movements.length, delta);
    const lastId = Math.max(0, ...booked.ids.values());
    const alerts = lastId > 0 ? await recordCrossings(tx, tenantId, booked.before, booked.after, lastId) : [];
    return { calls: calls.length, adjusted: movements.length, delta, balance: booked.after, alerts };
  });
  await tellAdmins(db, bus, tenantId, r.alerts);
  const { alerts: _alerts, ...result } = r;
  return result;
};
