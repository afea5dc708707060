import { describe, expect, it } from 'vitest';
import { isBelowMinimum, lineTotal, type OrderLine, ordersTotal } from './orderLines';

const line = (price: string, num: number, minimumPrice = 1_000_000): OrderLine => ({
  key: 'k',
  productId: 1,
  name: '坐席',
  code: '',
  variantId: null,
  specIds: [],
  specName: '',
  listPrice: 1_200_000,
  cost: 300_000,
  minimumPrice,
  price,
  num,
});

describe('deal order lines', () => {
  it('total price × quantity in 1/1000 yuan, without float drift', () => {
    expect(lineTotal(line('0.1', 3))).toBe(300);
    expect(lineTotal(line('19.99', 7))).toBe(139_930);
    expect(ordersTotal([line('1100', 1), line('19800', 1)])).toBe(20_900_000);
  });

  it('a line without a valid price counts nothing', () => {
    expect(lineTotal(line('', 2))).toBeUndefined();
    expect(ordersTotal([line('abc', 2), line('1', 1)])).toBe(1000);
  });

  it('flags a deal price below the minimum price', () => {
    expect(isBelowMinimum(line('999.999', 1))).toBe(true);
    expect(isBelowMinimum(line('1000', 1))).toBe(false);
  });
});
