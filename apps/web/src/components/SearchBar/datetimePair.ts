import dayjs, { type Dayjs } from 'dayjs';

/** SPEC §5: the pair starts on the first of the current month 00:00:00 and ends now. */
export const defaultDatetimePair = (now: Dayjs = dayjs()): [Dayjs, Dayjs] => [now.startOf('month'), now];

/** SPEC §5: the end may not pass the end of the start's month, nor come before the start's day. */
export const isEndDateDisabled = (date: Dayjs, start: Dayjs | null | undefined): boolean =>
  !!start && (date.isAfter(start.endOf('month')) || date.isBefore(start.startOf('day')));

/** SPEC §5: the start may not come before the first of the end's month, nor after the end's day. */
export const isStartDateDisabled = (date: Dayjs, end: Dayjs | null | undefined): boolean =>
  !!end && (date.isBefore(end.startOf('month')) || date.isAfter(end.endOf('day')));

/**
 * Keeps a pair valid after one end changed: an end outside the start's month is pulled back to
 * the end of that month; an end before the start becomes the start.
 */
export const fitDatetimePair = (start: Dayjs | null, end: Dayjs | null): [Dayjs | null, Dayjs | null] => {
  if (!start || !end) return [start, end];
  if (end.isAfter(start.endOf('month'))) return [start, start.endOf('month')];
  if (end.isBefore(start)) return [start, start];
  return [start, end];
};
