/**
 * 统一社会信用代码 (GB 32100-2015): 18 characters from 31 (digits and capitals without I, O, S, V, Z);
 * the 18th is the check character: C18 = 31 − (Σ Ci·Wi mod 31), 31 written as 0.
 */
export const CREDIT_CODE_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** The check character of the first 17 characters, or undefined when one is outside the code's alphabet. */
export const creditCodeCheckChar = (first17: string): string | undefined => {
  if (first17.length !== 17) return undefined;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const value = CREDIT_CODE_CHARS.indexOf(first17[i]);
    if (value < 0) return undefined;
    sum += value * WEIGHTS[i];
  }
  return CREDIT_CODE_CHARS[(31 - (sum % 31)) % 31];
};

/** Whether a 统一社会信用代码 is well formed and its check character matches (upper case expected). */
export const isValidCreditCode = (code: string): boolean =>
  code.length === 18 && /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}/.test(code) && creditCodeCheckChar(code.slice(0, 17)) === code[17];
