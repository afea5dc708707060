import {
  type CategoryCreateBody,
  type CategoryEditBody,
  type ListData,
  ORDER_ATTRS,
  PRODUCT_LIMITS,
  PRODUCT_STATUS_LABEL,
  type Product,
  type ProductBody,
  type ProductCategory,
  type ProductEditBody,
  type ProductListQuery,
  type ProductVariant,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import { type Actor, canDoAction } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime } from '../../lib/time';
import { canUseMenu } from '../../plugins/auth';
import * as repo from './products.repo';

export const PRODUCT_MENU = '/set/product';

/** The catalogue is read by its managers and by whoever may create orders (the add-product dialog). */
export const requireCatalogueReader = (actor: Actor) => {
  if (
    canUseMenu(actor, PRODUCT_MENU) ||
    canUseMenu(actor, '/order/list') ||
    canDoAction(actor, 'frontend/customer/detail/cOrder')
  )
    return;
  throw new AppError('FORBIDDEN_MENU');
};

// ---------- categories ----------

const buildTree = (rows: repo.CategoryRow[]): ProductCategory[] => {
  const byPid = new Map<number, repo.CategoryRow[]>();
  for (const r of rows) byPid.set(r.pid, [...(byPid.get(r.pid) ?? []), r]);
  const walk = (pid: number, depth: number): ProductCategory[] =>
    depth > PRODUCT_LIMITS.categoryDepth + 1
      ? []
      : (byPid.get(pid) ?? []).map((r) => ({
          id: r.id,
          pid: r.pid,
          name: r.name,
          sortNum: r.sortNum,
          children: walk(r.id, depth + 1),
        }));
  return walk(0, 1);
};

export const categoryTree = async (db: Db, actor: Actor) => {
  requireCatalogueReader(actor);
  return buildTree(await repo.listCategories(db, actor.tenantId));
};

/** The category and all below it (the list filter includes sub-categories). */
const withDescendants = (rows: repo.CategoryRow[], id: number) => {
  const ids = [id];
  for (let i = 0; i < ids.length; i++) for (const r of rows) if (r.pid === ids[i] && !ids.includes(r.id)) ids.push(r.id);
  return ids;
};

const depthOf = (rows: repo.CategoryRow[], id: number) => {
  let depth = 0;
  let cur = rows.find((r) => r.id === id);
  while (cur && depth <= PRODUCT_LIMITS.categoryDepth) {
    depth++;
    const pid = cur.pid;
    cur = rows.find((r) => r.id === pid);
  }
  return depth;
};

const checkCategory = async (db: DbOrTx, tenantId: number, body: CategoryCreateBody, id: number) => {
  const rows = await repo.listCategories(db, tenantId);
  if (body.pid !== 0) {
    if (!rows.some((r) => r.id === body.pid)) throw new AppError('CATEGORY_PARENT_INVALID');
    if (id && withDescendants(rows, id).includes(body.pid)) throw new AppError('CATEGORY_PARENT_INVALID');
    const below = id ? Math.max(...withDescendants(rows, id).map((d) => depthOf(rows, d) - depthOf(rows, id))) : 0;
    if (depthOf(rows, body.pid) + 1 + below > PRODUCT_LIMITS.categoryDepth) throw new AppError('CATEGORY_PARENT_INVALID');
  }
  const same = await repo.findCategoryByName(db, tenantId, body.pid, body.name);
  if (same && same.id !== id) throw new AppError('CATEGORY_NAME_TAKEN');
};

export const createCategory = async (db: Db, actor: Actor, body: CategoryCreateBody) => {
  await checkCategory(db, actor.tenantId, body, 0);
  return repo.insertCategory(db, { tenantId: actor.tenantId, pid: body.pid, name: body.name, sortNum: body.sortNum });
};

export const editCategory = async (db: Db, actor: Actor, body: CategoryEditBody) => {
  const rows = await repo.listCategories(db, actor.tenantId);
  if (!rows.some((r) => r.id === body.id)) throw new AppError('NOT_FOUND');
  await checkCategory(db, actor.tenantId, body, body.id);
  await repo.updateCategory(db, actor.tenantId, body.id, { pid: body.pid, name: body.name, sortNum: body.sortNum });
};

