import { describe, expect, it } from 'vitest';
import { formatMoney, milliToYuan, yuanToMilli } from './money';

describe('money in 1/1000 yuan', () => {
  it('shows ÷1000 with 2 decimals and thousands separators', () => {
    expect(formatMoney(1234567)).toBe('1,234.57');
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(999999999)).toBe('1,000,000.00');
    expect(formatMoney(-1500)).toBe('-1.50');
    expect(formatMoney(null)).toBe('-');
  });

  it('reads typed yuan with integer math', () => {
    expect(yuanToMilli('0.1')).toBe(100);
    expect(yuanToMilli('1234.567')).toBe(1234567);
    expect(yuanToMilli('19.99')).toBe(19990);
    expect(yuanToMilli('1.2345')).toBeUndefined();
    expect(yuanToMilli('abc')).toBeUndefined();
    expect(yuanToMilli('')).toBeUndefined();
  });

  it('round-trips a stored amount into an input', () => {
    expect(milliToYuan(19990)).toBe('19.99');
    expect(milliToYuan(1234567)).toBe('1234.567');
    expect(milliToYuan(5000)).toBe('5.00');
    for (const v of [0, 1, 10, 100, 999, 1001, 19990, 123456789]) expect(yuanToMilli(milliToYuan(v))).toBe(v);
  });
});
