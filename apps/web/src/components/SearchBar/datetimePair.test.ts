import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { defaultDatetimePair, fitDatetimePair, isEndDateDisabled, isStartDateDisabled } from './datetimePair';

const F = 'YYYY-MM-DD HH:mm:ss';
const d = (s: string) => dayjs(s);

describe('datetime pair (SPEC §5)', () => {
  it('defaults to the first of the current month 00:00:00 until now', () => {
    const [start, end] = defaultDatetimePair(d('2025-03-17 15:04:05'));
    expect(start.format(F)).toBe('2025-03-01 00:00:00');
    expect(end.format(F)).toBe('2025-03-17 15:04:05');
  });
  it("limits the end to the end of the start's month", () => {
    const start = d('2025-02-10 09:00:00');
    expect(isEndDateDisabled(d('2025-02-28 23:00:00'), start)).toBe(false);
    expect(isEndDateDisabled(d('2025-03-01 00:00:00'), start)).toBe(true);
    expect(isEndDateDisabled(d('2025-02-09 12:00:00'), start)).toBe(true);
    expect(isEndDateDisabled(d('2030-01-01'), null)).toBe(false);
  });
  it("limits the start to the end's month, up to the end", () => {
    const end = d('2025-02-10 09:00:00');
    expect(isStartDateDisabled(d('2025-02-01 00:00:00'), end)).toBe(false);
    expect(isStartDateDisabled(d('2025-01-31 23:59:59'), end)).toBe(true);
    expect(isStartDateDisabled(d('2025-02-11 00:00:00'), end)).toBe(true);
    expect(isStartDateDisabled(d('2020-01-01'), undefined)).toBe(false);
  });
  it('pulls an end outside the range back into it', () => {
    const [, end] = fitDatetimePair(d('2025-02-10 09:00:00'), d('2025-03-05 10:00:00'));
    expect(end?.format(F)).toBe('2025-02-28 23:59:59');
    const [, same] = fitDatetimePair(d('2025-02-10 09:00:00'), d('2025-02-10 08:00:00'));
    expect(same?.format(F)).toBe('2025-02-10 09:00:00');
    expect(fitDatetimePair(null, d('2025-02-10'))[1]?.format('YYYY-MM-DD')).toBe('2025-02-10');
  });
});
