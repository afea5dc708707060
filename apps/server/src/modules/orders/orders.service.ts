import {
  extensionOf,
  IMAGE_EXTENSIONS,
  type ListData,
  MONEY_MAX,
  ORDER_ATTR,
  ORDER_ATTRS,
  type OrderListQuery,
  type OrderRow,
  type OrderStoreBody,
  VERIFY_STATUS_LABEL,
  type WorkbenchOrders,
} from '@crm/contracts';
import type { Db, DbOrTx } from '../../db/client';
import { AppError } from '../../lib/app-error';
import type { Actor } from '../../lib/auth-context';
import { now } from '../../lib/clock';
import { formatDateTime, parseDateTime, startOfTodayShanghai } from '../../lib/time';
import { canUseMenu } from '../../plugins/auth';
import { pendingApprovalCount, takesPartInApproval } from '../approvals/approvals-lists';
import { requireModuleOn } from '../company/company-modules';
import { canSee, requireDetailFlag, requireVisibleCustomer, viewerOf } from '../customers/customer-access';
import { findCustomerRecord } from '../customers/customers.service';
import { loadProducts } from '../products/products.service';
import { scopeStaffIds } from '../staff/staff.service';
import { requireOwnFile } from '../uploads/uploads.service';
import * as repo from './orders.repo';

export const ORDER_MENU = '/order/list';
const DATE = /^\d{4}-\d{2}-\d{2}$/;

type AttrValue = string | number | string[] | null;

/** The form's attributes (SPEC §5 deal form): required ones filled, dates and options valid. */
const readAttrs = (attr: Record<string, AttrValue>) => {
  const out: Record<string, string | string[]> = {};
  for (const a of ORDER_ATTRS) {
    const raw = attr[String(a.id)];
    const list = (Array.isArray(raw) ? raw : raw === null || raw === undefined ? [] : [String(raw)])
      .map((v) => v.trim())
      .filter(Boolean);
    const isChoice = a.dmType === 4 || a.dmType === 7 || a.dmType === 8;
    if (list.length === 0) {
      if (a.dmMust === 1) throw new AppError('ORDER_ATTR_REQUIRED', `${isChoice ? '请选择' : '请输入'}${a.name}`);
      continue;
    }
    if (a.dmType === 4 && !(DATE.test(list[0]) && parseDateTime(list[0])))
      throw new AppError('ORDER_ATTR_REQUIRED', `请选择${a.name}`);
    if ((a.dmType === 7 || a.dmType === 8) && list.some((v) => !a.dmValue.includes(v)))
      throw new AppError('ORDER_ATTR_REQUIRED', `请选择${a.name}`);
    out[String(a.id)] = a.dmType === 8 ? list : list[0];
  }
  const date = (id: number) => {
    const v = out[String(id)];
    return typeof v === 'string' ? parseDateTime(v) : null;
  };
  const startAt = date(ORDER_ATTR.startDate);
  const endAt = date(ORDER_ATTR.endDate);
  if (startAt && endAt && endAt < startAt) throw new AppError('ORDER_DATE_INVALID');
  return { attr: out, dealAt: date(ORDER_ATTR.dealDate), startAt, endAt };
};

