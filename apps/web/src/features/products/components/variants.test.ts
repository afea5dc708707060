import { describe, expect, it } from 'vitest';
import { combinations, variantKey } from './variants';

describe('product variants', () => {
  it('are every combination of the specifications, in order', () => {
    const combos = combinations([
      { name: '版本', values: ['基础版', '专业版'] },
      { name: '年限', values: ['1年', '3年'] },
    ]);
    expect(combos.map(variantKey)).toEqual(['基础版 / 1年', '基础版 / 3年', '专业版 / 1年', '专业版 / 3年']);
  });

  it('leave out a specification without a name or values', () => {
    expect(combinations([{ name: '版本', values: ['A'] }, { name: '', values: ['x'] }, { name: '年限' }])).toEqual([['A']]);
    expect(combinations([])).toEqual([]);
  });
});
