import { CALL_LIMITS, COMPLIANCE_DEFAULTS, dialNumberRefusal } from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { msSince, now } from '../../lib/clock';
import { normalisePhone } from '../../lib/phone';
import type { BridgeMode } from '../../telephony/control';
import { isNumberBlacklisted } from '../blacklist/blacklist.service';
import { isCompanyActive } from '../company/company.service';
import { checkNumberCaps } from '../compliance/dial-caps';
import { findDoNotCall } from '../compliance/dnc.service';
import { customerNumber } from '../contacts/contacts.service';
import { findCustomerRecord, findVisibleCustomerByPhone, requireVisibleCustomer } from '../customers/customers.service';
import type { CustomerRecord } from './call-access';
import { systemActor } from './call-actors';
import type { CallRuntime } from './call-bus';
import * as repo from './calls.repo';

// The one dial policy (issue 12): every call the product places passes here, whoever places it.
// An agent's dial (browser or bound phone, calls-dial.ts) and a leg the server places to a customer
// (tasks, the dialer, the bot: call-control.ts) share the rules: the company may call, the number is
// looked up by customer id on the server (never through a browser), SPEC §5 number rules, the
// blacklist (100011, or 100014 for a task), the agent's dial lock (SPEC §9), the caller number for
// server legs; and the company's compliance rules (issue 15, call_settings): the 禁拨 list, the calling
// hours (server legs always, manual dials unless the company says otherwise) and the per-number caps
// (checked in the transaction that inserts the call record). Refusals are logged by the callers
// (compliance/dial-refusals.ts withRefusalLog), outside the refused dial's transaction.

/** SPEC §5: 4 to 20 digits unless a task dials; returns the normalised number. */
export const dialNumberOf = (raw: string, isTask: boolean): string => {
  // the rule the browser checks first (packages/contracts/src/rules.ts)
  if (dialNumberRefusal(raw, isTask)) throw new AppError('DIAL_NUMBER_INVALID');
  return normalisePhone(raw)?.phone ?? raw.replace(/\D/g, '');
};

/** A disabled company places no call (its staff cannot log in; its tasks and bots stop too). */
export const checkCompanyActive = async (db: DbOrTx, tenantId: number) => {
  if (!(await isCompanyActive(db, tenantId))) throw new AppError('COMPANY_DISABLED');
};

/** SPEC §8: 100011 carries the customer so the web can offer to discard it; 100014 releases a task call. */
export const checkBlacklist = async (db: DbOrTx, tenantId: number, number: string, isTask: boolean, customerId?: number) => {
  if (await isNumberBlacklisted(db, tenantId, number)) {
    throw new AppError(isTask ? 'TASK_BLACKLISTED' : 'BLACKLISTED', undefined, { cmCtid: customerId ?? 0 });
  }
};

/**
 * SPEC §9 dial lock: while the staff has a call in progress that is unanswered for less than
 * 30 s, or answered less than 60 s ago, another dial is refused. The same number again:
 * 请勿重复拨打; a call in talk: 通话中请勿重复拨打; a call still ringing: 有其他号码正在通话中...
 * Calls past those windows are taken as abandoned and ended by the system (`endAbandoned`: the
 * caller's, so the policy stays below the call's life, calls-lifecycle.ts).
 */
export const checkDialLock = async (rt: CallRuntime, staffId: number, number: string, endAbandoned: EndAbandoned) => {
  const active = await repo.activeCallsOf(rt.db, staffId);
  for (const c of active) {
    const isHeld = c.answerAt
      ? msSince(c.answerAt) < CALL_LIMITS.lockAnsweredSeconds * 1000
      : msSince(c.startAt) < CALL_LIMITS.lockUnansweredSeconds * 1000;
    if (!isHeld) continue;
    if (c.calledNumber === number) throw new AppError('DIAL_REPEAT');
    throw new AppError(c.answerAt ? 'CALL_TALKING' : 'DIAL_LOCKED');
  }
  for (const c of active) await endAbandoned(c);
};

