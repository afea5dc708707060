import { describe, expect, it } from 'vitest';
import { relativeTime } from './relativeTime';
import { formatShanghai, parseServerTime } from './shanghaiTime';

// Server times are Shanghai time; the test runs in whatever zone the machine has (CI: UTC).
const now = parseServerTime('2025-03-10 12:00:00');
const ago = (seconds: number) => formatShanghai(now.subtract(seconds, 'second'));

describe('relativeTime (SPEC §9)', () => {
  it('shows 刚刚 under 30 seconds', () => {
    expect(relativeTime(ago(0), now)).toBe('刚刚');
    expect(relativeTime(ago(29), now)).toBe('刚刚');
  });
  it('shows minutes from 30 seconds, at least 1分钟前', () => {
    expect(relativeTime(ago(30), now)).toBe('1分钟前');
    expect(relativeTime(ago(5 * 60 + 10), now)).toBe('5分钟前');
    expect(relativeTime(ago(59 * 60 + 59), now)).toBe('59分钟前');
  });
  it('shows hours under a day', () => {
    expect(relativeTime(ago(3600), now)).toBe('1小时前');
    expect(relativeTime(ago(23 * 3600 + 59 * 60), now)).toBe('23小时前');
  });
  it('shows 1天前 for the second day, then the date', () => {
    expect(relativeTime(ago(86_400), now)).toBe('1天前');
    expect(relativeTime(ago(2 * 86_400), now)).toBe('2025-03-08');
    expect(relativeTime('2024-12-01 08:00:00', now)).toBe('2024-12-01');
  });
  it('shows - for empty and the time itself for the future', () => {
    expect(relativeTime('', now)).toBe('-');
    expect(relativeTime(null, now)).toBe('-');
    expect(relativeTime('2025-03-11 09:30:00', now)).toBe('2025-03-11 09:30');
  });
});
