import { z } from 'zod';
import { approvalInstanceSchema, approvalNodeRef } from './approvals';
import { listOf, qId, qNum, zId, zText } from './common';
import { MONEY_MAX, productVariantSchema } from './products';

/** SPEC §5/§9 deal-order limits. Money in 1/1000 yuan. */
export const ORDER_LIMITS = {
  amountMax: MONEY_MAX,
  images: 9,
  remark: 500,
  /** other text inputs of the form */
  text: 30,
  pageSize: 10,
  pageSizeOptions: [10, 30, 50, 100, 200],
  /** lines of one order */
  lines: 50,
  qtyMax: 99_999,
  /** orders moved by one cooperators/transfer call */
  batch: 200,
  /** staff collaborating on one order */
  cooperators: 20,
  /** rows of one export */
  exportRows: 100_000,
} as const;
export const ORDER_IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg'] as const;

/**
 * The order form's dynamic attributes (SPEC §3 attr, keyed by attribute id; §4 control kinds).
 * A fixed catalogue: 签约日期 is the order's deal time, 服务开始/结束日期 its start/end time.
 */
export const ORDER_ATTR = { contractNo: 1, dealDate: 2, startDate: 3, endDate: 4, payType: 5 } as const;
export const orderAttrSchema = z.object({
  id: z.number(),
  name: z.string(),
  dmType: z.number(),
  dmMust: z.number(),
  dmDesc: z.string(),
  dmValue: z.array(z.string()),
});
export type OrderAttr = z.infer<typeof orderAttrSchema>;
export const ORDER_ATTRS: OrderAttr[] = [
  { id: 1, name: '合同编号', dmType: 0, dmMust: 0, dmDesc: '请输入合同编号', dmValue: [] },
  { id: 2, name: '签约日期', dmType: 4, dmMust: 1, dmDesc: '请选择签约日期', dmValue: [] },
  { id: 3, name: '服务开始日期', dmType: 4, dmMust: 0, dmDesc: '请选择服务开始日期', dmValue: [] },
  { id: 4, name: '服务结束日期', dmType: 4, dmMust: 0, dmDesc: '请选择服务结束日期', dmValue: [] },
  { id: 5, name: '付款方式', dmType: 7, dmMust: 1, dmDesc: '请选择付款方式', dmValue: ['公对公转账', '支付宝', '微信', '线下'] },
];

/** An order line as submitted (SPEC §3): the catalogue decides cost, minimum price and totals. */
export const orderProductInput = z.object({
  id: zId(),
  /** specification value ids naming one variant (empty for a product without specifications) */
  specifications_list: z.array(zId()).max(10).default([]),
  /** the deal unit price, 1/1000 yuan */
  cost_price: z
    .number({ message: '请输入成交价' })
    .int('成交价格式不正确')
    .min(0, '成交价不能小于0')
    .max(MONEY_MAX, `成交价不能超过${MONEY_MAX}`),
  num: z
    .number({ message: '请输入数量' })
    .int('数量必须是整数')
    .min(0, '数量不能小于0')
    .max(ORDER_LIMITS.qtyMax, `数量不能超过${ORDER_LIMITS.qtyMax}`)
    .default(1),
  /** sent by the form; ignored (the catalogue's values are used) */
  cost: z.unknown().optional(),
  stand_price: z.unknown().optional(),
});
export type OrderProductInput = z.infer<typeof orderProductInput>;

const attrValue = z.union([
  zText().max(ORDER_LIMITS.text, `内容最多${ORDER_LIMITS.text}个字符`),
  z.number(),
  z.array(zText().max(ORDER_LIMITS.text)).max(20),
]);
export const orderStoreBody = z.object({
  customer_id: z.number({ message: '请选择客户' }).int().positive('请选择客户').max(2_147_483_647),
  attr: z.record(z.string().max(10), attrValue.nullable()).default({}),
  product: z.array(orderProductInput).max(ORDER_LIMITS.lines, `最多${ORDER_LIMITS.lines}个产品`).default([]),
  contact_phone: zText().trim().max(20, '联系方式最多20个字符').default(''),
  remark: zText().max(ORDER_LIMITS.remark, `备注最多${ORDER_LIMITS.remark}个字符`).default(''),
  /** upload ids of png/jpg/jpeg images the caller uploaded */
  images: z.array(zId()).max(ORDER_LIMITS.images, `最多上传${ORDER_LIMITS.images}张图片`).default([]),
});
export type OrderStoreBody = z.infer<typeof orderStoreBody>;
export const orderStoreResultSchema = z.object({ order_id: z.number() });

const qDate = z
  .string()
  .max(19)
  .regex(/^$|^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/, '日期格式不正确')
  .default('');
const qMoney = z.preprocess(
  (v) => (v === '' || v === undefined || v === null ? undefined : Number(v)),
  z.number().int().min(0).max(MONEY_MAX).optional(),
);
export const orderListQuery = z.object({
  page: z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), zId().default(1)),
  limit: z.preprocess(
    (v) => (v === '' || v === undefined ? ORDER_LIMITS.pageSize : Number(v)),
    z.number().int().min(1).max(200).default(ORDER_LIMITS.pageSize),
  ),
  customer_id: qNum,
  keyword: z.string().max(50).default(''),
  staff_id: qNum,
  verify_status: z.preprocess(
    (v) => (v === '' || v === undefined ? undefined : Number(v)),
    z.number().int().min(-1).max(3).optional(),
  ),
  deal_start: qDate,
  deal_end: qDate,
  amount_min: qMoney,
  amount_max: qMoney,
});
export type OrderListQuery = z.infer<typeof orderListQuery>;

