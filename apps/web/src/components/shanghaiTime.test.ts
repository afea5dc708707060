import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import { describe, expect, it } from 'vitest';
import { formatShanghai, shanghaiNow } from './shanghaiTime';

dayjs.extend(utc);

describe('shanghaiNow', () => {
  it('is the Shanghai wall clock of the instant, whatever the zone of this process', () => {
    const instant = dayjs.utc('2026-11-24T15:35:07Z');
    expect(shanghaiNow(instant).format('YYYY-MM-DD HH:mm:ss')).toBe('2026-11-24 23:35:07');
    expect(shanghaiNow(dayjs.utc('2026-11-30T16:00:00Z')).format('YYYY-MM-DD')).toBe('2026-12-01');
  });

  it('gives the month start the SPEC §5 date pair begins with, in Shanghai', () => {
    // 2026-11-30 20:00 UTC is already 1 December in Beijing
    expect(shanghaiNow(dayjs.utc('2026-11-30T20:00:00Z')).startOf('month').format('YYYY-MM-DD HH:mm:ss')).toBe(
      '2026-12-01 00:00:00',
    );
  });

  it('round-trips with formatShanghai', () => {
    const now = dayjs();
    expect(shanghaiNow(now).format('YYYY-MM-DD HH:mm:ss')).toBe(formatShanghai(now));
  });
});
