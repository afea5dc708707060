import { now } from './clock';

const SHANGHAI_OFFSET_MS = 8 * 60 * 60 * 1000;

/** `YYYY-MM-DD HH:mm:ss` in Asia/Shanghai (SPEC §9); '' for no time. China has no DST. */
export const formatDateTime = (d: Date | string | null | undefined): string => {
  if (!d) return '';
  const date = typeof d === 'string' ? toDate(d) : d;
  return new Date(date.getTime() + SHANGHAI_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
};

/** `YYYYMM` in Asia/Shanghai: the month a call record belongs to (its `yearMonth`). */
export const yearMonthOf = (at: Date): string => formatDateTime(at).slice(0, 7).replace('-', '');

/** Raw SQL may hand timestamps back as text ('2026-01-02 03:04:05.6+00'): read them as instants. */
export const toDate = (s: string): Date => new Date(s.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00'));

/** Parses `YYYY-MM-DD[ HH:mm:ss]` as Asia/Shanghai time. */
export const parseDateTime = (s: string): Date | null => {
  if (!s) return null;
  const full = s.length === 10 ? `${s} 00:00:00` : s;
  const d = new Date(`${full.replace(' ', 'T')}+08:00`);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** Start of today in Asia/Shanghai. */
export const startOfTodayShanghai = (at: Date = now()): Date => {
  const local = new Date(at.getTime() + SHANGHAI_OFFSET_MS);
  local.setUTCHours(0, 0, 0, 0);
  return new Date(local.getTime() - SHANGHAI_OFFSET_MS);
};
