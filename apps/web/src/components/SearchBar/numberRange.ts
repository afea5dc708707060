/** SPEC §5: each end of a numeric range holds at most 8 characters. */
export const NUMBER_RANGE_MAX_LENGTH = 8;
export const NUMBER_RANGE_DEFAULT_BOUNDS = { min: 0, max: 99_999_999 } as const;
export const RANGE_ORDER_MESSAGE = '开始值必须小于结束值！';
export const rangeBoundsMessage = (min: number, max: number) => `输入值必须在${min}到${max}之间`;

/** The raw text of both ends, as typed. */
export type NumberRangeText = [string, string];

/**
 * SPEC §5 numeric input: strips everything but digits, keeps a leading minus (when negative
 * values are allowed) and cuts to `maxLength` characters.
 */
export const sanitizeNumeric = (raw: string, { allowMinus = false, maxLength = NUMBER_RANGE_MAX_LENGTH } = {}): string => {
  const isNegative = allowMinus && raw.trimStart().startsWith('-');
  const digits = raw.replace(/\D/g, '');
  return (isNegative ? `-${digits}` : digits).slice(0, maxLength);
};

const isBlank = (s: string | undefined) => s === undefined || s === '' || s === '-';

/**
 * Checks the end the user has just left (SPEC §5 search bar):
 * - outside [min, max]: warns 输入值必须在{min}到{max}之间, clamps that end and clears the other;
 * - start greater than end: warns 开始值必须小于结束值！ and clears the end just edited.
 */
export const checkNumberRange = (
  value: NumberRangeText,
  edited: 0 | 1,
  bounds: { min?: number; max?: number } = {},
): { value: NumberRangeText; warning?: string } => {
  const min = bounds.min ?? NUMBER_RANGE_DEFAULT_BOUNDS.min;
  const max = bounds.max ?? NUMBER_RANGE_DEFAULT_BOUNDS.max;
  const next: NumberRangeText = [isBlank(value[0]) ? '' : value[0], isBlank(value[1]) ? '' : value[1]];
  const text = next[edited];
  if (text === '') return { value: next };
  const n = Number(text);
  if (n < min || n > max) {
    const clamped: NumberRangeText = ['', ''];
    clamped[edited] = String(Math.min(max, Math.max(min, n)));
    return { value: clamped, warning: rangeBoundsMessage(min, max) };
  }
  if (next[0] !== '' && next[1] !== '' && Number(next[0]) > Number(next[1])) {
    const cleared: NumberRangeText = [...next];
    cleared[edited] = '';
    return { value: cleared, warning: RANGE_ORDER_MESSAGE };
  }
  return { value: next };
};

/** The emitted form of a range: numbers, missing ends left out; undefined when both are empty. */
export const toNumberRange = (value: NumberRangeText | undefined): { min?: number; max?: number } | undefined => {
  if (!value) return undefined;
  const [start, end] = value;
  const out: { min?: number; max?: number } = {};
  if (!isBlank(start)) out.min = Number(start);
  if (!isBlank(end)) out.max = Number(end);
  return out.min === undefined && out.max === undefined ? undefined : out;
};
