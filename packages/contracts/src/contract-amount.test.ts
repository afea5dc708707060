import { describe, expect, it } from 'vitest';
import { amountInCapitals, amountInFigures } from './contract-amount';

describe('amountInCapitals (1/1000 yuan → 大写)', () => {
  it.each([
    [0, '零元整'],
    [1, '壹厘'],
    [10, '壹分'],
    [100, '壹角整'],
    [999, '玖角玖分玖厘'],
    [1_000, '壹元整'],
    [1_050, '壹元零伍分'],
    [1_205, '壹元贰角零伍厘'],
    [10_000, '壹拾元整'],
    [1_010_000, '壹仟零壹拾元整'],
    [1_234_560, '壹仟贰佰叁拾肆元伍角陆分'],
    [10_000_000, '壹万元整'],
    [10_001_000, '壹万零壹元整'],
    [100_000_000, '壹拾万元整'],
    [101_000_000, '壹拾万壹仟元整'],
    [100_100_000, '壹拾万零壹佰元整'],
    [999_999_999, '玖拾玖万玖仟玖佰玖拾玖元玖角玖分玖厘'],
    [100_000_000_000, '壹亿元整'],
    [100_000_001_000, '壹亿零壹元整'],
    [100_010_000_000, '壹亿零壹万元整'],
    [2_147_483_647, '贰佰壹拾肆万柒仟肆佰捌拾叁元陆角肆分柒厘'],
  ])('%i → %s', (milli, text) => {
    expect(amountInCapitals(milli)).toBe(text);
  });

  it('refuses negative, fractional and unsafe amounts', () => {
    expect(() => amountInCapitals(-1)).toThrow(RangeError);
    expect(() => amountInCapitals(1.5)).toThrow(RangeError);
    expect(() => amountInCapitals(Number.MAX_SAFE_INTEGER + 1)).toThrow(RangeError);
    expect(amountInCapitals(Number.MAX_SAFE_INTEGER)).toMatch(/^玖/);
  });
});

describe('amountInFigures', () => {
  it.each([
    [0, '¥0.00'],
    [1, '¥0.001'],
    [1_000, '¥1.00'],
    [1_234_560, '¥1,234.56'],
    [1_234_567, '¥1,234.567'],
    [999_999_999, '¥999,999.999'],
  ])('%i → %s', (milli, text) => {
    expect(amountInFigures(milli)).toBe(text);
  });
});
