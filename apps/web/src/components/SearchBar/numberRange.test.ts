import { describe, expect, it } from 'vitest';
import { checkNumberRange, sanitizeNumeric, toNumberRange } from './numberRange';

describe('sanitizeNumeric (SPEC §5 numeric input)', () => {
  it('strips non-digits and cuts to 8 characters', () => {
    expect(sanitizeNumeric('12a3.4 5')).toBe('12345');
    expect(sanitizeNumeric('1234567890')).toBe('12345678');
  });
  it('keeps a leading minus only when negative values are allowed', () => {
    expect(sanitizeNumeric('-12', { allowMinus: true })).toBe('-12');
    expect(sanitizeNumeric('-12')).toBe('12');
    expect(sanitizeNumeric('1-2', { allowMinus: true })).toBe('12');
    expect(sanitizeNumeric('-123456789', { allowMinus: true })).toBe('-1234567');
  });
});

describe('checkNumberRange (SPEC §5 search bar)', () => {
  it('accepts an ordered range inside the bounds', () => {
    expect(checkNumberRange(['1', '5'], 1, { min: 0, max: 10 })).toEqual({ value: ['1', '5'] });
    expect(checkNumberRange(['5', '5'], 0)).toEqual({ value: ['5', '5'] });
  });
  it('warns 输入值必须在{min}到{max}之间, clamps the edited end and clears the other', () => {
    expect(checkNumberRange(['3', '50'], 1, { min: 0, max: 10 })).toEqual({
      value: ['', '10'],
      warning: '输入值必须在0到10之间',
    });
    expect(checkNumberRange(['-5', '8'], 0, { min: -2, max: 10 })).toEqual({
      value: ['-2', ''],
      warning: '输入值必须在-2到10之间',
    });
  });
  it('warns 开始值必须小于结束值！ and clears the edited end when start > end', () => {
    expect(checkNumberRange(['9', '3'], 0)).toEqual({ value: ['', '3'], warning: '开始值必须小于结束值！' });
    expect(checkNumberRange(['9', '3'], 1)).toEqual({ value: ['9', ''], warning: '开始值必须小于结束值！' });
  });
  it('treats a lone minus as empty', () => {
    expect(checkNumberRange(['-', '3'], 0, { min: -10 })).toEqual({ value: ['', '3'] });
  });
});

describe('toNumberRange', () => {
  it('emits numbers and leaves out missing ends', () => {
    expect(toNumberRange(['2', ''])).toEqual({ min: 2 });
    expect(toNumberRange(['', '0'])).toEqual({ max: 0 });
    expect(toNumberRange(['', ''])).toBeUndefined();
    expect(toNumberRange(undefined)).toBeUndefined();
  });
});
