import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { checkFieldLimits, initialFormValues, toSearchValues } from './searchValues';
import type { SearchField } from './types';

const fields: SearchField[] = [
  { kind: 'text', name: 'name', label: '客户名称' },
  { kind: 'select', name: 'tags', label: '标签', options: [], isMultiple: true },
  { kind: 'cascader', name: 'region', label: '地区', options: [] },
  { kind: 'date', name: 'day', label: '日期' },
  { kind: 'dateRange', name: 'createTime', label: '创建时间' },
  { kind: 'dateRange', name: 'bareDays', label: '日期', valueFormat: 'date' },
  { kind: 'datetimePair', name: 'period', label: '时间段' },
  { kind: 'numberRange', name: 'count', label: '次数' },
];

describe('toSearchValues', () => {
  it('trims text and leaves out empty fields, keeping zero', () => {
    expect(toSearchValues(fields, { name: '  华为 ', tags: [], region: undefined, count: ['0', ''] })).toEqual({
      name: '华为',
      count: { min: 0 },
    });
    expect(toSearchValues(fields, { name: '   ' })).toEqual({});
  });
  it('sends date ranges as whole days, start 00:00:00 and end 23:59:59 (SPEC §9)', () => {
    const range = [dayjs('2025-03-01 10:11:12'), dayjs('2025-03-05 08:00:00')];
    expect(toSearchValues(fields, { createTime: range, bareDays: range })).toEqual({
      createTime: ['2025-03-01 00:00:00', '2025-03-05 23:59:59'],
      bareDays: ['2025-03-01', '2025-03-05'],
    });
  });
  it('formats a single date and the datetime pair', () => {
    expect(
      toSearchValues(fields, {
        day: dayjs('2025-03-02 10:00'),
        period: [dayjs('2025-03-01 00:00:00'), dayjs('2025-03-09 13:14:15')],
      }),
    ).toEqual({ day: '2025-03-02', period: ['2025-03-01 00:00:00', '2025-03-09 13:14:15'] });
  });
  it('passes select and cascader values through', () => {
    expect(toSearchValues(fields, { tags: [3, 4], region: ['110000', '110100'] })).toEqual({
      tags: [3, 4],
      region: ['110000', '110100'],
    });
  });
});

describe('initialFormValues', () => {
  it('defaults only the datetime pair', () => {
    const v = initialFormValues(fields, dayjs('2025-03-17 15:04:05'));
    expect(Object.keys(v)).toEqual(['period']);
    const [start, end] = v.period as dayjs.Dayjs[];
    expect(start.format('YYYY-MM-DD HH:mm:ss')).toBe('2025-03-01 00:00:00');
    expect(end.format('YYYY-MM-DD HH:mm:ss')).toBe('2025-03-17 15:04:05');
  });
});

describe('checkFieldLimits (SPEC §2)', () => {
  it('accepts a bar within the limits', () => {
    expect(checkFieldLimits(fields)).toEqual([]);
  });
  it('reports a fourth text input and a third numeric range', () => {
    const many: SearchField[] = [
      ...[1, 2, 3, 4].map((i): SearchField => ({ kind: 'text', name: `t${i}`, label: '' })),
      ...[1, 2, 3].map((i): SearchField => ({ kind: 'numberRange', name: `n${i}`, label: '' })),
    ];
    expect(checkFieldLimits(many)).toEqual([
      'SearchBar: 4 fields of kind text, at most 3',
      'SearchBar: 3 fields of kind numberRange, at most 2',
    ]);
  });
});