/** Lines priced by the server from the catalogue (the client's cost, minimum price and totals are ignored). */
const priceLines = async (db: DbOrTx, tenantId: number, input: OrderStoreBody['product']) => {
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

/** order/store: the order, 待提交 until templatecreate starts its approval. */
export const storeOrder = async (db: Db, actor: Actor, body: OrderStoreBody): Promise<number> => {
  requireDetailFlag(actor, 'cOrder');
  await requireModuleOn(db, actor.tenantId, 'order');
  const customer = await requireVisibleCustomer(db, actor, body.customer_id);
  if (body.product.length === 0) throw new AppError('PRODUCT_REQUIRED');
  if (!body.contact_phone.trim()) throw new AppError('CONTACT_PHONE_REQUIRED');
  const { attr, dealAt, startAt, endAt } = readAttrs(body.attr);
  const imageIds = [...new Set(body.images)];
  for (const id of imageIds) {
    const file = await requireOwnFile(db, actor, id).catch(() => undefined);
    if (
      !file ||
      file.staffId !== actor.staffId ||
      !(IMAGE_EXTENSIONS as readonly string[]).includes(extensionOf(file.storedName))
    ) {
      throw new AppError('ORDER_IMAGE_INVALID');
    }
  }
  const { lines, amount } = await priceLines(db, actor.tenantId, body.product);
  const at = now();
  return db.transaction((tx) =>
    repo.insertOrder(
      tx,
      {
        tenantId: actor.tenantId,
        customerId: customer.id,
        ownerId: actor.staffId,
        creatorId: actor.staffId,
        contactPhone: body.contact_phone.trim(),
        attr,
        amount,
        isBelowMin: lines.some((l) => l.isBelowMin === 1) ? 1 : 0,
        remark: body.remark.trim(),
        imageIds,
        productNames: [...new Set(lines.map((l) => l.productName))].join('、').slice(0, 500),
        verifyStatus: -1,
        dealAt: dealAt ?? at,
        startAt,
        endAt,
        createdAt: at,
      },
      lines,
    ),
  );
};

/** Who sees an order: owner in the caller's data scope, a collaborator, a participant of its approval, or one who may see its customer. */
export const canReadOrder = async (db: Db, actor: Actor, order: repo.OrderRow) => {
  const scope = await scopeStaffIds(db, actor);
  if (scope === null || scope.includes(order.ownerId)) return true;
  if (await repo.isCooperator(db, order.id, actor.staffId)) return true;
  if (await takesPartInApproval(db, actor.tenantId, 'order', order.id, actor.staffId)) return true;
  const customer = await findCustomerRecord(db, actor.tenantId, order.customerId);
  return !!customer && canSee(await viewerOf(db, actor), customer);
};

export const requireReadableOrder = async (db: Db, actor: Actor, id: number) => {
  const order = await repo.findOrder(db, actor.tenantId, id);
  if (!order || !(await canReadOrder(db, actor, order))) throw new AppError('ORDER_NOT_FOUND');
  return order;
};

const COOPERATED_INLINE = 2_000;
const cooperatedOf = async (db: Db, actor: Actor) => {
  const ids = await repo.cooperatedOrderIds(db, actor.tenantId, actor.staffId, COOPERATED_INLINE + 1);
  return ids.length > COOPERATED_INLINE ? { staffId: actor.staffId } : ids;
};

const dayBound = (s: string, end: boolean) =>
  s ? (parseDateTime(s.length === 10 ? `${s} ${end ? '23:59:59' : '00:00:00'}` : s) ?? undefined) : undefined;

/**
 * The filter of a list: the order page shows the caller's data scope plus the orders he collaborates
 * on; a customer's order tab (customer_id) shows the orders of a customer he may see.
 */
export const orderFilter = async (db: Db, actor: Actor, q: OrderListQuery): Promise<repo.OrderFilter> => {
  let ownerIds: number[] | null;
  if (q.customer_id) {
    requireDetailFlag(actor, 'order');
    await requireVisibleCustomer(db, actor, q.customer_id);
    ownerIds = null;
  } else {
    if (!canUseMenu(actor, ORDER_MENU)) throw new AppError('FORBIDDEN_MENU');
    ownerIds = await scopeStaffIds(db, actor);
  }
  return {
    tenantId: actor.tenantId,
    ownerIds,
    cooperated: ownerIds === null ? undefined : await cooperatedOf(db, actor),
    customerId: q.customer_id,
    keyword: q.keyword.trim(),
    staffId: q.staff_id,
    verifyStatus: q.verify_status,
    dealFrom: dayBound(q.deal_start, false),
    dealTo: dayBound(q.deal_end, true),
    amountMin: q.amount_min,
    amountMax: q.amount_max,
  };
};

const attrText = (o: repo.OrderRow, id: number) => {
  const v = o.attr[String(id)];
  return Array.isArray(v) ? v.join('、') : v === null || v === undefined ? '' : String(v);
};

export const presentRows = async (
  db: DbOrTx,
  rows: { order: repo.OrderRow; customerName: string | null; ownerName: string | null }[],
): Promise<OrderRow[]> => {
  const coop = await repo.cooperatorsOf(
    db,
    rows.map((r) => r.order.id),
  );
  return rows.map(({ order: o, customerName, ownerName }) => ({
    id: o.id,
    customer_id: o.customerId,
    customer_name: customerName ?? '',
    product_names: o.productNames,
    start_time: attrText(o, ORDER_ATTR.startDate),
    end_time: attrText(o, ORDER_ATTR.endDate),
    cost_price: o.amount,
    deal_time: formatDateTime(o.dealAt).slice(0, 10),
    owner: ownerName ?? '',
    owner_id: o.ownerId,
    cooperators: coop.filter((c) => c.orderId === o.id).map((c) => ({ staff_id: c.staffId, linkman: c.name })),
    created_at: formatDateTime(o.createdAt),
    verify_status: o.verifyStatus,
    verify_status_name: VERIFY_STATUS_LABEL[o.verifyStatus] ?? '',
    is_below_min: o.isBelowMin,
    instance_id: o.instanceId ?? 0,
  }));
};

export const listOrders = async (db: Db, actor: Actor, q: OrderListQuery): Promise<ListData<OrderRow>> => {
  await requireModuleOn(db, actor.tenantId, 'order');
  const f = await orderFilter(db, actor, q);
  const [rows, total] = await Promise.all([repo.listOrders(db, f, q.limit, (q.page - 1) * q.limit), repo.countOrders(db, f)]);
  return { count: total, list: await presentRows(db, rows) };
};

/** staff/search (SPEC §7): the company's active staff by name, for approvers, collaborators and owners. */
export const searchStaff = (db: Db, actor: Actor, linkman: string) => repo.searchActiveStaff(db, actor.tenantId, linkman.trim());

/** Workbench figures: orders submitted or approved today and this month (data scope), and approvals waiting for the caller. */
export const orderWorkbench = async (db: Db, actor: Actor): Promise<WorkbenchOrders> => {
  const scope = await scopeStaffIds(db, actor);
  const today = startOfTodayShanghai();
  const month = parseDateTime(`${formatDateTime(now()).slice(0, 7)}-01`) ?? today;
  const [d, m, pending] = await Promise.all([
    repo.orderFigures(db, actor.tenantId, scope, today),
    repo.orderFigures(db, actor.tenantId, scope, month),
    pendingApprovalCount(db, actor),
  ]);
  return { todayOrders: d.count, todayAmount: d.amount, monthOrders: m.count, monthAmount: m.amount, pendingApprovals: pending };
};
