import {
  CALL_TYPE,
  type CallListBody,
  type CallRecordRow,
  HANGUP_CAUSE_LABEL,
  type ListData,
  type SeatsStat,
} from '@crm/contracts';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime, parseDateTime, startOfTodayShanghai } from '../../lib/time';
import { canSee, isAnyMasked, phoneMatchOf, showPhone, type Viewer } from '../customers/customer-access';
import { viewerOf } from '../customers/customers.service';
import { departmentNames } from '../departments/departments.service';
import { findDefaultSip } from '../extensions/extensions.service';
import { scopeStaffIds } from '../staff/staff.service';
import { staffNames } from '../staff/staff-lookup';
import { isNumberMaskedFor } from './call-access';
import type { CallRuntime } from './call-bus';
import * as repo from './calls.repo';

// The call records as the caller may see them: call/list and the seats workbench.

const { CALL_STATE } = repo;

const rangeStart = (s?: string) => (s ? (parseDateTime(s.length === 10 ? `${s} 00:00:00` : s) ?? undefined) : undefined);
const rangeEnd = (s?: string) => (s ? (parseDateTime(s.length === 10 ? `${s} 23:59:59` : s) ?? undefined) : undefined);

/**
 * Who is on a call no agent took (issue 22): a trunk call the server answered is AI接待's (the
 * bot took it on a reception number); a call the server placed (task, bot, dialer, test) is 系统外呼.
 */
const systemStaffName = (c: repo.CallListRow['call']) => {
  if (c.staffId !== null) return '';
  return c.callType === CALL_TYPE.inbound ? 'AI接待' : '系统外呼';
};

type NamedCallRow = repo.CallListRow & { staffName: string | null; departmentName: string | null };

/** The staff and department names of a page of calls, from their modules. */
const withNames = async (db: Db, tenantId: number, rows: repo.CallListRow[]): Promise<NamedCallRow[]> => {
  const [staff, departments] = await Promise.all([
    staffNames(
      db,
      tenantId,
      rows.flatMap((r) => (r.call.staffId === null ? [] : [r.call.staffId])),
    ),
    departmentNames(db, tenantId, [...new Set(rows.flatMap((r) => (r.call.departmentId === null ? [] : [r.call.departmentId])))]),
  ]);
  return rows.map((r) => ({
    ...r,
    staffName: r.call.staffId === null ? null : (staff.get(r.call.staffId) ?? null),
    departmentName: r.call.departmentId === null ? null : (departments.get(r.call.departmentId) ?? null),
  }));
};

const toRow = (r: NamedCallRow, v: Viewer): CallRecordRow => {
  const c = r.call;
  const customer =
    r.customerOwnerId !== null || r.customerPoolId !== null
      ? { ownerId: r.customerOwnerId, poolId: r.customerPoolId }
      : undefined;
  const shouldMask = isNumberMaskedFor(v, c, customer);
  const isNamed = customer !== undefined && canSee(v, customer);
  const show = (n: string) => showPhone(shouldMask, n);
  return {
    uuid: c.uuid,
    yearMonth: c.yearMonth,
    callType: c.callType,
    cmSid: c.staffId ?? 0,
    cmSidName: r.staffName ?? systemStaffName(c),
    cmDid: c.departmentId ?? 0,
    cmDidName: r.departmentName ?? '',
    cmSipid: c.sipId ?? 0,
    cmSipuser: c.sipUser,
    cmgoidCaller: c.callType === CALL_TYPE.inbound ? show(c.caller) : c.caller,
    dstNumber: show(c.calledNumber),
    encryptPhone: shouldMask ? 1 : 0,
    cmCtid: isNamed ? (c.customerId ?? 0) : 0,
    customerName: isNamed ? (r.customerName ?? '') : '',
    cmStid: c.taskId,
    startTime: formatDateTime(c.startAt),
    ringTime: formatDateTime(c.ringAt),
    answerTime: formatDateTime(c.answerAt),
    endTime: formatDateTime(c.endAt),
    billsec: c.billsec,
    hangupPeople: c.hangupSide,
    hangupCause: c.hangupCause,
    hangupCauseName: HANGUP_CAUSE_LABEL[c.hangupCause] ?? '',
    recordFile: c.recordFile,
    isActive: c.state < CALL_STATE.ended ? 1 : 0,
  };
};