export const deleteCategory = async (db: Db, actor: Actor, id: number) => {
  const rows = await repo.listCategories(db, actor.tenantId);
  if (!rows.some((r) => r.id === id)) throw new AppError('NOT_FOUND');
  if (rows.some((r) => r.pid === id)) throw new AppError('CATEGORY_HAS_CHILDREN');
  if ((await repo.countProductsInCategory(db, actor.tenantId, id)) > 0) throw new AppError('CATEGORY_HAS_PRODUCTS');
  await repo.deleteCategory(db, actor.tenantId, id);
};

// ---------- products ----------

export type LoadedProduct = repo.ProductRow & {
  specs: { id: number; name: string; values: { id: number; name: string }[] }[];
  variants: ProductVariant[];
};

/** Products with their specifications and variants (SPEC §3 detailed). */
export const loadProducts = async (db: DbOrTx, tenantId: number, ids: number[]): Promise<LoadedProduct[]> => {
  const rows = await repo.findProducts(db, tenantId, ids);
  return withVariants(db, rows);
};

const withVariants = async (db: DbOrTx, rows: repo.ProductRow[]): Promise<LoadedProduct[]> => {
  const ids = rows.map((r) => r.id);
  const [specs, values, variants] = await Promise.all([
    repo.specsOf(db, ids),
    repo.specValuesOf(db, ids),
    repo.variantsOf(db, ids),
  ]);
  const valueById = new Map(values.map((v) => [v.id, v]));
  const specById = new Map(specs.map((s) => [s.id, s]));
  return rows.map((p) => ({
    ...p,
    specs: specs
      .filter((s) => s.productId === p.id)
      .map((s) => ({
        id: s.id,
        name: s.name,
        values: values.filter((v) => v.specId === s.id).map((v) => ({ id: v.id, name: v.name })),
      })),
    variants: variants
      .filter((v) => v.productId === p.id)
      .map((v) => ({
        id: v.id,
        price: v.price,
        cost: v.cost,
        minimum_price: v.minimumPrice,
        specifications_list: v.valueIds.flatMap((vid) => {
          const value = valueById.get(vid);
          const spec = value && specById.get(value.specId);
          return value && spec
            ? [
                {
                  specifications_id: spec.id,
                  specifications_name: spec.name,
                  specifications_value_id: value.id,
                  specifications_value_name: value.name,
                },
              ]
            : [];
        }),
      })),
  }));
};

const present = (p: LoadedProduct, categoryName: string | null): Product => ({
  id: p.id,
  pcid: p.categoryId,
  category_name: categoryName ?? '',
  name: p.name,
  code: p.code,
  remark: p.remark,
  price: p.price,
  cost: p.cost,
  minimum_price: p.minimumPrice,
  status: p.status,
  status_name: PRODUCT_STATUS_LABEL[p.status] ?? '',
  specifications: p.specs,
  detailed: p.variants,
  created_at: formatDateTime(p.createdAt),
});

export const listProducts = async (db: Db, actor: Actor, q: ProductListQuery): Promise<ListData<Product>> => {
  requireCatalogueReader(actor);
  let categoryIds: number[] | undefined;
  if (q.pcid) categoryIds = withDescendants(await repo.listCategories(db, actor.tenantId), q.pcid);
  const filter: repo.ProductFilter = { tenantId: actor.tenantId, keyword: q.keyword.trim(), categoryIds, status: q.status };
  const [rows, total] = await Promise.all([
    repo.listProducts(db, filter, q.limit, (q.page - 1) * q.limit),
    repo.countProducts(db, filter),
  ]);
  const loaded = await withVariants(
    db,
    rows.map((r) => r.product),
  );
  return { count: total, list: loaded.map((p, i) => present(p, rows[i].categoryName)) };
};

/** attrinfo: the order form's attributes and the chosen products with their variants. */
export const attrInfo = async (db: Db, actor: Actor, productIds: number[]) => {
  requireCatalogueReader(actor);
  const loaded = await loadProducts(db, actor.tenantId, [...new Set(productIds)]);
  return {
    attrs: ORDER_ATTRS,
    products: loaded.map((p) => ({
      id: p.id,
      name: p.name,
      price: p.price,
      cost: p.cost,
      minimum_price: p.minimumPrice,
      detailed: p.variants,
    })),
  };
};

