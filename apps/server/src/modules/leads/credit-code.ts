/**
 * 统一社会信用代码 (GB 32100-2015): 18 characters of the set 0-9 A-H J-N P-R T U W-Y (no I, O, Z,
 * S, V). 1 登记管理部门, 2 机构类别, 3–8 the registering office's region code, 9–17 the
 * organization code, 18 the check character: 31 − (Σ value × weight mod 31), weights 3^i mod 31.
 */

export const CREDIT_CODE_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** The check character of the first 17 characters; null when one is outside the set. */
export const creditCodeCheckChar = (first17: string): string | null => {
  if (first17.length !== 17) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const value = CREDIT_CODE_CHARS.indexOf(first17[i] as string);
    if (value < 0) return null;
    sum += value * (WEIGHTS[i] as number);
  }
  const check = (31 - (sum % 31)) % 31;
  return CREDIT_CODE_CHARS[check] as string;
};

/** Upper case, full-width letters and digits folded, spaces dropped: what people paste. */
export const cleanCreditCode = (raw: string) => raw.normalize('NFKC').replace(/\s+/g, '').toUpperCase();

/** True when the code has 18 characters of the set and its check character is right. */
export const isValidCreditCode = (raw: string): boolean => {
  const code = cleanCreditCode(raw);
  if (!/^[0-9A-HJ-NP-RTUW-Y]{18}$/.test(code)) return false;
  return creditCodeCheckChar(code.slice(0, 17)) === code[17];
};

/** Characters 3–8: the region code of the registering office (a packages/regions code). */
export const creditCodeRegion = (code: string): number => Number(code.slice(2, 8));
