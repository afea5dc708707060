import {
  DIAL_ORIGIN_LABEL,
  DIAL_REFUSAL_KIND,
  type DialRefusal,
  type DialRefusalListQuery,
  type DialRefusalStat,
  type ListData,
} from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime, parseDateTime, startOfTodayShanghai } from '../../lib/time';
import { canSee, showPhone, type Viewer } from '../customers/customer-access';
import { viewerOf } from '../customers/customers.service';
import * as repo from './compliance.repo';
import { isListedNumberMasked } from './dnc.service';
import { customerIdOfNumber, type ListedNames, listedNamesOf } from './listed-names';

// The log of dials the dial policy refused (外呼拦截记录, issue 15).

/** Who tried the refused dial: an agent (origin 0) or a server leg (origin 1, of a task or not). */
export type RefusalContext = {
  tenantId: number;
  origin: 0 | 1;
  staffId: number | null;
  taskId: number;
  customerId?: number | null;
  /** the normalised number, once known; else the digits typed */
  number?: string;
};

/**
 * Writes the refusal when `err` is one the log keeps (number rules, blacklist, 禁拨, hours, caps).
 * Call it outside the refused dial's transaction (that one rolled back). Other errors pass by.
 */
export const recordRefusal = async (db: Db, ctx: RefusalContext, err: unknown) => {
  if (!(err instanceof AppError) || !(err.code in DIAL_REFUSAL_KIND)) return;
  const phone = (ctx.number ?? '').replace(/[^\d*#+]/g, '').slice(0, 32);
  const fromError = (err.data as { cmCtid?: number } | null)?.cmCtid;
  // the number's customer, whoever may see him: each viewer of the log gets that customer's masking
  const customerId = ctx.customerId || fromError || (phone ? await customerIdOfNumber(db, ctx.tenantId, phone, ctx.staffId) : 0);
  await repo.insertRefusal(db, {
    tenantId: ctx.tenantId,
    origin: ctx.origin,
    staffId: ctx.staffId,
    taskId: ctx.taskId,
    customerId: customerId || null,
    phone,
    code: err.code,
    reason: err.message.slice(0, 200),
    createdAt: now(),
  });
};

/** Runs a dial, logging its refusal if the dial policy refuses it; the error still reaches the caller. */
export const withRefusalLog = async <T>(db: Db, ctx: RefusalContext, dial: () => Promise<T>): Promise<T> => {
  try {
    return await dial();
  } catch (err) {
    await recordRefusal(db, ctx, err);
    throw err;
  }
};

const rangeStart = (s?: string) => (s ? (parseDateTime(s.length === 10 ? `${s} 00:00:00` : s) ?? undefined) : undefined);
const rangeEnd = (s?: string) => (s ? (parseDateTime(s.length === 10 ? `${s} 23:59:59` : s) ?? undefined) : undefined);

const toRow = (r: Awaited<ReturnType<typeof repo.listRefusals>>[number] & ListedNames, v: Viewer): DialRefusal => {
  const x = r.refusal;
  const isMasked = isListedNumberMasked(v, { ...r, customerId: x.customerId });
  const isNamed = r.customerFound !== null && canSee(v, { ownerId: r.customerOwnerId, poolId: r.customerPoolId });
  return {
    id: x.id,
    origin: x.origin,
    originName: DIAL_ORIGIN_LABEL[x.origin] ?? '',
    cmSid: x.staffId ?? 0,
    cmSidName: r.staffName ?? (x.staffId === null ? '系统' : ''),
    cmStid: x.taskId,
    cmCtid: isNamed ? (x.customerId ?? 0) : 0,
    customerName: isNamed ? (r.customerName ?? '') : '',
    phone: showPhone(isMasked, x.phone),
    encryptPhone: isMasked ? 1 : 0,
    code: x.code,
    kind: DIAL_REFUSAL_KIND[x.code] ?? '',
    reason: x.reason,
    createTime: formatDateTime(x.createdAt),
  };
};

/** The codes of one kind (100011 and 100014 are both 黑名单). */
const codesOf = (code: number | undefined) => {
  if (code === undefined) return undefined;
  const kind = DIAL_REFUSAL_KIND[code];
  if (!kind) return [code];
  return Object.entries(DIAL_REFUSAL_KIND)
    .filter(([, k]) => k === kind)
    .map(([c]) => Number(c));
};

/** 外呼拦截记录: refusals of the staff in the caller's data scope (server legs: whole-company scope only). */
export const listRefusals = async (db: Db, actor: Actor, q: DialRefusalListQuery): Promise<ListData<DialRefusal>> => {
  const v = await viewerOf(db, actor);
  const f: repo.RefusalFilter = {
    tenantId: actor.tenantId,
    scope: v.scope,
    staffId: q.cmSid || undefined,
    codes: codesOf(q.code || undefined),
    from: rangeStart(q.startTime),
    to: rangeEnd(q.endTime),
  };
  const [rows, count] = await Promise.all([repo.listRefusals(db, f, q.limit, (q.page - 1) * q.limit), repo.countRefusals(db, f)]);
  const namesOf = await listedNamesOf(
    db,
    actor.tenantId,
    rows.map((r) => r.refusal),
  );
  return { count, list: rows.map((r) => toRow({ ...r, ...namesOf(r.refusal) }, v)) };
};

const DAY_MS = 86_400_000;

/** Refusals per day over the last 7 Beijing days (today included), per kind, in the caller's scope. */
export const refusalStat = async (db: Db, actor: Actor): Promise<DialRefusalStat> => {
  const v = await viewerOf(db, actor);
  const from = new Date(startOfTodayShanghai(now()).getTime() - 6 * DAY_MS);
  const rows = await repo.refusalsPerDay(db, { tenantId: actor.tenantId, scope: v.scope, from });
  const days = Array.from({ length: 7 }, (_, i) => formatDateTime(new Date(from.getTime() + i * DAY_MS)).slice(0, 10));
  const kinds = [...new Set(Object.values(DIAL_REFUSAL_KIND))];
  const series = kinds.map((kind) => ({
    kind,
    counts: days.map((day) =>
      rows.filter((r) => r.day === day && DIAL_REFUSAL_KIND[r.code] === kind).reduce((a, r) => a + Number(r.n), 0),
    ),
  }));
  return { days, series: series.filter((s) => s.counts.some((n) => n > 0)) };
};
