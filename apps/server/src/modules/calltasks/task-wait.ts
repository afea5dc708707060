import { isInTaskWindow, type TaskWait, type TimeRange } from '@crm/contracts';
import { formatDateTime } from '../../lib/time';
import { callHoursRefusal } from '../calls/dial-policy';

// Why a running task (seat, group or AI) does not dial now, and when it will (issue 23: a task
// started outside its window showed 工作中 · 等待拨号 forever). The runners dial only inside the
// task's days and time ranges (isInTaskWindow) and, for every task call, inside the company's
// calling hours (dial-policy.ts), and only numbers due (a redial interval or a call cap sets a
// number's next_at). The earliest moment all hold is the next dial; the business clock's `at`.

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const BEIJING_OFFSET_MS = 8 * 3_600_000;
/** How far ahead the next opening is looked for: every weekday comes round within a week. */
const HORIZON_DAYS = 8;
const WEEKDAY = ['周日', '周一', '周二', '周三', '周四', '周五', '周六'];

export type CompanyHours = { from: string; to: string };
export type WaitInput = {
  weeks: number[];
  times: TimeRange[];
  hours: CompanyHours;
  /** pending numbers that may be dialled now */
  dueNow: number;
  /** the earliest next_at of the pending numbers not yet due (null: none) */
  nextNumberAt: Date | null;
};

const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const isOpen = (i: Pick<WaitInput, 'weeks' | 'times' | 'hours'>, at: Date) =>
  isInTaskWindow(i.weeks, i.times, at) && callHoursRefusal(i.hours, at) === null;
/** Beijing midnight of the day `at` falls in. */
const beijingDayStart = (at: Date) =>
  new Date(Math.floor((at.getTime() + BEIJING_OFFSET_MS) / DAY_MS) * DAY_MS - BEIJING_OFFSET_MS);

/**
 * The first moment from `at` on (to the minute) when the task's window and the company's hours are
 * both open; null when they never meet. The open set is a union of intervals whose starts are range
 * starts, the company's opening or a midnight (a new weekday), so `at` or one of those is the answer.
 */
export const nextOpenAt = (i: Pick<WaitInput, 'weeks' | 'times' | 'hours'>, at: Date): Date | null => {
  const from = new Date(Math.ceil(at.getTime() / MINUTE_MS) * MINUTE_MS);
  if (isOpen(i, at)) return at;
  const starts = [0, minuteOf(i.hours.from), ...i.times.map((r) => minuteOf(r.start))];
  const day0 = beijingDayStart(from).getTime();
  const candidates = Array.from({ length: HORIZON_DAYS }, (_, d) => starts.map((m) => day0 + d * DAY_MS + m * MINUTE_MS))
    .flat()
    .filter((t) => t >= from.getTime())
    .sort((a, b) => a - b);
  const hit = candidates.find((t) => isOpen(i, new Date(t)));
  return hit === undefined ? null : new Date(hit);
};

/** 今天 09:00, 明天 14:00, 周一 09:00 (within the week), else 12-08 09:00; Beijing time. */
export const whenText = (next: Date, at: Date): string => {
  const days = Math.round((beijingDayStart(next).getTime() - beijingDayStart(at).getTime()) / DAY_MS);
  const hhmm = formatDateTime(next).slice(11, 16);
  if (days === 0) return `今天 ${hhmm}`;
  if (days === 1) return `明天 ${hhmm}`;
  if (days < 7) return `${WEEKDAY[new Date(next.getTime() + BEIJING_OFFSET_MS).getUTCDay()]} ${hhmm}`;
  return `${formatDateTime(next).slice(5, 10)} ${hhmm}`;
};

/**
 * A running task's wait: null when it dials now (inside both windows with a number due) or has no
 * number left; otherwise the first thing that holds it and the next dial.
 */
export const taskWait = (i: WaitInput, at: Date): TaskWait | null => {
  const isWaitingNumbers = i.dueNow === 0 && i.nextNumberAt !== null && i.nextNumberAt > at;
  if (i.dueNow === 0 && !isWaitingNumbers) return null;
  const next = nextOpenAt(i, isWaitingNumbers && i.nextNumberAt ? i.nextNumberAt : at);
  const hoursText = `${i.hours.from}–${i.hours.to}`;
  if (next === null) {
    return {
      reason: 'never',
      text: `任务的外呼时段与公司外呼时段（${hoursText}）没有重叠，不会拨号，请修改外呼时段`,
      nextDialAt: '',
    };
  }
  const when = `下次拨号 ${whenText(next, at)}`;
  const base = { nextDialAt: formatDateTime(next) };
  if (!isInTaskWindow(i.weeks, i.times, at)) return { reason: 'window', text: `不在外呼时段，${when}`, ...base };
  if (callHoursRefusal(i.hours, at) !== null)
    return { reason: 'hours', text: `不在公司外呼时段（${hoursText}），${when}`, ...base };
  if (isWaitingNumbers) return { reason: 'numbers', text: `号码等待重拨间隔或呼叫上限，${when}`, ...base };
  return null;
};
