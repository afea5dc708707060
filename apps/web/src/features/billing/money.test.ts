import { describe, expect, it } from 'vitest';
import { formatRate, formatSeconds, formatYuan, yuanDigits, yuanToUnits } from './money';

describe('billing money (1/10,000 yuan)', () => {
  it('shows 2 decimals at least and 4 at most, from the digits', () => {
    expect(yuanDigits(0)).toBe('0.00');
    expect(yuanDigits(1)).toBe('0.0001');
    expect(yuanDigits(10)).toBe('0.001');
    expect(yuanDigits(100)).toBe('0.01');
    expect(yuanDigits(1000)).toBe('0.10');
    expect(yuanDigits(10000)).toBe('1.00');
    expect(yuanDigits(1234567)).toBe('123.4567');
    expect(yuanDigits(1234560)).toBe('123.456');
    expect(yuanDigits(1234500)).toBe('123.45');
  });

  it('groups thousands and keeps exact digits past float precision', () => {
    expect(yuanDigits(12345678901234)).toBe('1,234,567,890.1234');
    expect(yuanDigits(9007199254740991)).toBe('900,719,925,474.0991');
  });

  it('puts the sign before ¥ and shows nothing for no amount', () => {
    expect(formatYuan(-6000)).toBe('-¥0.60');
    expect(formatYuan(5000000)).toBe('¥500.00');
    expect(formatYuan(-1)).toBe('-¥0.0001');
    expect(formatYuan(null)).toBe('-');
    expect(formatYuan(undefined)).toBe('-');
  });

  it('formats a rate per minute and a length in seconds', () => {
    expect(formatRate(1200)).toBe('0.12 元/分钟');
    expect(formatRate(null)).toBe('-');
    expect(formatSeconds(0)).toBe('00:00:00');
    expect(formatSeconds(61)).toBe('00:01:01');
    expect(formatSeconds(3661)).toBe('01:01:01');
  });

  it('reads typed yuan into units without floats, and refuses what is not an amount', () => {
    expect(yuanToUnits('0.1')).toBe(1000);
    expect(yuanToUnits('12.5')).toBe(125000);
    expect(yuanToUnits('100')).toBe(1000000);
    expect(yuanToUnits('0.0001')).toBe(1);
    expect(yuanToUnits(' 3.33 ')).toBe(33300);
    expect(yuanToUnits('999999999.9999')).toBe(9999999999999);
    expect(yuanToUnits('0.00001')).toBeUndefined();
    expect(yuanToUnits('1000000000')).toBeUndefined();
    expect(yuanToUnits('-1')).toBeUndefined();
    expect(yuanToUnits('1e3')).toBeUndefined();
    expect(yuanToUnits('')).toBeUndefined();
  });
});
