import type { Product } from '@crm/contracts';
import { formatMoney, milliToYuan } from '../../../components/money';

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

type PriceKey = 'price' | 'cost' | 'minimum_price';

/**
 * A price of a product as the lists show it: the base price, or for a product with variants the
 * range of its variants' prices ('100.00 ~ 3,120.00', one value when they are all the same).
 */
export const priceRangeText = (p: Pick<Product, 'detailed' | PriceKey>, key: PriceKey = 'price'): string => {
  if (p.detailed.length === 0) return formatMoney(p[key]);
  const values = p.detailed.map((d) => d[key]);
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? formatMoney(low) : `${formatMoney(low)} ~ ${formatMoney(high)}`;
};

/**
 * The base prices saved with a product that has variants and whose base prices were left empty:
 * the lowest of each price over its variants (each variant's minimum ≤ its price, so the lowest
 * minimum ≤ the lowest price and the base row stays valid).
 */
export const basePricesOf = (variants: Record<PriceKey, number>[]): Record<PriceKey, number> => ({
  price: Math.min(...variants.map((v) => v.price)),
  cost: Math.min(...variants.map((v) => v.cost)),
  minimum_price: Math.min(...variants.map((v) => v.minimum_price)),
});

/**
 * Prefill of the variants' price inputs: every empty price of a combination takes the base price
 * typed above (the usual case: most variants cost the same, the user changes the few that differ).
 * Returns only the entries to set; none when nothing is to fill.
 */
export const variantPrefill = (
  combos: string[][],
  variants: Record<string, PriceInput> | undefined,
  base: PriceInput,
): Record<string, PriceInput> => {
  const patch: Record<string, PriceInput> = {};
  for (const values of combos) {
    const key = variantKey(values);
    const current = variants?.[key] ?? {};
    const fill: PriceInput = {};
    for (const k of ['price', 'cost', 'minimum_price'] as const) {
      if (!current[k] && base[k]) fill[k] = base[k];
    }
    if (Object.keys(fill).length > 0) patch[key] = { ...current, ...fill };
  }
  return patch;
};
