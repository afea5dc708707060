import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);

/** Minutes east of UTC of Asia/Shanghai (China has no DST). */
const SHANGHAI_OFFSET_MIN = 8 * 60;

/**
 * The server sends times as `YYYY-MM-DD HH:mm:ss` in Asia/Shanghai (SPEC §9); read them as
 * such whatever the browser's own time zone is.
 */
export const parseServerTime = (value: string): Dayjs => dayjs(`${value.trim().replace(' ', 'T')}+08:00`);

/** Formats an instant in Asia/Shanghai time. */
export const formatShanghai = (at: Dayjs, format = 'YYYY-MM-DD HH:mm:ss'): string =>
  at.utcOffset(SHANGHAI_OFFSET_MIN).format(format);

/** SPEC §3: unix seconds shown as a Shanghai date-time, or '-' for none. */
export const unixText = (seconds: number): string => (seconds > 0 ? formatShanghai(dayjs.unix(seconds)) : '-');

/**
 * The Shanghai wall clock of an instant (default now) as a date-picker value: what the server
 * means by a 'YYYY-MM-DD HH:mm:ss' whatever the browser's zone, so a default "until now" really
 * reaches now (issue 11: the call records' date filter).
 */
export const shanghaiNow = (at: Dayjs = dayjs()): Dayjs => dayjs(formatShanghai(at));
