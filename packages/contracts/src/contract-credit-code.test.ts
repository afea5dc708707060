import { describe, expect, it } from 'vitest';
import { CREDIT_CODE_CHARS, creditCodeCheckChar, isValidCreditCode } from './contract-credit-code';

/** A valid code for any 17 characters (the check computed here by brute force over the alphabet). */
const withCheck = (first17: string) =>
  [...CREDIT_CODE_CHARS]
    .map((c) => first17 + c)
    .find((code) => {
      let sum = 0;
      const w = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
      for (let i = 0; i < 18; i++) sum += CREDIT_CODE_CHARS.indexOf(code[i]) * (i < 17 ? w[i] : 1);
      return sum % 31 === 0;
    }) as string;

describe('统一社会信用代码 (GB 32100-2015 check character)', () => {
  it('accepts published codes', () => {
    // 福建 example code printed in GB 32100 explanations, and a code with the check character 0
    expect(isValidCreditCode('91350100M000100Y43')).toBe(true);
    expect(isValidCreditCode(withCheck('91110108MA0000000'))).toBe(true);
  });

  it('refuses a changed check character or a changed body character', () => {
    expect(isValidCreditCode('91350100M000100Y44')).toBe(false);
    expect(isValidCreditCode('91350100M000101Y43')).toBe(false);
  });

  it('check character edges: a sum divisible by 31 gives 0, the largest remainder gives Y', () => {
    // all zeros: sum 0 → (31 − 0) mod 31 = 0
    expect(creditCodeCheckChar('00000000000000000')).toBe('0');
    expect(isValidCreditCode('000000000000000000')).toBe(true);
    // first character 1 → sum 1 → 30 → 'Y' (the last character of the alphabet)
    expect(creditCodeCheckChar('10000000000000000')).toBe('Y');
    // second character 1 (weight 3) → 28 → 'W'
    expect(creditCodeCheckChar('01000000000000000')).toBe('W');
  });

  it('refuses wrong lengths, letters outside the alphabet and lower case', () => {
    expect(isValidCreditCode('91350100M000100Y4')).toBe(false);
    expect(isValidCreditCode('91350100M000100Y433')).toBe(false);
    for (const bad of ['I', 'O', 'S', 'V', 'Z'])
      expect(creditCodeCheckChar(`91350100M000100${bad}4`.slice(0, 17))).toBeUndefined();
    expect(isValidCreditCode('91350100m000100y43')).toBe(false);
    // characters 3–8 are the region code: digits only
    expect(isValidCreditCode(withCheck('91A50100M000100Y4'))).toBe(false);
  });
});
