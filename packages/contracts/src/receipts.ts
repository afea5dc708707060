import { z } from 'zod';
import { qNum, zId, zText } from './common';
import { MONEY_MAX } from './products';

/**
 * Receipt plans and receipts (issue 14, SPEC §3 Receipt plan / Receipt / Receipt summary / Repayment,
 * §5 rules, §9 limits). Money is an integer in 1/1000 yuan (displayed ÷ 1000 with 2 decimals).
 */
export const RECEIPT_LIMITS = {
  amountMax: MONEY_MAX,
  remark: 50,
  pageSize: 10,
  /** reminder lead days a company may set */
  remindDaysMax: 30,
  /** rows of one export */
  exportRows: 100_000,
} as const;

/** SPEC §9 pay types. */
export const PAY_TYPE = { bank: 1, alipay: 2, wechat: 3, offline: 4 } as const;
export const PAY_TYPE_LABEL: Record<number, string> = { 1: '公对公转账', 2: '支付宝', 3: '微信', 4: '线下' };

/** A plan's status, derived from its receipts and the business clock, never stored. */
export const PLAN_STATUS = { unpaid: 0, partial: 1, paid: 2, overdue: 3 } as const;
export const PLAN_STATUS_LABEL: Record<number, string> = { 0: '未回款', 1: '部分回款', 2: '已回款', 3: '已逾期' };
/** Plan status from its amount, what was received (approved receipts) and its date against today (YYYY-MM-DD). */
export const planStatusOf = (amount: number, repaid: number, planAt: string, today: string): number => {
  if (repaid >= amount) return PLAN_STATUS.paid;
  if (planAt < today) return PLAN_STATUS.overdue;
  return repaid > 0 ? PLAN_STATUS.partial : PLAN_STATUS.unpaid;
};

/** A receipt's approval: -1 none needed (counts at once) … or the instance's VERIFY_STATUS (0 审核中, 1 已通过, 2 已驳回, 3 已撤回). */
export const RECEIPT_APPROVAL = { none: -1 } as const;

/** The socket message type of a receipt-plan reminder (orders use 20). */
export const RECEIPT_REMIND_MSG_TYPE = 21;

const money = (required: string) =>
  z.number({ message: required }).int('金额格式不正确').min(0, '金额不能小于0').max(MONEY_MAX, `金额不能超过${MONEY_MAX}`);
const day = z
  .string({ message: '请选择日期' })
  .trim()
  .min(1, '请选择日期')
  .regex(/^\d{4}-\d{2}-\d{2}$/, '请选择日期');
const remark = zText().trim().max(RECEIPT_LIMITS.remark, `备注最多${RECEIPT_LIMITS.remark}个字符`).default('');
const orderId = z.number({ message: '请选择订单' }).int().positive('请选择订单').max(2_147_483_647, '请选择订单');

/** SPEC §3/§5 receipt plan: order (请选择订单), amount (请输入金额), plan_at (请选择日期), remark ≤ 50. */
export const planCreateBody = z.object({
  order_id: orderId,
  amount: money('请输入金额'),
  plan_at: day,
  remark,
  contact_phone_name: zText().max(50).optional(),
});
export type PlanCreateBody = z.infer<typeof planCreateBody>;
export const planUpdateBody = planCreateBody.omit({ order_id: true }).extend({ id: zId() });
export type PlanUpdateBody = z.infer<typeof planUpdateBody>;

/** SPEC §3/§5 receipt: order, plan (请选择回款计划), amount, repayment_at required; pay type 1–4; remark ≤ 50. */
export const receiptCreateBody = z.object({
  order_id: orderId,
  order_repayment_plan_id: z
    .number({ message: '请选择回款计划' })
    .int()
    .positive('请选择回款计划')
    .max(2_147_483_647, '请选择回款计划'),
  amount: money('请输入金额'),
  repayment_at: day,
  pay_type: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], { message: '请选择付款方式' }),
  remark,
  contact_phone_name: zText().max(50).optional(),
  name: zText().max(50).optional(),
  /** the picked approvers of free nodes when the company's receipt flow has any */
  staffApproveNode: z
    .array(z.object({ nodeId: z.number().int(), staffS: z.array(z.object({ id: zId() })).max(3, '最多选择3名！') }))
    .max(20)
    .default([]),
});
export type ReceiptCreateBody = z.infer<typeof receiptCreateBody>;
export const receiptUpdateBody = receiptCreateBody
  .omit({ order_id: true, order_repayment_plan_id: true, staffApproveNode: true })
  .extend({ id: zId() });
export type ReceiptUpdateBody = z.infer<typeof receiptUpdateBody>;

/** SPEC §3 Repayment. */
export const repaymentSchema = z.object({
  id: z.number(),
  amount: z.number(),
  repayment_at: z.string(),
  created_at: z.string(),
  remark: z.string(),
  pay_type: z.number(),
  pay_type_name: z.string(),
  order_repayment_plan_id: z.number(),
  order_id: z.number(),
  /** -1 no approval, else the approval instance's status */
  verify_status: z.number(),
  instance_id: z.number(),
});
export type Repayment = z.infer<typeof repaymentSchema>;

