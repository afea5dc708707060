import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { productCategories, productSpecs, productSpecValues, products, productVariants } from '../../db/schema';

export type ProductRow = typeof products.$inferSelect;
export type CategoryRow = typeof productCategories.$inferSelect;

// ---------- categories ----------

export const listCategories = (db: DbOrTx, tenantId: number) =>
  db
    .select()
    .from(productCategories)
    .where(eq(productCategories.tenantId, tenantId))
    .orderBy(asc(productCategories.sortNum), asc(productCategories.id));

export const findCategoryByName = async (db: DbOrTx, tenantId: number, pid: number, name: string) =>
  (
    await db
      .select({ id: productCategories.id })
      .from(productCategories)
      .where(and(eq(productCategories.tenantId, tenantId), eq(productCategories.pid, pid), eq(productCategories.name, name)))
      .limit(1)
  )[0];

export const insertCategory = async (db: DbOrTx, row: typeof productCategories.$inferInsert) =>
  (await db.insert(productCategories).values(row).returning({ id: productCategories.id }))[0].id;

export const updateCategory = (db: DbOrTx, tenantId: number, id: number, set: Partial<typeof productCategories.$inferInsert>) =>
  db
    .update(productCategories)
    .set(set)
    .where(and(eq(productCategories.tenantId, tenantId), eq(productCategories.id, id)));

export const deleteCategory = (db: DbOrTx, tenantId: number, id: number) =>
  db.delete(productCategories).where(and(eq(productCategories.tenantId, tenantId), eq(productCategories.id, id)));

export const countProductsInCategory = async (db: DbOrTx, tenantId: number, categoryId: number) =>
  (
    await db
      .select({ n: count() })
      .from(products)
      .where(and(eq(products.tenantId, tenantId), eq(products.categoryId, categoryId), isNull(products.deletedAt)))
  )[0].n;

// ---------- products ----------

export type ProductFilter = { tenantId: number; keyword: string; categoryIds?: number[]; status?: number };

const whereOf = (f: ProductFilter): SQL | undefined => {
  const conds: (SQL | undefined)[] = [eq(products.tenantId, f.tenantId), isNull(products.deletedAt)];
  if (f.keyword) {
    const like = `%${f.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conds.push(or(ilike(products.name, like), ilike(products.code, like)));
  }
  if (f.categoryIds) conds.push(inArray(products.categoryId, f.categoryIds));
  if (f.status !== undefined) conds.push(eq(products.status, f.status));
  return and(...conds);
};

export const listProducts = (db: DbOrTx, f: ProductFilter, limit: number, offset: number) =>
  db
    .select({ product: products, categoryName: productCategories.name })
    .from(products)
    .leftJoin(productCategories, eq(productCategories.id, products.categoryId))
    .where(whereOf(f))
    .orderBy(desc(products.id))
    .limit(limit)
    .offset(offset);

export const countProducts = async (db: DbOrTx, f: ProductFilter) =>
  (await db.select({ n: count() }).from(products).where(whereOf(f)))[0].n;

export const findProducts = (db: DbOrTx, tenantId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([] as ProductRow[])
    : db
        .select()
        .from(products)
        .where(and(eq(products.tenantId, tenantId), inArray(products.id, ids), isNull(products.deletedAt)));

export const findProductByCode = async (db: DbOrTx, tenantId: number, code: string, exceptId: number) =>
  (
    await db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.tenantId, tenantId), eq(products.code, code), ne(products.id, exceptId), isNull(products.deletedAt)))
      .limit(1)
  )[0];

export const insertProduct = async (db: DbOrTx, row: typeof products.$inferInsert) =>
  (await db.insert(products).values(row).returning({ id: products.id }))[0].id;

export const updateProduct = (db: DbOrTx, tenantId: number, id: number, set: Partial<typeof products.$inferInsert>) =>
  db
    .update(products)
    .set(set)
    .where(and(eq(products.tenantId, tenantId), eq(products.id, id), isNull(products.deletedAt)))
    .returning({ id: products.id });

export const updateProducts = (db: DbOrTx, tenantId: number, ids: number[], set: Partial<typeof products.$inferInsert>) =>
  db
    .update(products)
    .set(set)
    .where(and(eq(products.tenantId, tenantId), inArray(products.id, ids), isNull(products.deletedAt)))
    .returning({ id: products.id });

// ---------- specifications and variants ----------

export const specsOf = (db: DbOrTx, productIds: number[]) =>
  productIds.length === 0
    ? Promise.resolve([])
    : db
        .select()
        .from(productSpecs)
        .where(inArray(productSpecs.productId, productIds))
        .orderBy(asc(productSpecs.sortNum), asc(productSpecs.id));

export const specValuesOf = (db: DbOrTx, productIds: number[]) =>
  productIds.length === 0
    ? Promise.resolve([])
    : db
        .select()
        .from(productSpecValues)
        .where(inArray(productSpecValues.productId, productIds))
        .orderBy(asc(productSpecValues.sortNum), asc(productSpecValues.id));

export const variantsOf = (db: DbOrTx, productIds: number[]) =>
  productIds.length === 0
    ? Promise.resolve([])
    : db
        .select()
        .from(productVariants)
        .where(and(inArray(productVariants.productId, productIds), isNull(productVariants.deletedAt)))
        .orderBy(asc(productVariants.id));

/** Replaces a product's specifications: old variants are retired (orders keep their copies), the new ones written. */
export const replaceSpecs = async (
  tx: DbOrTx,
  tenantId: number,
  productId: number,
  specs: { name: string; values: string[] }[],
  variants: { values: string[]; price: number; cost: number; minimumPrice: number }[],
) => {
  await tx
    .update(productVariants)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(productVariants.tenantId, tenantId), eq(productVariants.productId, productId)));
  await tx
    .delete(productSpecValues)
    .where(and(eq(productSpecValues.tenantId, tenantId), eq(productSpecValues.productId, productId)));
  await tx.delete(productSpecs).where(and(eq(productSpecs.tenantId, tenantId), eq(productSpecs.productId, productId)));
  const valueIds: Map<string, number>[] = [];
  for (const [i, spec] of specs.entries()) {
    const [s] = await tx
      .insert(productSpecs)
      .values({ tenantId, productId, name: spec.name, sortNum: i })
      .returning({ id: productSpecs.id });
    const rows = await tx
      .insert(productSpecValues)
      .values(spec.values.map((name, j) => ({ tenantId, productId, specId: s.id, name, sortNum: j })))
      .returning({ id: productSpecValues.id, name: productSpecValues.name });
    valueIds.push(new Map(rows.map((r) => [r.name, r.id])));
  }
  if (variants.length === 0) return;
  await tx.insert(productVariants).values(
    variants.map((v) => ({
      tenantId,
      productId,
      valueIds: v.values.map((name, i) => valueIds[i].get(name) ?? 0),
      price: v.price,
      cost: v.cost,
      minimumPrice: v.minimumPrice,
    })),
  );
};
