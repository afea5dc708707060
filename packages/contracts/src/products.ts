import { z } from 'zod';
import { pageQuery, qCode, qNum, zId, zText, zUint } from './common';

/**
 * Product catalogue (issue 13, SPEC §3 Product). Money is an integer in 1/1000 yuan
 * (SPEC §9: displayed as value ÷ 1000); every price of the catalogue is bounded like an order amount.
 */
export const MONEY_MAX = 999_999_999;
/** A money value in 1/1000 yuan: 0 … 999999999. */
export const zMoney = (what = '金额') =>
  z
    .number({ message: `请输入${what}` })
    .int(`${what}格式不正确`)
    .min(0, `${what}不能小于0`)
    .max(MONEY_MAX, `${what}不能超过${MONEY_MAX}`);

/** SPEC §9 money: stored in 1/1000 yuan, displayed ÷ 1000. */
export const moneyToYuan = (v: number) => (v / 1000).toFixed(2);
/** Money as people read it, the same as the web's lists: '3,120.00' (÷1000, 2 decimals, thousands separators). */
export const formatYuan = (v: number) => moneyToYuan(v).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export const PRODUCT_STATUS = { off: 0, on: 1 } as const;
export const PRODUCT_STATUS_LABEL: Record<number, string> = { 0: '下架', 1: '上架' };

export const PRODUCT_LIMITS = {
  /** the add-product dialog (SPEC §9) */
  pageSize: 10,
  name: 50,
  code: 30,
  remark: 500,
  categoryName: 20,
  /** category tree depth */
  categoryDepth: 3,
  /** specifications (版本, 年限 …) of one product and values of one specification */
  specs: 3,
  specValues: 10,
  specName: 20,
  /** variants of one product (the product of its specifications' values) */
  variants: 100,
  /** rows of one .xlsx import (synchronous) */
  importRows: 5_000,
} as const;

// ---------- categories ----------

export type ProductCategory = { id: number; pid: number; name: string; sortNum: number; children: ProductCategory[] };
export const productCategorySchema: z.ZodType<ProductCategory> = z
  .lazy(() =>
    z.object({
      id: z.number(),
      pid: z.number(),
      name: z.string(),
      sortNum: z.number(),
      children: z.array(productCategorySchema),
    }),
  )
  .meta({ id: 'ProductCategory' });
export const categoryCreateBody = z.object({
  pid: zUint().default(0),
  name: zText()
    .trim()
    .min(1, '请输入分类名称')
    .max(PRODUCT_LIMITS.categoryName, `分类名称最多${PRODUCT_LIMITS.categoryName}个字符`),
  sortNum: zUint().default(0),
});
export type CategoryCreateBody = z.infer<typeof categoryCreateBody>;
export const categoryEditBody = categoryCreateBody.extend({ id: zId() });
export type CategoryEditBody = z.infer<typeof categoryEditBody>;

// ---------- products ----------

/** One value of a variant: which specification, which value (SPEC §3 specifications_list entry). */
export const specValueRefSchema = z.object({
  specifications_id: z.number(),
  specifications_name: z.string(),
  specifications_value_id: z.number(),
  specifications_value_name: z.string(),
});
/** A variant (SKU) with its own prices (SPEC §3 detailed). */
export const productVariantSchema = z.object({
  id: z.number(),
  price: z.number(),
  cost: z.number(),
  minimum_price: z.number(),
  specifications_list: z.array(specValueRefSchema),
});
export type ProductVariant = z.infer<typeof productVariantSchema>;
export const productSpecSchema = z.object({
  id: z.number(),
  name: z.string(),
  values: z.array(z.object({ id: z.number(), name: z.string() })),
});
export const productSchema = z.object({
  id: z.number(),
  pcid: z.number(),
  category_name: z.string(),
  name: z.string(),
  code: z.string(),
  remark: z.string(),
  /** list price, 1/1000 yuan */
  price: z.number(),
  cost: z.number(),
  minimum_price: z.number(),
  status: z.number(),
  status_name: z.string(),
  specifications: z.array(productSpecSchema),
  detailed: z.array(productVariantSchema),
  created_at: z.string(),
});
export type Product = z.infer<typeof productSchema>;