/** The variants must be exactly combinations of the specifications' values, each once. */
const checkBody = async (db: DbOrTx, actor: Actor, body: ProductBody, id: number) => {
  if (body.minimum_price > body.price) throw new AppError('PRODUCT_MIN_PRICE_INVALID');
  if (body.code && (await repo.findProductByCode(db, actor.tenantId, body.code, id))) throw new AppError('PRODUCT_CODE_TAKEN');
  if (body.pcid && !(await repo.listCategories(db, actor.tenantId)).some((c) => c.id === body.pcid)) {
    throw new AppError('CATEGORY_PARENT_INVALID', '产品分类不存在');
  }
  const specNames = body.specifications.map((s) => s.name);
  if (new Set(specNames).size !== specNames.length) throw new AppError('PRODUCT_VARIANTS_INVALID', '规格名称不能重复');
  for (const s of body.specifications) {
    if (new Set(s.values).size !== s.values.length) throw new AppError('PRODUCT_VARIANTS_INVALID', `规格“${s.name}”的值不能重复`);
  }
  if (body.specifications.length === 0) {
    if (body.detailed.length > 0) throw new AppError('PRODUCT_VARIANTS_INVALID');
    return;
  }
  if (body.detailed.length === 0) throw new AppError('PRODUCT_VARIANTS_INVALID');
  const seen = new Set<string>();
  for (const v of body.detailed) {
    const ok =
      v.values.length === body.specifications.length && v.values.every((name, i) => body.specifications[i].values.includes(name));
    if (!ok) throw new AppError('PRODUCT_VARIANTS_INVALID');
    if (v.minimum_price > v.price) throw new AppError('PRODUCT_MIN_PRICE_INVALID');
    const key = JSON.stringify(v.values);
    if (seen.has(key)) throw new AppError('PRODUCT_VARIANTS_INVALID', '规格组合不能重复');
    seen.add(key);
  }
};

const fieldsOf = (body: ProductBody) => ({
  categoryId: body.pcid,
  name: body.name,
  code: body.code,
  remark: body.remark,
  status: body.status,
  price: body.price,
  cost: body.cost,
  minimumPrice: body.minimum_price,
});
const variantsOfBody = (body: ProductBody) =>
  body.detailed.map((v) => ({ values: v.values, price: v.price, cost: v.cost, minimumPrice: v.minimum_price }));

export const createProduct = async (db: Db, actor: Actor, body: ProductBody) => {
  await checkBody(db, actor, body, 0);
  return db.transaction(async (tx) => {
    const id = await repo.insertProduct(tx, { tenantId: actor.tenantId, ...fieldsOf(body), createdAt: now(), updatedAt: now() });
    await repo.replaceSpecs(tx, actor.tenantId, id, body.specifications, variantsOfBody(body));
    return id;
  });
};

export const editProduct = async (db: Db, actor: Actor, body: ProductEditBody) => {
  if ((await repo.findProducts(db, actor.tenantId, [body.id])).length === 0) throw new AppError('PRODUCT_NOT_FOUND');
  await checkBody(db, actor, body, body.id);
  await db.transaction(async (tx) => {
    const updated = await repo.updateProduct(tx, actor.tenantId, body.id, { ...fieldsOf(body), updatedAt: now() });
    if (updated.length === 0) throw new AppError('PRODUCT_NOT_FOUND');
    await repo.replaceSpecs(tx, actor.tenantId, body.id, body.specifications, variantsOfBody(body));
  });
};

/** Soft delete: orders keep their lines' copies of name and prices. */
export const deleteProducts = async (db: Db, actor: Actor, ids: number[]) => {
  const n = (await repo.updateProducts(db, actor.tenantId, ids, { deletedAt: now() })).length;
  if (n === 0) throw new AppError('PRODUCT_NOT_FOUND');
  return n;
};

export const setProductStatus = async (db: Db, actor: Actor, ids: number[], status: number) => {
  const n = (await repo.updateProducts(db, actor.tenantId, ids, { status, updatedAt: now() })).length;
  if (n === 0) throw new AppError('PRODUCT_NOT_FOUND');
  return n;
};