/** Ends a call the dial lock takes as abandoned (calls-dial.ts: the system's hang-up, lock expired). */
export type EndAbandoned = (call: repo.CallRecord) => Promise<void>;

// ---------- the company's calling rules (call_settings) ----------

export type CallSettings = {
  callerNumber: string;
  callHours: { from: string; to: string };
  bridgeMode: BridgeMode;
  manualObeysHours: boolean;
  capPer5Min: number;
  capPerDay: number;
  dncRetentionMonths: number;
};

/** Until a company saves its own: no caller number of its own, server legs 08:00–21:00 Beijing time, 3PCC bridging. */
export const CALL_SETTINGS_DEFAULTS: Readonly<CallSettings> = {
  callerNumber: '',
  callHours: { from: '08:00', to: '21:00' },
  bridgeMode: '3pcc',
  ...COMPLIANCE_DEFAULTS,
};

export const callSettingsOf = async (db: DbOrTx, tenantId: number): Promise<CallSettings> => {
  const row = await repo.findCallSettings(db, tenantId);
  if (!row) return { ...CALL_SETTINGS_DEFAULTS, callHours: { ...CALL_SETTINGS_DEFAULTS.callHours } };
  return {
    callerNumber: row.callerNumber,
    callHours: { from: row.callHoursFrom, to: row.callHoursTo },
    bridgeMode: row.bridgeMode === 'forward' ? 'forward' : '3pcc',
    manualObeysHours: row.manualObeysHours,
    capPer5Min: row.capPer5Min,
    capPerDay: row.capPerDay,
    dncRetentionMonths: row.dncRetentionMonths,
  };
};

const BEIJING_OFFSET_MS = 8 * 60 * 60 * 1000;
const minuteOfHHmm = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

/**
 * Whether `at` lies in the calling hours (Beijing time, from inclusive to exclusive, minute by
 * minute; a window past midnight such as 20:00–02:00 wraps). Returns the refusal or null.
 */
export const callHoursRefusal = (hours: CallSettings['callHours'], at: Date): string | null => {
  const minute = Math.floor(((at.getTime() + BEIJING_OFFSET_MS) % 86_400_000) / 60_000);
  const from = minuteOfHHmm(hours.from);
  const to = minuteOfHHmm(hours.to);
  const isInside = from <= to ? minute >= from && minute < to : minute >= from || minute < to;
  if (isInside) return null;
  return new AppError('CALL_OUTSIDE_HOURS').message.replace('{from}', hours.from).replace('{to}', hours.to);
};

/** The 禁拨 list: a number in force is never dialled, by a task or by hand. */
export const checkDoNotCall = async (db: DbOrTx, tenantId: number, number: string, at: Date) => {
  const entry = await findDoNotCall(db, tenantId, number, at);
  if (entry) {
    const msg = new AppError('DNC_LISTED').message.replace('{reason}', entry.reason || '客户拒绝来电');
    throw new AppError('DNC_LISTED', msg);
  }
};

const checkCallHours = (settings: CallSettings, at: Date) => {
  const refusal = callHoursRefusal(settings.callHours, at);
  if (refusal) throw new AppError('CALL_OUTSIDE_HOURS', refusal);
};

/**
 * The per-number caps, inside the transaction that inserts the call record: the number stays
 * locked for the company until it commits, so two dials at once cannot both pass.
 */
export const checkCapsInTx = async (tx: DbOrTx, tenantId: number, number: string, at: Date) => {
  const settings = await callSettingsOf(tx, tenantId);
  await checkNumberCaps(tx, tenantId, number, settings, at);
};

// ---------- the two entries ----------

/**
 * An agent's dial, before the line checks (calls-dial.ts checks the extension and the channel in
 * between): the number by customer id, the SPEC §5 number rule. Returns the number and customer.
 */
