import { describe, expect, it } from 'vitest';
import { CREDIT_CODE_CHARS, creditCodeCheckChar, creditCodeRegion, isValidCreditCode } from './credit-code';
import { fictionalCreditCode } from './fictional-companies';

/** A first-17 whose check value is exactly `want` (changes the 17th character until it is). */
const withCheck = (want: string) => {
  for (const c of CREDIT_CODE_CHARS) {
    const first = `9144030071526726${c}`;
    if (creditCodeCheckChar(first) === want) return first + want;
  }
  throw new Error(`no code with check ${want}`);
};

describe('统一社会信用代码 (GB 32100)', () => {
  it('accepts the standard worked example and refuses it with any other check character', () => {
    expect(isValidCreditCode('91350100M000100Y43')).toBe(true);
    for (const c of CREDIT_CODE_CHARS.replace('3', '')) expect(isValidCreditCode(`91350100M000100Y4${c}`)).toBe(false);
  });

  it('the check character at both ends of its range: 0 (sum ≡ 0 mod 31) and Y (value 30)', () => {
    const zero = withCheck('0');
    const y = withCheck('Y');
    expect(isValidCreditCode(zero)).toBe(true);
    expect(isValidCreditCode(y)).toBe(true);
    expect(isValidCreditCode(`${zero.slice(0, 17)}Y`)).toBe(false);
  });

  it('refuses 17 and 19 characters, and the letters the set leaves out (I O Z S V)', () => {
    expect(isValidCreditCode('91350100M000100Y4')).toBe(false);
    expect(isValidCreditCode('91350100M000100Y433')).toBe(false);
    for (const bad of ['I', 'O', 'Z', 'S', 'V']) {
      const code = `91350100M000100${bad}4`;
      expect(creditCodeCheckChar(code.slice(0, 17))).toBeNull();
      expect(isValidCreditCode(`${code}3`)).toBe(false);
    }
  });

  it('reads what people paste: lower case, full-width characters, spaces', () => {
    expect(isValidCreditCode('91350100m000100y43')).toBe(true);
    expect(isValidCreditCode('９１３５０１００Ｍ０００１００Ｙ４３')).toBe(true);
    expect(isValidCreditCode(' 91350100 M000100Y43 ')).toBe(true);
  });

  it('characters 3–8 are the region code; the fictional codes are well-formed and distinct', () => {
    expect(creditCodeRegion('91350100M000100Y43')).toBe(350100);
    const codes = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const code = fictionalCreditCode(440305, i);
      expect(isValidCreditCode(code)).toBe(true);
      codes.add(code);
    }
    expect(codes.size).toBe(2000);
  });
});
