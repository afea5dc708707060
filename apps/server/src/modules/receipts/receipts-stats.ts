import { RECEIPT_STATS, type ReceiptStats, type ReceiptStatsQuery } from '@crm/contracts';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { requireModuleOn } from '../company/company-modules';
import { scopeStaffIds } from '../staff/staff.service';
import { addDays, businessToday } from './receipts.service';
import * as repo from './receipts-stats.repo';

/** 'YYYY-MM' shifted by n months. */
export const addMonths = (month: string, n: number) => {
  const [y, m] = month.split('-').map(Number);
  const i = y * 12 + (m - 1) + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
};
const monthsBetween = (a: string, b: string) => {
  const [ya, ma] = a.split('-').map(Number);
  const [yb, mb] = b.split('-').map(Number);
  return (yb - ya) * 12 + (mb - ma);
};

/**
 * 回款管理 figures in the caller's data scope: counted receipts (approval-free or approved) by month
 * and by staff within the month window (default the last 12 months by the business clock), and what
 * open plans still expect on each day from today to today + 30.
 */
export const receiptStats = async (db: Db, actor: Actor, q: ReceiptStatsQuery): Promise<ReceiptStats> => {
  await requireModuleOn(db, actor.tenantId, 'receipt');
  const today = businessToday();
  const end = q.end || (q.start ? addMonths(q.start, RECEIPT_STATS.defaultMonths - 1) : today.slice(0, 7));
  const start = q.start || addMonths(end, 1 - RECEIPT_STATS.defaultMonths);
  const span = monthsBetween(start, end) + 1;
  if (span > RECEIPT_STATS.maxMonths) throw new AppError('RECEIPT_STATS_RANGE');
  const f: repo.StatsFilter = { tenantId: actor.tenantId, ownerIds: await scopeStaffIds(db, actor), staffId: q.staff_id };
  const from = `${start}-01`;
  const toExclusive = `${addMonths(end, 1)}-01`;
  const last = addDays(today, RECEIPT_STATS.dueDays);
  const [months, staff, due] = await Promise.all([
    repo.receivedByMonth(db, f, from, toExclusive),
    repo.receivedByStaff(db, f, from, toExclusive, RECEIPT_STATS.topStaff),
    repo.dueByDay(db, f, today, last),
  ]);
  const perMonth = new Map(months.map((m) => [m.month, Number(m.amount)]));
  const perDay = new Map(due.map((d) => [d.day, d]));
  return {
    byMonth: Array.from({ length: span }, (_, i) => {
      const month = addMonths(start, i);
      return { month, amount: perMonth.get(month) ?? 0 };
    }),
    byStaff: staff.map((s) => ({
      staff_id: s.staff_id,
      name: s.staff_id === 0 ? '其他' : (s.name ?? ''),
      amount: Number(s.amount),
    })),
    dueNext30: Array.from({ length: RECEIPT_STATS.dueDays + 1 }, (_, i) => {
      const day = addDays(today, i);
      const d = perDay.get(day);
      return { day, amount: d ? Number(d.amount) : 0, count: d?.count ?? 0 };
    }),
  };
};
