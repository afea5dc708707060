import type { Dayjs } from 'dayjs';
import { describe, expect, it } from 'vitest';
import { createBodyOf, DEFAULT_VALUES, formatBillsec, parseNumberLines, progressPercent, timeOf, timesRefusal } from './taskForm';

const r = (a: string, b: string) => [timeOf(a), timeOf(b)] as [Dayjs, Dayjs];

describe('the seat-task form', () => {
  it('reads one number a line: repeats once, invalid lines reported with their line numbers', () => {
    const p = parseNumberLines('13800000001\n\n 138-0000-0001 \nabc\n123\n010-12345678\n139000000011234567890123');
    expect(p.numbers).toEqual(['13800000001', '010-12345678']);
    expect(p.duplicates).toBe(1);
    expect(p.invalid.map((l) => l.line)).toEqual([4, 5, 7]);
  });

  it('time ranges: overlap, order and the company hours at both edges', () => {
    const hours = { from: '08:00', to: '21:00' };
    expect(timesRefusal([r('09:00', '21:00')], hours)).toBeNull();
    expect(timesRefusal([r('09:00', '21:01')], hours)).toBe('外呼时段须在公司允许的外呼时间（08:00–21:00）内');
    expect(timesRefusal([r('09:00', '12:00'), r('11:59', '13:00')], hours)).toBe('外呼时段不能重叠');
    expect(timesRefusal([r('09:00', '12:00'), r('12:00', '13:00')], hours)).toBeNull();
    expect(timesRefusal([r('12:00', '09:00')], hours)).toBe('结束时间须晚于开始时间');
    expect(timesRefusal([null], hours)).toBe('请选择外呼时段');
    expect(timesRefusal([], hours)).toBe('请添加外呼时段');
  });

  it('builds the create body of the chosen source only', () => {
    const body = createBodyOf({
      ...DEFAULT_VALUES,
      name: ' 回访 ',
      source: 'import',
      numbersText: '13800000001\nx',
      cmSidInfo: [3],
    });
    expect(body).toMatchObject({ name: '回访', numbers: ['13800000001'], cmSidInfo: [3], blackState: 1, customerInfoState: 0 });
    expect(body.customerWhere).toBeUndefined();
    expect(body.cmTimes).toEqual([
      { start: '09:00', end: '12:00' },
      { start: '14:00', end: '18:00' },
    ]);
    const filtered = createBodyOf({ ...DEFAULT_VALUES, source: 'filter', filter: { kind: 'allot', name: ' 张 ' } });
    expect(filtered.customerWhere).toMatchObject({ kind: 'allot', filter: { name: '张' } });
    expect(filtered.numbers).toBeUndefined();
  });

  it('formats talk time and progress', () => {
    expect(formatBillsec(3725)).toBe('1小时2分5秒');
    expect(formatBillsec(65)).toBe('1分5秒');
    expect(formatBillsec(0)).toBe('0秒');
    expect(progressPercent({ totalNum: 4, leftNum: 1 })).toBe(75);
    expect(progressPercent({ totalNum: 0, leftNum: 0 })).toBe(0);
  });
});
