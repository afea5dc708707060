import { MONEY_MAX, type OrderStoreBody } from '@crm/contracts';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { loadProducts } from '../products/products.service';

/** The pricing of an order's lines from the catalogue (list, cost and minimum prices of products and variants). */

/** Lines priced by the server from the catalogue (the client's cost, minimum price and totals are ignored). */
export const priceLines = async (db: DbOrTx, tenantId: number, input: OrderStoreBody['product']) => {
  const products = new Map((await loadProducts(db, tenantId, [...new Set(input.map((p) => p.id))])).map((p) => [p.id, p]));
  let amount = 0;
  const lines = input.map((line) => {
    const p = products.get(line.id);
    if (p?.status !== 1) throw new AppError('ORDER_PRODUCT_INVALID', `产品不存在或已下架（编号${line.id}）`);
    let priced = { variantId: null as number | null, specName: '', cost: p.cost, minimumPrice: p.minimumPrice };
    if (p.variants.length > 0) {
      const want = [...new Set(line.specifications_list)].sort((a, b) => a - b).join(',');
      const v = p.variants.find(
        (x) =>
          x.specifications_list
            .map((s) => s.specifications_value_id)
            .sort((a, b) => a - b)
            .join(',') === want,
      );
      if (!v) throw new AppError('ORDER_VARIANT_REQUIRED', `请选择产品规格（${p.name}）`);
      priced = {
        variantId: v.id,
        specName: v.specifications_list.map((s) => s.specifications_value_name).join('/'),
        cost: v.cost,
        minimumPrice: v.minimum_price,
      };
    }
    const total = line.cost_price * line.num;
    amount += total;
    if (total > MONEY_MAX || amount > MONEY_MAX) throw new AppError('ORDER_AMOUNT_TOO_LARGE');
    return {
      tenantId,
      productId: p.id,
      variantId: priced.variantId,
      productName: p.name,
      specName: priced.specName,
      dealPrice: line.cost_price,
      cost: priced.cost,
      minimumPrice: priced.minimumPrice,
      qty: line.num,
      total,
      isBelowMin: line.cost_price < priced.minimumPrice ? 1 : 0,
    };
  });
  return { lines, amount };
};