export const productListQuery = pageQuery.extend({
  keyword: z.string().max(50).default(''),
  /** category id; its sub-categories are included */
  pcid: qNum,
  /** 1 上架 / 0 下架; absent: both (the order dialog sends 1) */
  status: qCode,
});
export type ProductListQuery = z.infer<typeof productListQuery>;

const specName = zText()
  .trim()
  .min(1, '请输入规格名称')
  .max(PRODUCT_LIMITS.specName, `规格名称最多${PRODUCT_LIMITS.specName}个字符`);
const priceFields = {
  price: zMoney('售价'),
  cost: zMoney('成本价'),
  minimum_price: zMoney('最低价'),
};
export const productBody = z.object({
  pcid: zUint().default(0),
  name: zText().trim().min(1, '请输入产品名称').max(PRODUCT_LIMITS.name, `产品名称最多${PRODUCT_LIMITS.name}个字符`),
  code: zText().trim().max(PRODUCT_LIMITS.code, `产品编号最多${PRODUCT_LIMITS.code}个字符`).default(''),
  remark: zText().max(PRODUCT_LIMITS.remark, `备注最多${PRODUCT_LIMITS.remark}个字符`).default(''),
  status: z.union([z.literal(0), z.literal(1)]).default(1),
  ...priceFields,
  /** specifications and their values, e.g. 版本 [基础版, 专业版], 年限 [1年, 3年] */
  specifications: z
    .array(
      z.object({
        name: specName,
        values: z
          .array(specName)
          .min(1, '请输入规格值')
          .max(PRODUCT_LIMITS.specValues, `每个规格最多${PRODUCT_LIMITS.specValues}个值`),
      }),
    )
    .max(PRODUCT_LIMITS.specs, `最多${PRODUCT_LIMITS.specs}个规格`)
    .default([]),
  /** one entry per combination: `values` names one value of each specification, in order */
  detailed: z
    .array(z.object({ values: z.array(specName), ...priceFields }))
    .max(PRODUCT_LIMITS.variants, `最多${PRODUCT_LIMITS.variants}个规格组合`)
    .default([]),
});
export type ProductBody = z.infer<typeof productBody>;
export const productEditBody = productBody.extend({ id: zId() });
export type ProductEditBody = z.infer<typeof productEditBody>;
export const productDelBody = z.object({ ids: z.array(zId()).min(1, '请选择产品').max(200) });
export const productStatusBody = z.object({
  ids: z.array(zId()).min(1, '请选择产品').max(200),
  status: z.union([z.literal(0), z.literal(1)]),
});

/** GET product/attrinfo ?product_ids=1,2: the products with their variants, and the order form's attributes. */
export const attrInfoQuery = z.object({
  product_ids: z.preprocess(
    (v) =>
      typeof v === 'string' || Array.isArray(v)
        ? (Array.isArray(v) ? v : [v])
            .flatMap((x) => String(x).split(','))
            .filter((s) => s.trim() !== '')
            .map(Number)
        : v,
    z.array(zId()).max(100).default([]),
  ),
});

/** The import result (≤ 5,000 rows, synchronous): rows added, and the refused rows with their reason. */
export const productImportResultSchema = z.object({
  added: z.number(),
  failed: z.array(z.object({ row: z.number(), reason: z.string() })),
});
export const productImportBody = z.object({ fileId: zId() });
export const PRODUCT_IMPORT_HEADERS = [
  '产品名称',
  '产品编号',
  '分类',
  '售价(元)',
  '成本价(元)',
  '最低价(元)',
  '状态',
  '备注',
] as const;