/** A receipt plan row with its derived status. */
export const planRowSchema = z.object({
  id: z.number(),
  order_id: z.number(),
  customer_id: z.number(),
  customer_name: z.string(),
  owner_id: z.number(),
  owner: z.string(),
  amount: z.number(),
  /** approved (or approval-free) receipts of the plan */
  repaid_amount_sum: z.number(),
  plan_at: z.string(),
  remark: z.string(),
  status: z.number(),
  status_name: z.string(),
  created_at: z.string(),
});
export type PlanRow = z.infer<typeof planRowSchema>;

/** SPEC §3 Receipt summary: totals equal the sum of their parts (one query). */
export const receiptSummarySchema = z.object({
  repaid_amount_sum: z.number(),
  plan_amount_sum: z.number(),
  plan_collection: z.array(
    planRowSchema.extend({
      product_order: z.object({
        id: z.number(),
        name: z.string(),
        contact_phone: z.string(),
        product_order_repayments: z.array(repaymentSchema),
      }),
    }),
  ),
});
export type ReceiptSummary = z.infer<typeof receiptSummarySchema>;
export const receiptSummaryQuery = z
  .object({ customer_id: qNum, order_id: qNum })
  .refine((q) => q.customer_id !== undefined || q.order_id !== undefined, { message: '请选择客户或订单' });

const page = z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), z.number().int().min(1).max(100_000).default(1));
const limit = z.preprocess(
  (v) => (v === '' || v === undefined ? RECEIPT_LIMITS.pageSize : Number(v)),
  z.number().int().min(1).max(200).default(RECEIPT_LIMITS.pageSize),
);
const qDay = z
  .string()
  .max(10)
  .regex(/^$|^\d{4}-\d{2}-\d{2}$/, '日期格式不正确')
  .default('');
/** GET planlist: an order's or a customer's plans, or (neither) 回款管理's plans in the caller's data scope. */
export const planListQuery = z.object({
  page,
  limit,
  order_id: qNum,
  customer_id: qNum,
  staff_id: qNum,
  status: z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), z.number().int().min(0).max(3).optional()),
  plan_start: qDay,
  plan_end: qDay,
});
export type PlanListQuery = z.infer<typeof planListQuery>;
/** GET list: receipts of an order, a customer, or (neither) 回款管理's receipts in the caller's data scope. */
export const receiptListQuery = z.object({
  page,
  limit,
  order_id: qNum,
  customer_id: qNum,
  staff_id: qNum,
  pay_type: z.preprocess((v) => (v === '' || v === undefined ? undefined : Number(v)), z.number().int().min(1).max(4).optional()),
  start: qDay,
  end: qDay,
});
export type ReceiptListQuery = z.infer<typeof receiptListQuery>;
export const receiptRowSchema = repaymentSchema.extend({
  customer_id: z.number(),
  customer_name: z.string(),
  owner: z.string(),
  plan_at: z.string(),
});
export type ReceiptRow = z.infer<typeof receiptRowSchema>;

/** Company receipt settings: reminder lead days (default 3) and the receipt approval flow (0 = none). */
export const receiptSettingSchema = z.object({ remind_days: z.number(), approval_template_id: z.number() });
export type ReceiptSetting = z.infer<typeof receiptSettingSchema>;
export const receiptSettingBody = z.object({
  remind_days: z
    .number({ message: '请输入提醒天数' })
    .int('提醒天数必须是整数')
    .min(0, '提醒天数不能小于0')
    .max(RECEIPT_LIMITS.remindDaysMax, `提醒天数不能超过${RECEIPT_LIMITS.remindDaysMax}`),
  approval_template_id: z.number().int().min(0).max(2_147_483_647).default(0),
});

/** Workbench receipt figures (the caller's data scope). */
export const workbenchReceiptsSchema = z.object({
  monthReceived: z.number(),
  dueIn30Days: z.number(),
  overdue: z.number(),
});
export type WorkbenchReceipts = z.infer<typeof workbenchReceiptsSchema>;

/** 回款管理 figures: months of the default window and the most a window may span. */
export const RECEIPT_STATS = { defaultMonths: 12, maxMonths: 36, topStaff: 20, dueDays: 30 } as const;
const qMonth = z
  .string()
  .max(7)
  .regex(/^$|^\d{4}-(0[1-9]|1[0-2])$/, '月份格式不正确')
  .default('');
/** GET stats: receipts by month and by staff in [start, end] (months, default the last 12), plans due in the next 30 days. */
export const receiptStatsQuery = z
  .object({ staff_id: qNum, start: qMonth, end: qMonth })
  .refine((q) => !q.start || !q.end || q.start <= q.end, { message: '开始月份不能晚于结束月份', path: ['start'] });
export type ReceiptStatsQuery = z.infer<typeof receiptStatsQuery>;
export const receiptStatsSchema = z.object({
  /** every month of the window, oldest first (0 when nothing was received) */
  byMonth: z.array(z.object({ month: z.string(), amount: z.number() })),
  /** the top staff by received amount in the window, then 其他 (staff_id 0) for the rest */
  byStaff: z.array(z.object({ staff_id: z.number(), name: z.string(), amount: z.number() })),
  /** every day from today to today + 30: what open plans still expect, and how many */
  dueNext30: z.array(z.object({ day: z.string(), amount: z.number(), count: z.number() })),
});
export type ReceiptStats = z.infer<typeof receiptStatsSchema>;
