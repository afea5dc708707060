import type { Product } from '@crm/contracts';
import { milliToYuan } from '../../../components/money';

/** A specification as the form holds it: 版本 → [基础版, 专业版]. */
export type SpecInput = { name?: string; values?: string[] };
/** Prices typed in yuan (strings, converted with integer math on submit). */
export type PriceInput = { price?: string; cost?: string; minimum_price?: string };

/** The identity of a variant: its value names in specification order. */
export const variantKey = (values: string[]) => values.join(' / ');

/** Every combination of the specifications' values (版本 × 年限), in order; none when a spec has no value. */
export const combinations = (specs: SpecInput[]): string[][] => {
  const usable = specs.filter((s) => s.name?.trim() && (s.values ?? []).length > 0);
  if (usable.length === 0) return [];
  return usable.reduce<string[][]>((acc, s) => acc.flatMap((combo) => (s.values ?? []).map((v) => [...combo, v])), [[]]);
};

/** A stored product as form values: specs, yuan prices, and the variants' prices by key. */
export const productFormValues = (p: Product) => ({
  name: p.name,
  code: p.code,
  pcid: p.pcid || undefined,
  status: (p.status === 1 ? 1 : 0) as 0 | 1,
  remark: p.remark,
  price: milliToYuan(p.price),
  cost: milliToYuan(p.cost),
  minimum_price: milliToYuan(p.minimum_price),
  specifications: p.specifications.map((s) => ({ name: s.name, values: s.values.map((v) => v.name) })),
  variants: Object.fromEntries(
    p.detailed.map((d) => [
      variantKey(d.specifications_list.map((x) => x.specifications_value_name)),
      { price: milliToYuan(d.price), cost: milliToYuan(d.cost), minimum_price: milliToYuan(d.minimum_price) },
    ]),
  ) as Record<string, PriceInput>,
});