/** SPEC §3 order row. */
export const orderRowSchema = z.object({
  id: z.number(),
  customer_id: z.number(),
  customer_name: z.string(),
  product_names: z.string(),
  start_time: z.string(),
  end_time: z.string(),
  /** order amount, 1/1000 yuan */
  cost_price: z.number(),
  deal_time: z.string(),
  owner: z.string(),
  owner_id: z.number(),
  cooperators: z.array(z.object({ staff_id: z.number(), linkman: z.string() })),
  created_at: z.string(),
  verify_status: z.number(),
  verify_status_name: z.string(),
  /** 1 when a line is below its minimum price */
  is_below_min: z.number(),
  instance_id: z.number(),
});
export type OrderRow = z.infer<typeof orderRowSchema>;

/** A page of orders; past 10,000 matches the count is the planner's estimate (isCountEstimated: "约 N 条"). */
export const orderListDataSchema = listOf(orderRowSchema).extend({ isCountEstimated: z.boolean().optional() });
export type OrderListData = z.infer<typeof orderListDataSchema>;

export const orderDetailQuery = z.object({ order_id: qId() });
export const orderLineSchema = z.object({
  product_id: z.number(),
  product_name: z.string(),
  spec_name: z.string(),
  /** deal unit price */
  cost_price: z.number(),
  cost: z.number(),
  /** minimum price */
  stand_price: z.number(),
  num: z.number(),
  total_price: z.number(),
  is_below_min: z.number(),
});
/** SPEC §3 order detail plus the approval trail. */
export const orderDetailSchema = z.object({
  order_id: z.number(),
  customer_id: z.number(),
  customer: z.object({
    name: z.string(),
    contact_name: z.string(),
    contact_phone: z.string(),
    cost_price: z.number(),
    deal_time: z.string(),
    created_at: z.string(),
    create_user: z.object({ linkman: z.string() }),
  }),
  owner: z.object({ staff_id: z.number(), linkman: z.string() }),
  cooperators: z.array(z.object({ staff_id: z.number(), linkman: z.string() })),
  verify_status: z.number(),
  verify_status_name: z.string(),
  is_below_min: z.number(),
  remark: z.string(),
  base: z.array(z.object({ key: z.string(), value: z.string() })),
  images: z.array(z.object({ id: z.number(), url: z.string(), name: z.string() })),
  product: z.array(orderLineSchema),
  total_price: z.number(),
  approval: approvalInstanceSchema.nullable(),
  /** the caller may approve/reject now; withdraw; submit (待提交, 已驳回 or 已撤回, and he owns it) */
  can_verify: z.number(),
  can_withdraw: z.number(),
  can_submit: z.number(),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

/**
 * order/verify: node_id names the approval node the approver acts on (approval.nodes[currentNode].nodeId of
 * auditdetail), instance_id optionally the instance; a repeated click is refused, never applied to the next node.
 */
export const orderVerifyBody = z.object({
  order_id: zId(),
  node_id: approvalNodeRef(),
  instance_id: zId().optional(),
  status: z.union([z.literal(1), z.literal(2)], { message: '请选择审核结果' }),
  remark: zText().max(ORDER_LIMITS.remark, `审核意见最多${ORDER_LIMITS.remark}个字符`).default(''),
});
export const orderWithdrawBody = z.object({ order_id: zId() });
const orderIds = z.array(zId()).min(1, '请选择订单').max(ORDER_LIMITS.batch);
export const orderCooperatorsBody = z.object({
  product_order_ids: orderIds,
  staff_ids: z.array(zId()).max(ORDER_LIMITS.cooperators, `协同人最多${ORDER_LIMITS.cooperators}名`),
});
export const orderTransferBody = z.object({
  product_order_ids: orderIds,
  transfer_to_staff_id: z.number({ message: '请选择负责人' }).int().positive('请选择负责人').max(2_147_483_647, '请选择负责人'),
  set_cooperator: z.union([z.literal(0), z.literal(1)]).default(0),
});
export const staffSearchQuery = z.object({ linkman: z.string().max(20).default('') });
/** SPEC §3 staff option. */
export const staffSearchSchema = z.object({ staff_id: z.number(), linkman: z.string() });

/** GET product/attrinfo answer: the order form's attributes and the chosen products' variants. */
export const attrInfoSchema = z.object({
  attrs: z.array(orderAttrSchema),
  products: z.array(
    z.object({
      id: z.number(),
      name: z.string(),
      price: z.number(),
      cost: z.number(),
      minimum_price: z.number(),
      detailed: z.array(productVariantSchema),
    }),
  ),
});

/** Workbench order figures (the caller's data scope). */
export const workbenchOrdersSchema = z.object({
  todayOrders: z.number(),
  todayAmount: z.number(),
  monthOrders: z.number(),
  monthAmount: z.number(),
  pendingApprovals: z.number(),
});
export type WorkbenchOrders = z.infer<typeof workbenchOrdersSchema>;
