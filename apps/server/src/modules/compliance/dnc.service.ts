import {
  CALL_TYPE,
  COMPLIANCE_DEFAULTS,
  DNC_REASON_DEFAULT,
  DNC_SOURCE,
  DNC_SOURCE_LABEL,
  type DncAddBody,
  type DncAddFromCallBody,
  type DncEntry,
  type DncListQuery,
  type DncSource,
  type ListData,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { normalisePhone } from '../../lib/phone';
import { formatDateTime } from '../../lib/time';
import { canSee, isAnyMasked, phoneMatchOf, showPhone, type Viewer } from '../customers/customer-access';
import { viewerOf } from '../customers/customers.service';
import { scopeStaffIds } from '../staff/staff.service';
import { callFacts } from './call-facts';
import * as repo from './compliance.repo';
import { customerIdOfNumber, type ListedNames, listedNamesOf } from './listed-names';

// The 禁拨 list (do-not-call, issue 15): numbers that refused, kept for the company's retention
// (外呼设置, default 6 months; 0 forever) and never dialled while in force (dial-policy.ts).

/** The entry in force for a normalised number, if any (the dial policy's check). */
export const findDoNotCall = (db: DbOrTx, tenantId: number, phone: string, at: Date = now()) =>
  repo.findDncInForce(db, tenantId, phone, at);

export const isDoNotCall = async (db: DbOrTx, tenantId: number, phone: string, at: Date = now()) =>
  Boolean(await findDoNotCall(db, tenantId, normalisePhone(phone)?.phone ?? phone, at));

const addMonths = (at: Date, months: number) => {
  const d = new Date(at.getTime());
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
};

/**
 * Puts a number on the 禁拨 list for the company's retention from now (the task module calls it
 * when a customer refuses). Adding a number again renews its entry. Returns the entry id and
 * whether the number was already in force.
 */
export const addDoNotCall = async (
  db: DbOrTx,
  tenantId: number,
  number: string,
  opts: { reason: string; source: DncSource; staffId: number | null; customerId?: number | null },
) => {
  const phone = normalisePhone(number)?.phone;
  if (!phone) throw new AppError('DNC_NUMBER_INVALID');
  const at = now();
  const dncRetentionMonths = (await callFacts().dncRetentionMonths(db, tenantId)) ?? COMPLIANCE_DEFAULTS.dncRetentionMonths;
  return repo.upsertDnc(db, {
    tenantId,
    phone,
    reason: opts.reason.trim() || DNC_REASON_DEFAULT,
    source: opts.source,
    staffId: opts.staffId,
    customerId: opts.customerId ?? null,
    createdAt: at,
    expiresAt: dncRetentionMonths > 0 ? addMonths(at, dncRetentionMonths) : null,
  });
};

/** 禁拨名单: add a typed number (refused when already in force), linked to its customer if it has one. */
export const addManual = async (db: Db, actor: Actor, body: DncAddBody) => {
  const phone = normalisePhone(body.phone)?.phone;
  if (!phone) throw new AppError('DNC_NUMBER_INVALID');
  // the number's customer, whoever may see him: each viewer of the list gets that customer's masking
  const customerId = await customerIdOfNumber(db, actor.tenantId, phone, actor.staffId);
  return db.transaction(async (tx) => {
    if (await findDoNotCall(tx, actor.tenantId, phone)) throw new AppError('DNC_EXISTS');
    const { id } = await addDoNotCall(tx, actor.tenantId, phone, {
      reason: body.reason,
      source: DNC_SOURCE.manual,
      staffId: actor.staffId,
      customerId,
    });
    return id;
  });
};

/**
 * 加入禁拨 from a call record (/call/record): the call's number by its uuid, for calls the caller
 * may list (his data scope), so the number never has to reach his browser.
 */
export const addFromCall = async (db: Db, actor: Actor, body: DncAddFromCallBody) => {
  const call = await callFacts().findTenantCall(db, actor.tenantId, body.uuid);
  if (!call) throw new AppError('DNC_CALL_NOT_FOUND');
  const scope = await scopeStaffIds(db, actor);
  if (scope !== null && (call.staffId === null || !scope.includes(call.staffId))) throw new AppError('DNC_CALL_NOT_FOUND');
  const number = call.callType === CALL_TYPE.inbound ? call.caller : call.calledNumber;
  return db.transaction(async (tx) => {
    if (await findDoNotCall(tx, actor.tenantId, normalisePhone(number)?.phone ?? number)) throw new AppError('DNC_EXISTS');
    const { id } = await addDoNotCall(tx, actor.tenantId, number, {
      reason: body.reason,
      source: DNC_SOURCE.callRecord,
      staffId: actor.staffId,
      customerId: call.customerId,
    });
    return id;
  });
};

export const deleteDoNotCall = async (db: Db, actor: Actor, id: number) => {
  if ((await repo.deleteDnc(db, actor.tenantId, id)) === 0) throw new AppError('DNC_NOT_FOUND');
};

/**
 * Whether a number kept beside a customer id reaches this viewer masked: the customer's rule when
 * it is linked (a deleted customer's: masked); else the company's phoneEncryp rule.
 */
export const isListedNumberMasked = (
  v: Viewer,
  row: { customerId: number | null; customerFound: number | null; customerOwnerId: number | null; customerPoolId: number | null },
) => {
  if (row.customerId === null) return v.isPrivateMasked;
  if (row.customerFound === null) return true;
  const place = { ownerId: row.customerOwnerId, poolId: row.customerPoolId };
  return !canSee(v, place) || (place.ownerId === null ? v.isPoolMasked : v.isPrivateMasked);
};

const toEntry = (r: Awaited<ReturnType<typeof repo.listDnc>>[number] & ListedNames, v: Viewer, at: Date): DncEntry => {
  const e = r.entry;
  const isMasked = isListedNumberMasked(v, { ...r, customerId: e.customerId });
  const isNamed = r.customerFound !== null && canSee(v, { ownerId: r.customerOwnerId, poolId: r.customerPoolId });
  return {
    id: e.id,
    phone: showPhone(isMasked, e.phone),
    encryptPhone: isMasked ? 1 : 0,
    reason: e.reason,
    source: e.source,
    sourceName: DNC_SOURCE_LABEL[e.source] ?? '',
    cmSidName: r.staffName ?? (e.staffId === null ? '系统' : ''),
    cmCtid: isNamed ? (e.customerId ?? 0) : 0,
    customerName: isNamed ? (r.customerName ?? '') : '',
    createTime: formatDateTime(e.createdAt),
    expireTime: formatDateTime(e.expiresAt),
    isActive: e.expiresAt === null || e.expiresAt > at ? 1 : 0,
  };
};

/** 禁拨名单: the company's entries, newest first; a number filter matches whole numbers when some are masked. */
export const listDoNotCall = async (db: Db, actor: Actor, q: DncListQuery): Promise<ListData<DncEntry>> => {
  const v = await viewerOf(db, actor);
  const f: repo.DncFilter = { tenantId: actor.tenantId };
  if (q.phone?.trim()) {
    const match = phoneMatchOf(q.phone, isAnyMasked(v));
    if (match.kind === 'none') return { count: 0, list: [] };
    f.phone = match.kind === 'exact' ? { exact: match.phone } : { part: match.digits };
  }
  const [rows, count] = await Promise.all([repo.listDnc(db, f, q.limit, (q.page - 1) * q.limit), repo.countDnc(db, f)]);
  const at = now();
  const namesOf = await listedNamesOf(
    db,
    actor.tenantId,
    rows.map((r) => r.entry),
  );
  return { count, list: rows.map((r) => toEntry({ ...r, ...namesOf(r.entry) }, v, at)) };
};
