import { describe, expect, it } from 'vitest';
import { fieldsOf, insertAt, splitBody } from './templateBody';

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
});
