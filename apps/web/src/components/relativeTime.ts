import dayjs, { type Dayjs } from 'dayjs';
import { formatShanghai, parseServerTime } from './shanghaiTime';

/**
 * SPEC §9 relative times: under 30 s 刚刚, then N分钟前, N小时前, 1天前; two days and more
 * show the date. Future or unparsable times show the value as given; empty shows '-'.
 */
export const relativeTime = (value: string | Dayjs | null | undefined, now: Dayjs = dayjs()): string => {
  if (!value) return '-';
  // Server strings are Shanghai time (SPEC §9), whatever the browser's zone.
  const at = typeof value === 'string' ? parseServerTime(value) : value;
  if (!at.isValid()) return String(value);
  const seconds = now.diff(at, 'second');
  if (seconds < 0) return formatShanghai(at, 'YYYY-MM-DD HH:mm');
  if (seconds < 30) return '刚刚';
  if (seconds < 3600) return `${Math.max(1, Math.floor(seconds / 60))}分钟前`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}小时前`;
  if (seconds < 2 * 86_400) return '1天前';
  return formatShanghai(at, 'YYYY-MM-DD');
};
