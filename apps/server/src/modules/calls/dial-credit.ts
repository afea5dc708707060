/**
 * The dial policy's credit question (issue 27) without importing billing: billing sits above calls
 * (it rates calls), so it hands its gate over at startup (`registerDialCreditGate` from
 * billing.plugin) and calls ask through here. No gate registered, or a company with no rate plan:
 * calls are free and never refused.
 *
 * The gate reserves credit in the transaction that inserts the call record (so a refused or failed
 * insert holds nothing) and answers the longest talk the reservation pays for. The instance that
 * placed the call keeps that limit and ends the call with cause credit_exhausted when the talk
 * reaches it (a timer from the answer); the reservation is settled when the call is rated after
 * its end (billing, from the call.ended event), which also releases it for a call never answered.
 */
import type { DbOrTx } from '../../db/client';
import type { CallRuntime } from './call-bus';
import * as repo from './calls.repo';

export type DialCreditKind = 'manual' | 'task' | 'group' | 'ai' | 'inbound';
export type DialCreditRequest = { tenantId: number; callUuid: string; kind: DialCreditKind; at: Date };
/** maxSeconds null: no limit (free). */
export type DialCredit = { maxSeconds: number | null };

export type DialCreditGate = {
  /** Inside the call record's transaction: holds credit for the call, or throws the refusal (117000). */
  reserve: (tx: DbOrTx, req: DialCreditRequest) => Promise<DialCredit>;
};

let gate: DialCreditGate | null = null;

export const registerDialCreditGate = (g: DialCreditGate | null) => {
  gate = g;
};

const FREE: DialCredit = { maxSeconds: null };

/** The dial policy's credit check (see the file comment). */
export const reserveDialCredit = async (tx: DbOrTx, req: DialCreditRequest): Promise<DialCredit> =>
  gate ? gate.reserve(tx, req) : FREE;

// ---------- the talk limit, on the instance that placed the call ----------

type Limit = { maxSeconds: number; timer?: NodeJS.Timeout };
const limits = new Map<string, Limit>();

/** How a call whose credit ran out is ended (calls-lifecycle endCall, set by the calls plugin). */
type CreditHangup = (rt: CallRuntime, call: repo.CallRecord) => Promise<void>;
let creditHangup: CreditHangup | null = null;
export const setCreditHangup = (fn: CreditHangup) => {
  creditHangup = fn;
};

/** Keeps a placed call's talk limit (a call with no limit is not kept). */
export const rememberCreditLimit = (callUuid: string, credit: DialCredit) => {
  if (credit.maxSeconds !== null) limits.set(callUuid, { maxSeconds: credit.maxSeconds });
};

/** The call was answered: it is ended by the system (credit_exhausted) when its paid talk runs out. */
export const startCreditTimer = (rt: CallRuntime, callUuid: string) => {
  const limit = limits.get(callUuid);
  if (!limit || limit.timer) return;
  limit.timer = setTimeout(() => {
    limits.delete(callUuid);
    void (async () => {
      const call = await repo.findCall(rt.db, callUuid);
      if (!call || call.state === repo.CALL_STATE.ended || !creditHangup) return;
      await creditHangup(rt, call);
    })().catch(() => undefined);
  }, limit.maxSeconds * 1000);
  limit.timer.unref?.();
};

/** The call ended: its limit is forgotten. */
export const clearCreditLimit = (callUuid: string) => {
  const limit = limits.get(callUuid);
  if (limit?.timer) clearTimeout(limit.timer);
  limits.delete(callUuid);
};

/** Talk limits held (tests, metrics). */
export const creditLimitsHeld = () => limits.size;
