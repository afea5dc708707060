/**
 * Contract amounts (issue 26): 1/1000-yuan integers written in Chinese capital numerals (大写) and as
 * ¥ figures, with integer arithmetic only (no floats from the first digit to the last).
 */

const DIGITS = ['零', '壹', '贰', '叁', '肆', '伍', '陆', '柒', '捌', '玖'];
const IN_GROUP = ['', '拾', '佰', '仟'];
const GROUPS = ['', '万', '亿', '万亿'];

const checked = (milli: number) => {
  if (!Number.isSafeInteger(milli) || milli < 0) throw new RangeError('amount must be a non-negative safe integer (1/1000 yuan)');
  return milli;
};

/** One group of four digits (1–9999) without leading 零. */
const groupText = (value: number) => {
  let out = '';
  let isZeroPending = false;
  for (let pos = 3; pos >= 0; pos--) {
    const d = Math.floor(value / 10 ** pos) % 10;
    if (d === 0) {
      isZeroPending = out !== '';
      continue;
    }
    if (isZeroPending) out += '零';
    out += DIGITS[d] + IN_GROUP[pos];
    isZeroPending = false;
  }
  return out;
};

/** Whole yuan in capitals ('' for 0): 10001 → 壹万零壹, 100000001 → 壹亿零壹. */
const yuanText = (yuan: number) => {
  const groups: number[] = [];
  for (let rest = yuan; rest > 0; rest = Math.floor(rest / 10_000)) groups.push(rest % 10_000);
  let out = '';
  let isZeroPending = false;
  for (let g = groups.length - 1; g >= 0; g--) {
    const value = groups[g];
    if (value === 0) {
      isZeroPending = out !== '';
      continue;
    }
    if (out !== '' && (isZeroPending || value < 1000)) out += '零';
    out += groupText(value) + GROUPS[g];
    isZeroPending = false;
  }
  return out;
};

/**
 * 大写金额 of an amount in 1/1000 yuan: 1_234_560 → 壹仟贰佰叁拾肆元伍角陆分; 1_000 → 壹元整;
 * 0 → 零元整; 5 → 伍厘. 整 closes an amount that ends at 元 or 角.
 */
export const amountInCapitals = (milli: number): string => {
  checked(milli);
  const yuan = Math.floor(milli / 1000);
  const small = [Math.floor(milli / 100) % 10, Math.floor(milli / 10) % 10, milli % 10];
  if (yuan === 0 && small.every((d) => d === 0)) return '零元整';
  let out = yuan > 0 ? `${yuanText(yuan)}元` : '';
  const units = ['角', '分', '厘'];
  let isZeroPending = false;
  let last = yuan > 0 ? '元' : '';
  small.forEach((d, i) => {
    if (d === 0) {
      isZeroPending = out !== '';
      return;
    }
    if (isZeroPending) out += '零';
    out += DIGITS[d] + units[i];
    last = units[i];
    isZeroPending = false;
  });
  return last === '元' || last === '角' ? `${out}整` : out;
};

/** ¥ figure of an amount in 1/1000 yuan: 1_234_560 → ¥1,234.56; 1_234_567 → ¥1,234.567 (the 厘 shown only when not 0). */
export const amountInFigures = (milli: number): string => {
  checked(milli);
  const yuan = String(Math.floor(milli / 1000)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = String(milli % 1000).padStart(3, '0');
  return `¥${yuan}.${frac.endsWith('0') ? frac.slice(0, 2) : frac}`;
};