/** call/list (/call/record): the calls of the staff in the caller's data scope, numbers masked for masked viewers. */
export const listCalls = async (rt: CallRuntime, actor: Actor, q: CallListBody): Promise<ListData<CallRecordRow>> => {
  const v = await viewerOf(rt.db, actor);
  // Some numbers may be masked for this viewer: number filters then match whole numbers only (issue 11).
  const isNumberExact = isAnyMasked(v);
  const numberOf = (text: string | undefined) => {
    if (!text?.trim()) return undefined;
    const match = phoneMatchOf(text, isNumberExact);
    return match.kind === 'none' ? null : match.kind === 'exact' ? match.phone : match.digits;
  };
  const caller = numberOf(q.cmgoidCaller);
  const number = numberOf(q.dstNumber);
  if (caller === null || number === null) return { count: 0, list: [] };
  const f: repo.CallFilter = {
    tenantId: actor.tenantId,
    scope: await scopeStaffIds(rt.db, actor),
    uuid: q.uuid || undefined,
    departmentId: q.cmDid || undefined,
    staffId: q.cmSid || undefined,
    sipUser: q.cmSipuser?.trim() || undefined,
    caller,
    number,
    isNumberExact,
    minBillsec: q.startBillsec,
    maxBillsec: q.endBillsec,
    callType: q.callType || undefined,
    hangupSide: q.hangupPeople || undefined,
    from: rangeStart(q.startTime),
    to: rangeEnd(q.endTime),
    taskId: q.cmStid || undefined,
    isConnected: q.isConnected === 1 ? true : q.isConnected === 2 ? false : undefined,
  };
  const [rows, count] = await Promise.all([repo.listCalls(rt.db, f, q.limit, (q.page - 1) * q.limit), repo.countCalls(rt.db, f)]);
  const named = await withNames(rt.db, actor.tenantId, rows);
  return { count, list: named.map((r) => toRow(r, v)) };
};

/** seats/stat (/seats/Index): the caller's calls today, per hour, and his latest calls. */
export const seatsStat = async (rt: CallRuntime, actor: Actor): Promise<SeatsStat> => {
  const from = startOfTodayShanghai(now());
  const hours = await repo.hourlyStats(rt.db, actor.tenantId, actor.staffId, from);
  const sum = (k: 'calls' | 'connected' | 'billsec' | 'inbound') => hours.reduce((a, h) => a + h[k], 0);
  const calls = sum('calls');
  const connected = sum('connected');
  const totalBillsec = sum('billsec');
  const v = await viewerOf(rt.db, actor);
  const latest = await withNames(
    rt.db,
    actor.tenantId,
    await repo.listCalls(rt.db, { tenantId: actor.tenantId, scope: [actor.staffId] }, 10, 0),
  );
  const sip = await findDefaultSip(rt.db, actor.tenantId, actor.staffId);
  return {
    today: {
      calls,
      connected,
      connectRate: calls ? Math.round((connected / calls) * 1000) / 10 : 0,
      totalBillsec,
      avgBillsec: connected ? Math.round(totalBillsec / connected) : 0,
      inbound: sum('inbound'),
    },
    perHour: Array.from({ length: 24 }, (_, hour) => {
      const h = hours.find((x) => x.hour === hour);
      return { hour, calls: h?.calls ?? 0, connected: h?.connected ?? 0 };
    }),
    latest: latest.map((r) => toRow(r, v)),
    sipUser: sip?.sip.user ?? '',
    registerStatus: sip?.sip.registerStatus ?? 0,
  };
};