export const agentDialNumber = async (
  db: Db,
  actor: Actor,
  req: { cmCtid?: number; cbTacid?: number; ccId?: number; dstNumber?: string; cmStid?: number },
) => {
  let customer: CustomerRecord | undefined;
  let raw = req.dstNumber ?? '';
  if (req.cmCtid) {
    customer = await requireVisibleCustomer(db, actor, req.cmCtid);
    if (req.cbTacid || req.ccId || !raw) {
      raw = (await customerNumber(db, actor, customer, { cbTacid: req.cbTacid, ccId: req.ccId })) ?? '';
    }
  }
  return { number: dialNumberOf(raw, Boolean(req.cmStid)), customer };
};

/**
 * An agent's dial, once the line may dial: the company, the customer of the number, the dial lock,
 * the blacklist, the 禁拨 list, the calling hours (unless the company lets manual dials out of them).
 */
export const checkAgentDial = async (
  rt: CallRuntime,
  actor: Actor,
  dial: {
    number: string;
    customer: CustomerRecord | undefined;
    isTask: boolean;
    /** a seat task that filters the blacklist (blackState 1) discards a blacklisted customer: 100011, not 100014 */
    isBlacklistDiscarded?: boolean;
    endAbandoned: EndAbandoned;
  },
  at: Date = now(),
) => {
  await checkCompanyActive(rt.db, actor.tenantId);
  const customer = dial.customer ?? (await findVisibleCustomerByPhone(rt.db, actor, dial.number));
  await checkDialLock(rt, actor.staffId, dial.number, dial.endAbandoned);
  await checkBlacklist(rt.db, actor.tenantId, dial.number, dial.isTask && !dial.isBlacklistDiscarded, customer?.id);
  await checkDoNotCall(rt.db, actor.tenantId, dial.number, at);
  const settings = await callSettingsOf(rt.db, actor.tenantId);
  if (settings.manualObeysHours || dial.isTask) checkCallHours(settings, at);
  return customer;
};

// the system as an actor (aicall and the tests read it here)
export { systemActor } from './call-actors';

export type ServerDialRequest = {
  tenantId: number;
  /** the customer to call (his first number, or the one named by cbTacid/ccId); or `number` */
  customerId?: number;
  cbTacid?: number;
  ccId?: number;
  number?: string;
  /** a task's leg: any number with a digit, 100014 on the blacklist */
  taskId?: number;
  /**
   * a task's number (`number`) that belongs to this customer (issue 22): the call is his, so every
   * surface masks its number by his rule; none, or gone: the customer of the number, if any
   */
  linkCustomerId?: number | null;
  /** who asked for the leg (a manager starting a task): the customer must be in his sight */
  actor?: Actor;
};

export type ServerDial = { number: string; customer: CustomerRecord | undefined; callerId: string };

/** A leg the server places to a customer (task, dialer, bot): every rule, plus the company's hours and caller number. */
export const checkServerDial = async (db: Db, req: ServerDialRequest, at: Date = now()): Promise<ServerDial> => {
  await checkCompanyActive(db, req.tenantId);
  const actor = req.actor ?? systemActor(req.tenantId);
  if (actor.tenantId !== req.tenantId) throw new AppError('CUSTOMER_NOT_FOUND');
  let customer: CustomerRecord | undefined;
  let raw = req.number ?? '';
  if (req.customerId) {
    customer = req.actor
      ? await requireVisibleCustomer(db, actor, req.customerId)
      : await findCustomerRecord(db, req.tenantId, req.customerId);
    if (!customer) throw new AppError('CUSTOMER_NOT_FOUND');
    raw = (await customerNumber(db, actor, customer, { cbTacid: req.cbTacid, ccId: req.ccId })) ?? '';
  }
  const isTask = Boolean(req.taskId);
  const number = dialNumberOf(raw, isTask);
  if (!customer && req.linkCustomerId) customer = await findCustomerRecord(db, req.tenantId, req.linkCustomerId);
  customer ??= await findVisibleCustomerByPhone(db, actor, number);
  await checkBlacklist(db, req.tenantId, number, isTask, customer?.id);
  await checkDoNotCall(db, req.tenantId, number, at);
  const settings = await callSettingsOf(db, req.tenantId);
  checkCallHours(settings, at);
  return { number, customer, callerId: settings.callerNumber };
};
