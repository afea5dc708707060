import { describe, expect, it } from 'vitest';
import { basePricesOf, combinations, priceRangeText, variantKey, variantPrefill } from './variants';

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

  const variant = (price: number, cost: number, minimum_price: number) => ({
    id: price,
    price,
    cost,
    minimum_price,
    specifications_list: [],
  });

  it("show the range of the variants' prices in the lists, the base price without variants", () => {
    const base = { price: 1_000_000, cost: 500_000, minimum_price: 800_000 };
    expect(priceRangeText({ ...base, detailed: [] })).toBe('1,000.00');
    const p = { ...base, detailed: [variant(3_120_000, 1_000_000, 2_800_000), variant(1_500_000, 600_000, 1_200_000)] };
    expect(priceRangeText(p)).toBe('1,500.00 ~ 3,120.00');
    expect(priceRangeText(p, 'cost')).toBe('600.00 ~ 1,000.00');
    expect(priceRangeText({ ...base, detailed: [variant(2000, 1000, 1000), variant(2000, 1000, 1000)] })).toBe('2.00');
  });

  it('save the lowest variant prices as the base prices left empty', () => {
    expect(basePricesOf([variant(3000, 100, 2500), variant(2000, 900, 1500)])).toEqual({
      price: 2000,
      cost: 100,
      minimum_price: 1500,
    });
  });

  it('prefill only the empty variant prices with the base prices', () => {
    const combos = [['基础版'], ['专业版']];
    const patch = variantPrefill(combos, { 专业版: { price: '3120' } }, { price: '1000', cost: '500', minimum_price: '' });
    expect(patch).toEqual({ 基础版: { price: '1000', cost: '500' }, 专业版: { price: '3120', cost: '500' } });
    expect(variantPrefill(combos, undefined, {})).toEqual({});
  });
});
