import {
  CALLTASK_LIMITS,
  type CalltaskCreateBody,
  type CalltaskEditBody,
  type CalltaskRow,
  type CustomerWhere,
  rangesInsideHours,
  rangesOverlap,
  type TimeRange,
} from '@crm/contracts';
import dayjs, { type Dayjs } from 'dayjs';

// The seat-task form (issue 15): its values, the checks the contract makes (with its Chinese
// messages), the imported number list, and the request bodies.

export type SourceKind = 'filter' | 'select' | 'import';
export type RangeValue = [Dayjs | null, Dayjs | null] | null;

export type FilterValues = {
  kind: CustomerWhere['kind'];
  name?: string;
  contactPhone?: string;
  cmNid?: number;
  cmClids?: number[];
  followCmSid?: number;
  lastContactStatus?: number;
  createTime?: RangeValue;
};

export type TaskFormValues = {
  name: string;
  source: SourceKind;
  filter: FilterValues;
  cmCtids: number[];
  numbersText: string;
  customerInfoState: boolean;
  cmSidInfo: number[];
  cmWeeks: number[];
  cmTimes: RangeValue[];
  blackState: boolean;
  redialMinutes: number;
  maxAttempts: number;
  wrapUpSeconds: number;
  failPoolId: number;
  failReasonId: number;
};

/** 'HH:mm' as a time of today (the TimePicker's value). */
export const timeOf = (hhmm: string): Dayjs => {
  const [h, m] = hhmm.split(':').map(Number);
  return dayjs().hour(h).minute(m).second(0).millisecond(0);
};

export const WEEK_OPTIONS = ['周一', '周二', '周三', '周四', '周五', '周六', '周日'].map((label, i) => ({
  label,
  value: i + 1,
}));

export const DEFAULT_VALUES: TaskFormValues = {
  name: '',
  source: 'filter',
  filter: { kind: 'mine' },
  cmCtids: [],
  numbersText: '',
  customerInfoState: false,
  cmSidInfo: [],
  cmWeeks: [1, 2, 3, 4, 5],
  cmTimes: [
    [timeOf('09:00'), timeOf('12:00')],
    [timeOf('14:00'), timeOf('18:00')],
  ],
  blackState: true,
  redialMinutes: 30,
  maxAttempts: 1,
  wrapUpSeconds: 10,
  failPoolId: 0,
  failReasonId: 0,
};

const PHONE_LINE = /^\+?[\d\s\-()（）]+$/;

export type ParsedNumbers = {
  numbers: string[];
  /** 1-based line numbers and texts of the lines that are not numbers */
  invalid: { line: number; text: string }[];
  duplicates: number;
};

/** One number a line (blank lines skipped); 4–20 digits; repeats counted once. */
export const parseNumberLines = (text: string): ParsedNumbers => {
  const seen = new Set<string>();
  const out: ParsedNumbers = { numbers: [], invalid: [], duplicates: 0 };
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const digits = line.replace(/\D/g, '');
    if (!PHONE_LINE.test(line) || line.length > 30 || digits.length < 4 || digits.length > 20) {
      out.invalid.push({ line: i + 1, text: line.slice(0, 40) });
      return;
    }
    if (seen.has(digits)) {
      out.duplicates += 1;
      return;
    }
    seen.add(digits);
    out.numbers.push(line);
  });
  return out;
};

export const toRanges = (values: RangeValue[]): TimeRange[] =>
  values.flatMap((r) => (r?.[0] && r[1] ? [{ start: r[0].format('HH:mm'), end: r[1].format('HH:mm') }] : []));

/** The time ranges' refusal (the contract's messages, then the company's hours), or null. */
export const timesRefusal = (values: RangeValue[], hours?: { from: string; to: string }): string | null => {
  if (values.length === 0) return '请添加外呼时段';
  if (values.some((r) => !r?.[0] || !r[1])) return '请选择外呼时段';
  const ranges = toRanges(values);
  if (ranges.some((r) => r.start >= r.end)) return '结束时间须晚于开始时间';
  if (rangesOverlap(ranges)) return '外呼时段不能重叠';
  if (hours && !rangesInsideHours(ranges, hours)) return `外呼时段须在公司允许的外呼时间（${hours.from}–${hours.to}）内`;
  return null;
};

const dateRange = (r: RangeValue) => (r?.[0] && r[1] ? [r[0].format('YYYY-MM-DD'), r[1].format('YYYY-MM-DD')] : undefined);

export const customerWhereOf = (f: FilterValues): CustomerWhere => ({
  kind: f.kind,
  filter: {
    name: f.name?.trim() || undefined,
    contactPhone: f.contactPhone?.trim() || undefined,
    cmNid: f.cmNid,
    cmClids: f.cmClids?.length ? f.cmClids : undefined,
    followCmSid: f.followCmSid,
    lastContactStatus: f.lastContactStatus,
    createTime: dateRange(f.createTime ?? null),
    templateControls: [],
  },
});

const settingsOf = (v: TaskFormValues) => ({
  name: v.name.trim(),
  cmSidInfo: v.cmSidInfo,
  cmWeeks: [...v.cmWeeks].sort(),
  cmTimes: toRanges(v.cmTimes),
  redialMinutes: v.redialMinutes,
  maxAttempts: v.maxAttempts,
  wrapUpSeconds: v.wrapUpSeconds,
  failPoolId: v.failPoolId,
  failReasonId: v.failPoolId ? v.failReasonId : 0,
});

export const createBodyOf = (v: TaskFormValues): CalltaskCreateBody => {
  const source =
    v.source === 'filter'
      ? { customerWhere: customerWhereOf(v.filter) }
      : v.source === 'select'
        ? { cmCtids: v.cmCtids }
        : { numbers: parseNumberLines(v.numbersText).numbers };
  return {
    ...settingsOf(v),
    ...source,
    customerInfoState: v.customerInfoState ? 1 : 0,
    blackState: v.blackState ? 1 : 0,
  } as CalltaskCreateBody;
};

export const editBodyOf = (cmStid: number, v: TaskFormValues): CalltaskEditBody => ({ cmStid, ...settingsOf(v) });

/** The form of a saved task (edit): its settings; its numbers stay as they are. */
export const valuesOfRow = (row: CalltaskRow): TaskFormValues => ({
  ...DEFAULT_VALUES,
  name: row.name,
  customerInfoState: row.customerInfoState === 1,
  cmSidInfo: row.cmSidInfo.map((a) => a.cmSid),
  cmWeeks: row.cmWeeks,
  cmTimes: row.cmTimes.map((r) => [timeOf(r.start), timeOf(r.end)]),
  blackState: row.blackState === 1,
  redialMinutes: row.redialMinutes,
  maxAttempts: row.maxAttempts,
  wrapUpSeconds: row.wrapUpSeconds,
  failPoolId: row.failPoolId,
  failReasonId: row.failReasonId,
});

export const MAX_NUMBERS = CALLTASK_LIMITS.numbers;

/** 1h 2m 3s → '1小时2分3秒' (talk time). */
export const formatBillsec = (s: number) => {
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h}小时${m}分${sec}秒`;
  if (m > 0) return `${m}分${sec}秒`;
  return `${sec}秒`;
};

/** Progress: the settled share of the numbers (total − left). */
export const progressPercent = (row: Pick<CalltaskRow, 'totalNum' | 'leftNum'>) =>
  row.totalNum === 0 ? 0 : Math.round(((row.totalNum - row.leftNum) / row.totalNum) * 100);
