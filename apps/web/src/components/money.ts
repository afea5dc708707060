/**
 * Money travels as an integer in 1/1000 yuan (issue 13) and is shown ÷1000 with 2 decimals and
 * thousands separators (SPEC §9). Conversions use integer math on strings, never `x / 1000`
 * and back, so 0.1 + 0.2 never shows up as a price.
 */

const groupThousands = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** 1234567 (1/1000 yuan) → '1,234.57'; null/undefined → '-'. Half-up at the cent. */
export const formatMoney = (milli: number | null | undefined): string => {
  if (milli === null || milli === undefined || !Number.isFinite(milli)) return '-';
  const isNegative = milli < 0;
  const abs = Math.round(Math.abs(milli));
  let yuan = Math.floor(abs / 1000);
  let cents = Math.floor(((abs % 1000) + 5) / 10);
  if (cents === 100) {
    yuan += 1;
    cents = 0;
  }
  return `${isNegative ? '-' : ''}${groupThousands(String(yuan))}.${String(cents).padStart(2, '0')}`;
};

/** Yuan typed in an input: digits with up to 3 decimals (1/1000 yuan is the unit). */
export const YUAN_PATTERN = /^\d+(\.\d{1,3})?$/;

/** '1234.5' → 1234500; undefined when the text is not a yuan amount. */
export const yuanToMilli = (text: string | null | undefined): number | undefined => {
  const t = (text ?? '').trim();
  if (!YUAN_PATTERN.test(t)) return undefined;
  const [int, frac = ''] = t.split('.');
  const value = Number(int) * 1000 + Number(frac.padEnd(3, '0'));
  return Number.isSafeInteger(value) ? value : undefined;
};

/** 1234500 → '1234.50' (at least 2 decimals, the third only when set): the value of an input. */
export const milliToYuan = (milli: number | null | undefined): string => {
  if (milli === null || milli === undefined || !Number.isFinite(milli)) return '';
  const abs = Math.round(Math.abs(milli));
  const frac = String(abs % 1000).padStart(3, '0');
  return `${milli < 0 ? '-' : ''}${Math.floor(abs / 1000)}.${frac.endsWith('0') ? frac.slice(0, 2) : frac}`;
};
