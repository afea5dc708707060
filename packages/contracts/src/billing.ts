import { z } from 'zod';
import { qNum, zId, zText } from './common';

/**
 * Billing (issue 27, SPEC §2 /account/expensedetails 消费明细). Money is an integer in 1/10,000
 * yuan everywhere (storage and JSON); the web divides by BILLING_MONEY_UNIT to show yuan.
 * Seconds are integers. Dates are Beijing days (YYYY-MM-DD), times 'YYYY-MM-DD HH:mm:ss'.
 */
export const BILLING_MONEY_UNIT = 10_000;
/** 1 yuan in storage units (a recharge in yuan × this). */
export const yuanToBillingUnits = (yuan: number) => Math.round(yuan * BILLING_MONEY_UNIT);
/** Shows an amount in yuan with 2 decimals (the web's display; rounding half away from zero). */
export const formatBillingYuan = (units: number): string => {
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  const cents = Math.floor((abs + 50) / 100);
  return `${sign}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
};
/** A price per minute with 4 decimals (rates like 0.0650 元/分钟). */
export const formatBillingRate = (units: number): string =>
  `${Math.floor(units / BILLING_MONEY_UNIT)}.${String(units % BILLING_MONEY_UNIT).padStart(4, '0')}`;

export const BILLING_LIMITS = {
  /** one recharge or adjustment: at most 10,000,000 yuan */
  amountMax: 100_000_000_000,
  /** low-balance thresholds per company */
  thresholdsMax: 5,
  pageSize: 20,
  /** rows of one export */
  exportRows: 200_000,
  /** a chart or summary covers at most this many days */
  rangeDaysMax: 366,
  refMax: 64,
  remarkMax: 100,
} as const;

/** Ledger row types (one row per money movement). */
export const LEDGER_TYPES = ['recharge', 'call', 'rental', 'storage', 'esign', 'leads', 'adjust'] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];
export const LEDGER_TYPE_LABEL: Record<LedgerType, string> = {
  recharge: '充值',
  call: '通话费',
  rental: '号码/线路月租',
  storage: '录音存储',
  esign: '电子签',
  leads: '线索查询',
  adjust: '调整',
};

/** Call kinds a rate plan prices separately. */
export const CALL_KINDS = ['manual', 'task', 'group', 'ai', 'inbound'] as const;
export type CallKind = (typeof CALL_KINDS)[number];
export const CALL_KIND_LABEL: Record<CallKind, string> = {
  manual: '手动外呼',
  task: '任务外呼',
  group: '群呼',
  ai: 'AI外呼',
  inbound: '呼入',
};

/**
 * What a charge is, for charts, filters and the 汇总 by kind: a call's kind, or the ledger type of
 * any other debit (rental, storage, esign, leads, adjust). Recharges are not charges.
 */
export const CHARGE_KINDS = [
  'manual',
  'task',
  'group',
  'ai',
  'inbound',
  'rental',
  'storage',
  'esign',
  'leads',
  'adjust',
] as const;
export type ChargeKind = (typeof CHARGE_KINDS)[number];
export const CHARGE_KIND_LABEL: Record<ChargeKind, string> = {
  ...CALL_KIND_LABEL,
  rental: LEDGER_TYPE_LABEL.rental,
  storage: LEDGER_TYPE_LABEL.storage,
  esign: LEDGER_TYPE_LABEL.esign,
  leads: LEDGER_TYPE_LABEL.leads,
  adjust: LEDGER_TYPE_LABEL.adjust,
};

/** Recharge channels the operator records (no payment gateway: money arrives outside the product). */
export const RECHARGE_CHANNELS = ['对公转账', '支付宝', '微信', '现金', '赠送'] as const;
export const RECHARGE_STATUS = { done: 1 } as const;
export const RECHARGE_STATUS_LABEL: Record<number, string> = { 1: '已到账' };

/** Socket msg_type of a low-balance notice (approvals 20, receipts 21, work orders 22, AI 23). */
export const BILLING_LOW_BALANCE_MSG_TYPE = 24;

const money = (label: string) =>
  z
    .number({ message: `请输入${label}` })
    .int(`${label}格式不正确`)
    .min(0, `${label}不能小于0`)
    .max(BILLING_LIMITS.amountMax, `${label}超出上限`);
const qDay = z
  .string()
  .max(10)
  .regex(/^$|^\d{4}-\d{2}-\d{2}$/, '日期格式不正确')
  .default('');
const qKind = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  z.enum(CHARGE_KINDS, { message: '消费类型不正确' }).optional(),
);
const page = z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), z.number().int().min(1).max(100_000).default(1));
const limit = z.preprocess(
  (v) => (v === '' || v === undefined ? BILLING_LIMITS.pageSize : Number(v)),
  z.number().int().min(1).max(200).default(BILLING_LIMITS.pageSize),
);

// ---------- the page's reads (/api/frontend/billing/...) ----------

/** Filters shared by the chart, the list, the summary and the export. Empty dates: this month. */
export const billingFilterQuery = z.object({
  start: qDay,
  end: qDay,
  staff_id: qNum,
  department_id: qNum,
  kind: qKind,
  /** digits of the line/caller number or the callee */
  number: z.string().trim().max(20, '号码最多20位').regex(/^\d*$/, '号码只能包含数字').default(''),
});
export type BillingFilterQuery = z.infer<typeof billingFilterQuery>;
export const billingListQuery = billingFilterQuery.extend({ page, limit });
export type BillingListQuery = z.infer<typeof billingListQuery>;

/** The balance card. `scope` own: a staff member seeing his own charges (no balance, no recharges). */
export const billingOverviewSchema = z.object({
  scope: z.enum(['company', 'own']),
  /** 余额 (null for scope own) */
  balance: z.number().nullable(),
  /** held by calls in progress (null for scope own) */
  reserved: z.number().nullable(),
  /** 本月消费 (Beijing month) */
  month_spend: z.number(),
  /** 今日消费 */
  today_spend: z.number(),
  /** average daily spend over the last 30 days (the days-left basis) */
  daily_spend: z.number(),
  /** 预计可用天数: floor(balance / daily spend); null when nothing was spent or scope own */
  days_left: z.number().nullable(),
  /** the rate plan in force now; null: calls are free and never refused */
  plan: z.object({ id: z.number(), name: z.string() }).nullable(),
  thresholds: z.array(z.number()),
  /** the balance is under the highest threshold */
  is_low: z.boolean(),
});
export type BillingOverview = z.infer<typeof billingOverviewSchema>;

/** Consumption by day split by kind (ECharts stacked bars): amounts[i] belongs to days[i]. */
export const billingChartSchema = z.object({
  days: z.array(z.string()),
  series: z.array(z.object({ kind: z.enum(CHARGE_KINDS), label: z.string(), amounts: z.array(z.number()) })),
  totals: z.array(z.number()),
});
export type BillingChart = z.infer<typeof billingChartSchema>;

/** One 消费明细 row: a debit of the ledger (a call's charge with its call facts, or another debit). */
export const billingChargeRowSchema = z.object({
  id: z.number(),
  /** when it was charged */
  at: z.string(),
  kind: z.enum(CHARGE_KINDS),
  kind_label: z.string(),
  staff_id: z.number().nullable(),
  staff_name: z.string(),
  department_name: z.string(),
  task_id: z.number(),
  task_name: z.string(),
  /** the line / caller number */
  line: z.string(),
  /** the callee, masked per the customer-access policy */
  callee: z.string(),
  customer_id: z.number(),
  /** CALL_TYPE: 1 呼出, 4 呼入; 0 not a call */
  direction: z.number(),
  start_at: z.string(),
  answer_at: z.string(),
  end_at: z.string(),
  /** seconds from answer to hang-up */
  duration: z.number(),
  billed_seconds: z.number(),
  first_block: z.number(),
  increment: z.number(),
  /** price per minute (1/10,000 yuan) */
  rate: z.number(),
  connect_fee: z.number(),
  /** what the plan says the call costs */
  cost: z.number(),
  /** what the ledger took (cost, unless the credit ran short: the rest is `shortfall`) */
  amount: z.number(),
  shortfall: z.number(),
  balance_after: z.number(),
  /** the call record (links to the call list); '' for other debits */
  call_uuid: z.string(),
  remark: z.string(),
});
export type BillingChargeRow = z.infer<typeof billingChargeRowSchema>;

export const billingRechargeRowSchema = z.object({
  id: z.number(),
  at: z.string(),
  channel: z.string(),
  amount: z.number(),
  bonus: z.number(),
  operator: z.string(),
  ref: z.string(),
  status: z.number(),
  status_label: z.string(),
  balance_after: z.number(),
  remark: z.string(),
});
export type BillingRechargeRow = z.infer<typeof billingRechargeRowSchema>;

export const BILLING_GROUP_BY = ['staff', 'day', 'line', 'kind'] as const;
export type BillingGroupBy = (typeof BILLING_GROUP_BY)[number];
export const billingSummaryQuery = billingFilterQuery.extend({
  group_by: z.enum(BILLING_GROUP_BY, { message: '汇总方式不正确' }).default('day'),
});
export type BillingSummaryQuery = z.infer<typeof billingSummaryQuery>;
const summaryRow = z.object({
  key: z.string(),
  label: z.string(),
  /** charges (calls and other debits) */
  count: z.number(),
  billed_seconds: z.number(),
  amount: z.number(),
});
/** 汇总: rows sum exactly to `total` (integers). */
export const billingSummarySchema = z.object({
  group_by: z.enum(BILLING_GROUP_BY),
  rows: z.array(summaryRow),
  total: summaryRow,
});
export type BillingSummary = z.infer<typeof billingSummarySchema>;

/** Billed seconds and cost of calls (the call list asks for the rows it shows). */
export const billingCallCostsQuery = z.object({
  uuids: z
    .string()
    .max(200 * 37)
    .transform((s) => s.split(',').filter(Boolean))
    .pipe(z.array(z.string().max(36)).max(200)),
});
export const billingCallCostSchema = z.object({
  call_uuid: z.string(),
  billed_seconds: z.number(),
  cost: z.number(),
  amount: z.number(),
  rated_at: z.string(),
});
export type BillingCallCost = z.infer<typeof billingCallCostSchema>;

/** Low-balance thresholds (admins): descending amounts in 1/10,000 yuan; [] = no notice. */
export const billingSettingsBody = z.object({
  thresholds: z
    .array(money('提醒金额'))
    .max(BILLING_LIMITS.thresholdsMax, `最多设置${BILLING_LIMITS.thresholdsMax}个提醒金额`)
    .refine((a) => new Set(a).size === a.length, '提醒金额不能重复'),
});
export type BillingSettingsBody = z.infer<typeof billingSettingsBody>;
export const billingSettingsSchema = z.object({ thresholds: z.array(z.number()) });

/** A low-balance notice (socket frame data of msg_type 24, and the header's list). */
export const billingAlertSchema = z.object({
  id: z.number(),
  threshold: z.number(),
  balance: z.number(),
  at: z.string(),
  is_read: z.boolean(),
  text: z.string(),
});
export type BillingAlert = z.infer<typeof billingAlertSchema>;
export const billingAlertsSchema = z.object({ unread: z.number(), list: z.array(billingAlertSchema) });

// ---------- the platform operator's API (/api/operator/billing/..., header x-operator-token) ----------

const companyRef = z.union([zId(), z.string().trim().min(1, '请输入企业').max(100)], { message: '请输入企业' });
export const operatorRechargeBody = z.object({
  /** company id or exact company name */
  company: companyRef,
  amount: money('充值金额').refine((v) => v > 0, '充值金额必须大于0'),
  bonus: money('赠送金额').default(0),
  channel: z.enum(RECHARGE_CHANNELS, { message: '充值渠道不正确' }),
  ref: zText().trim().min(1, '请输入流水号').max(BILLING_LIMITS.refMax, `流水号最多${BILLING_LIMITS.refMax}个字符`),
  operator: zText().trim().min(1, '请输入操作人').max(50),
  remark: zText().trim().max(BILLING_LIMITS.remarkMax).default(''),
});
export type OperatorRechargeBody = z.infer<typeof operatorRechargeBody>;
export const operatorRechargeResult = z.object({
  recharge_id: z.number(),
  tenant_id: z.number(),
  balance: z.number(),
  /** false: this ref was already recorded for the company (nothing added twice) */
  is_new: z.boolean(),
});

const seconds = (label: string, min: number) =>
  z
    .number({ message: `请输入${label}` })
    .int(`${label}须为整数秒`)
    .min(min, `${label}不能小于${min}秒`)
    .max(3600, `${label}不能超过3600秒`);
export const ratePartSchema = z.object({
  connect_fee: money('接通费'),
  first_block: seconds('首段时长', 1),
  increment: seconds('计费步长', 1),
  /** per minute, 1/10,000 yuan */
  price_per_minute: money('每分钟单价'),
  charge_unanswered: z.boolean().default(false),
});
export type RatePart = z.infer<typeof ratePartSchema>;
export const ratePlanBody = z.object({
  name: zText().trim().min(1, '请输入资费名称').max(50, '资费名称最多50个字符'),
  rates: z.object({
    manual: ratePartSchema,
    task: ratePartSchema,
    group: ratePartSchema,
    ai: ratePartSchema,
    inbound: ratePartSchema,
  }),
});
export type RatePlanBody = z.infer<typeof ratePlanBody>;
export const ratePlanSchema = ratePlanBody.extend({ id: z.number(), created_at: z.string() });
export type RatePlan = z.infer<typeof ratePlanSchema>;
const isoTime = z.string().datetime({ offset: true, message: '时间格式不正确' });
export const planAssignBody = z.object({
  company: companyRef,
  plan_id: zId(),
  /** ISO time the plan takes effect (default now); ends the previous assignment there */
  effective_from: isoTime.optional(),
  operator: zText().trim().min(1, '请输入操作人').max(50),
});
export type PlanAssignBody = z.infer<typeof planAssignBody>;
/** Re-rates a company's calls of a time range under the plans in force now (audited: adjustment rows). */
export const rerateBody = z.object({
  company: companyRef,
  from: isoTime,
  to: isoTime,
  operator: zText().trim().min(1, '请输入操作人').max(50),
  reason: zText().trim().min(1, '请输入原因').max(BILLING_LIMITS.remarkMax),
});
export type RerateBody = z.infer<typeof rerateBody>;
export const rerateResult = z.object({ calls: z.number(), adjusted: z.number(), delta: z.number(), balance: z.number() });
/** A manual adjustment (positive credits, negative debits; a debit never takes the balance below zero). */
export const adjustBody = z.object({
  company: companyRef,
  amount: z
    .number({ message: '请输入金额' })
    .int('金额格式不正确')
    .min(-BILLING_LIMITS.amountMax, '金额超出上限')
    .max(BILLING_LIMITS.amountMax, '金额超出上限')
    .refine((v) => v !== 0, '金额不能为0'),
  ref: zText().trim().min(1, '请输入单号').max(BILLING_LIMITS.refMax),
  operator: zText().trim().min(1, '请输入操作人').max(50),
  reason: zText().trim().min(1, '请输入原因').max(BILLING_LIMITS.remarkMax),
});
export type AdjustBody = z.infer<typeof adjustBody>;
