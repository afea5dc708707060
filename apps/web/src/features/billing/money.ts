/**
 * Billing money travels as an integer in 1/10,000 yuan (issue 27: per-second rating needs the
 * fourth decimal). It is only ever formatted here, from the integer's digits, never divided as a
 * float: ¥ with at least 2 and at most 4 decimals (the third and fourth only when not zero).
 */

const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The yuan digits of an amount: 1234500 → '123.45', 1234567 → '123.4567', 1000000 → '100.00'. */
export const yuanDigits = (tenThousandths: number): string => {
  const abs = Math.abs(Math.trunc(tenThousandths));
  const text = String(abs).padStart(5, '0');
  const whole = text.slice(0, -4);
  const frac = text.slice(-4).replace(/0{1,2}$/, '');
  return `${tenThousandths < 0 ? '-' : ''}${groupThousands(whole)}.${frac.padEnd(2, '0')}`;
};

/** ¥ and the yuan digits, the sign before ¥ (-¥0.6000 → '-¥0.60'); '-' for no amount. */
export const formatYuan = (tenThousandths: number | null | undefined): string => {
  if (tenThousandths === null || tenThousandths === undefined || !Number.isFinite(tenThousandths)) return '-';
  const digits = yuanDigits(tenThousandths);
  return digits.startsWith('-') ? `-¥${digits.slice(1)}` : `¥${digits}`;
};

/** A per-minute rate: '0.12 元/分钟'. */
export const formatRate = (tenThousandthsPerMinute: number | null | undefined): string =>
  tenThousandthsPerMinute === null || tenThousandthsPerMinute === undefined
    ? '-'
    : `${yuanDigits(tenThousandthsPerMinute)} 元/分钟`;

/** Seconds as 时:分:秒 (a call's length): 61 → '00:01:01'. */
export const formatSeconds = (seconds: number | null | undefined): string => {
  if (seconds === null || seconds === undefined || seconds < 0) return '-';
  const s = Math.trunc(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
};

/** Yuan typed in an input: digits with up to 4 decimals (1/10,000 yuan is the unit). */
export const BILLING_YUAN_PATTERN = /^\d{1,9}(\.\d{1,4})?$/;

/** '12.5' → 125000 (1/10,000 yuan), from the digits; undefined when the text is not an amount. */
export const yuanToUnits = (text: string | null | undefined): number | undefined => {
  const t = (text ?? '').trim();
  if (!BILLING_YUAN_PATTERN.test(t)) return undefined;
  const [whole, frac = ''] = t.split('.');
  return Number(whole) * 10_000 + Number(frac.padEnd(4, '0'));
};
