import dayjs, { type Dayjs } from 'dayjs';
import { shanghaiNow } from '../shanghaiTime';
import { defaultDatetimePair } from './datetimePair';
import { type NumberRangeText, toNumberRange } from './numberRange';
import type { SearchField, SearchFieldKind, SearchValues } from './types';

const DATE = 'YYYY-MM-DD';
const DATETIME = 'YYYY-MM-DD HH:mm:ss';

/** SPEC §2: how many fields of each kind one search bar may hold (template filters aside). */
export const SEARCH_FIELD_LIMITS: Partial<Record<SearchFieldKind, number>> = {
  text: 3,
  remoteSelect: 1,
  cascader: 2,
  select: 5,
  date: 1,
  // creation-date, allotment-date, time-range and one more date-range picker
  dateRange: 4,
  datetimePair: 1,
  numberRange: 2,
};

/** The kinds used more often than SPEC §2 allows, as messages (empty when the bar is fine). */
export const checkFieldLimits = (fields: SearchField[]): string[] => {
  const counts = new Map<SearchFieldKind, number>();
  for (const f of fields) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  const problems: string[] = [];
  for (const [kind, n] of counts) {
    const limit = SEARCH_FIELD_LIMITS[kind];
    if (limit !== undefined && n > limit) problems.push(`SearchBar: ${n} fields of kind ${kind}, at most ${limit}`);
  }
  return problems;
};

/** Form values a bar starts with (and returns to on 重置): only the datetime pair has defaults. */
export const initialFormValues = (fields: SearchField[], now: Dayjs = shanghaiNow()): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f.kind === 'datetimePair') out[f.name] = defaultDatetimePair(now);
  return out;
};

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
const asDayjs = (v: unknown): Dayjs | null => (dayjs.isDayjs(v) ? v : null);

/** One field's form value → its emitted value (undefined when empty). */
const emitted = (field: SearchField, raw: unknown): unknown => {
  if (isEmpty(raw)) return undefined;
  switch (field.kind) {
    case 'text': {
      const text = String(raw).trim();
      return text === '' ? undefined : text;
    }
    case 'date':
      return asDayjs(raw)?.format(DATE);
    case 'dateRange': {
      const [start, end] = (raw as unknown[]).map(asDayjs);
      if (!start && !end) return undefined;
      // SPEC §9: a date range covers whole days, start 00:00:00 and end 23:59:59.
      if (field.valueFormat === 'date') return [start?.format(DATE) ?? '', end?.format(DATE) ?? ''];
      return [start?.startOf('day').format(DATETIME) ?? '', end?.endOf('day').format(DATETIME) ?? ''];
    }
    case 'datetimePair': {
      const [start, end] = (raw as unknown[]).map(asDayjs);
      if (!start && !end) return undefined;
      return [start?.format(DATETIME) ?? '', end?.format(DATETIME) ?? ''];
    }
    case 'numberRange':
      return toNumberRange(raw as NumberRangeText);
    default:
      return raw;
  }
};

/** The form's values → what the bar emits: empty fields left out, dates as strings (SPEC §9). */
export const toSearchValues = (fields: SearchField[], raw: Record<string, unknown>): SearchValues => {
  const out: SearchValues = {};
  for (const f of fields) {
    const v = emitted(f, raw[f.name]);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
};
