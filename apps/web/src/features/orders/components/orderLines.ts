import type { Product, ProductVariant } from '@crm/contracts';
import { milliToYuan, yuanToMilli } from '../../../components/money';

/** A line of the deal order window: a product (one variant of it) with the deal price typed in yuan. */
export type OrderLine = {
  key: string;
  productId: number;
  name: string;
  code: string;
  variantId: number | null;
  specIds: number[];
  specName: string;
  /** list price, cost and minimum price of the catalogue, 1/1000 yuan */
  listPrice: number;
  cost: number;
  minimumPrice: number;
  /** deal unit price as typed, yuan */
  price: string;
  num: number;
};

export const variantName = (v: ProductVariant) => v.specifications_list.map((s) => s.specifications_value_name).join(' / ');

/** A catalogue product (and the chosen variant when it has some) as a new line: deal price = list price, quantity 1. */
export const lineOf = (p: Product, variant: ProductVariant | null): OrderLine => {
  const prices = variant ?? p;
  return {
    key: `${p.id}-${variant?.id ?? 0}`,
    productId: p.id,
    name: p.name,
    code: p.code,
    variantId: variant?.id ?? null,
    specIds: variant ? variant.specifications_list.map((s) => s.specifications_value_id) : [],
    specName: variant ? variantName(variant) : '',
    listPrice: prices.price,
    cost: prices.cost,
    minimumPrice: prices.minimum_price,
    price: milliToYuan(prices.price),
    num: 1,
  };
};

/** A line's total in 1/1000 yuan (integer math); undefined while the price is not a valid amount. */
export const lineTotal = (l: OrderLine): number | undefined => {
  const price = yuanToMilli(l.price);
  return price === undefined ? undefined : price * l.num;
};

export const ordersTotal = (lines: OrderLine[]) => lines.reduce((sum, l) => sum + (lineTotal(l) ?? 0), 0);

/** SPEC: a deal price below the minimum price is flagged (the server flags it on the order too). */
export const isBelowMinimum = (l: OrderLine) => {
  const price = yuanToMilli(l.price);
  return price !== undefined && price < l.minimumPrice;
};

/** SPEC §9: what a summary row (总价) shows in a column that has no total (unit prices, names). */
export const SUMMARY_NA = 'N/A';
