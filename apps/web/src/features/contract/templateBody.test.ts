import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { fieldsOf, insertAt, sampleTerms, splitBody } from './templateBody';

describe('template body fields', () => {
  it('splits a line into text and {{fields}}, spaces inside the braces allowed', () => {
    expect(splitBody('甲方：{{company_name}}，乙方：{{ customer_name }}。')).toEqual([
      { kind: 'text', text: '甲方：' },
      { kind: 'field', key: 'company_name' },
      { kind: 'text', text: '，乙方：' },
      { kind: 'field', key: 'customer_name' },
      { kind: 'text', text: '。' },
    ]);
    expect(splitBody('')).toEqual([{ kind: 'text', text: '' }]);
    expect(splitBody('{{products}}')).toEqual([{ kind: 'field', key: 'products' }]);
  });
  it('lists each field once, and leaves a lone brace as text', () => {
    expect(fieldsOf('{{a}}{{b}}\n{{a}} {x} {{')).toEqual(['a', 'b']);
  });
  it('inserts a field at the cursor or over the selection', () => {
    expect(insertAt('甲方：', '{{company_name}}', 3)).toBe('甲方：{{company_name}}');
    expect(insertAt('甲方：XX。', '{{company_name}}', 3, 5)).toBe('甲方：{{company_name}}。');
  });
  it('makes sample payment terms that add up to the sample amount, dated from today', () => {
    const terms = sampleTerms(12_345_600, dayjs('2026-11-29'));
    expect(terms.map((t) => t.amount)).toEqual([3_703_680, 6_172_800, 2_469_120]);
    expect(terms.reduce((s, t) => s + t.amount, 0)).toBe(12_345_600);
    expect(terms.map((t) => t.plan_at)).toEqual(['2026-11-29', '2026-12-29', '2027-02-28']);
  });
});
