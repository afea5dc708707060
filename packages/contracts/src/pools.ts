import { z } from 'zod';
import { actionStateSchema, INT4_MAX, listOf, pageQuery, qCode, zId, zUint } from './common';
import { customerListBody, customerListDataSchema, customerRowSchema } from './customers';
import type { batchAllotResultSchema } from './jobs';

// ---------- discard reasons (/set/discard, SPEC §3 Discard reason) ----------

export const discardReasonSchema = z.object({
  cmCdid: z.number(),
  name: z.string(),
  sortNum: z.number(),
  actionState: z.number(),
  createTime: z.string(),
});
export type DiscardReason = z.infer<typeof discardReasonSchema>;
export const discardReasonBody = z.object({
  name: z.string().trim().min(1, '请输入丢弃理由').max(30, '丢弃理由最多30个字符'),
  sortNum: z.number().int().min(0).max(9999).default(0),
});
export const discardReasonEditBody = discardReasonBody.extend({
  cmCdid: zId(),
  actionState: actionStateSchema.default(0),
});
export type DiscardReasonBody = z.infer<typeof discardReasonBody>;
export type DiscardReasonEditBody = z.infer<typeof discardReasonEditBody>;
export const discardReasonListQuery = pageQuery.extend({ actionState: qCode });

// ---------- shared pools (/set/highseas, SPEC §3 Shared pool) ----------

/** SPEC §9 set type: 1 统一设置 (rules for every customer), 2 标签设置 (recycling only for customers with the chosen tags). */
export const POOL_SET_TYPE = { uniform: 1, byTag: 2 } as const;
export const POOL_SET_TYPE_LABEL: Record<number, string> = { 1: '统一设置', 2: '标签设置' };

const days = (label: string) => z.number().int().min(0, `${label}不能小于0`).max(3650, `${label}不能超过3650`).default(0);

/**
 * A pool's rules (useRules). Recycling: a private customer of a department that may use the
 * pool returns to it after `noFollowDays` without a follow-up and/or `noDealDays` without a deal
 * (0 = that condition is off); customers with a pending order are never recycled.
 */
export const poolRulesSchema = z.object({
  recycle: z
    .object({
      isOn: z.union([z.literal(0), z.literal(1)]).default(0),
      noFollowDays: days('未跟进天数'),
      noDealDays: days('未成交天数'),
      /** how the two conditions combine when both are set */
      logic: z.enum(['and', 'or']).default('or'),
      /** only customers in these stages (empty = every stage) */
      cmNids: z.array(zId()).max(100).default([]),
      /** only customers with one of these tags (empty = every customer; required for 标签设置) */
      cmClids: z.array(zId()).max(100).default([]),
    })
    .default({ isOn: 0, noFollowDays: 0, noDealDays: 0, logic: 'or', cmNids: [], cmClids: [] }),
  claim: z
    .object({
      /** claims per staff per day from this pool (0 = 不限制) */
      dailyMax: z.number().int().min(0, '每日领取上限不能小于0').max(100_000).default(0),
      /** days the previous owner may not reclaim a customer he discarded or lost (0 = no wait) */
      cooldownDays: days('禁止原负责人领取天数'),
    })
    .default({ dailyMax: 0, cooldownDays: 0 }),
});
export type PoolRules = z.infer<typeof poolRulesSchema>;

export const poolSchema = z.object({
  cmHsid: z.number(),
  name: z.string(),
  dmType: z.number(),
  /** departments whose staff may use the pool (empty = every department) */
  useCmDids: z.array(z.number()),
  useCmDidNames: z.array(z.string()),
  useRules: poolRulesSchema,
  sortNum: z.number(),
  actionState: z.number(),
  customerNum: z.number(),
  createTime: z.string(),
});
export type Pool = z.infer<typeof poolSchema>;

const poolFields = z.object({
  name: z.string().trim().min(1, '请输入公海名称').max(20, '公海名称最多20个字符'),
  dmType: z.union([z.literal(1), z.literal(2)]).default(1),
  useCmDids: z.array(zId()).max(500).default([]),
  useRules: poolRulesSchema.default({
    recycle: { isOn: 0, noFollowDays: 0, noDealDays: 0, logic: 'or', cmNids: [], cmClids: [] },
    claim: { dailyMax: 0, cooldownDays: 0 },
  }),
  sortNum: z.number().int().min(0).max(9999).default(0),
});
const checkRules = (v: z.infer<typeof poolFields>, ctx: z.RefinementCtx) => {
  const r = v.useRules.recycle;
  if (r.isOn === 1 && r.noFollowDays === 0 && r.noDealDays === 0)
    ctx.addIssue({ code: 'custom', message: '开启自动回收时请填写未跟进天数或未成交天数', path: ['useRules', 'recycle'] });
  if (v.dmType === POOL_SET_TYPE.byTag && r.isOn === 1 && r.cmClids.length === 0)
    ctx.addIssue({ code: 'custom', message: '标签设置的公海请选择回收的标签', path: ['useRules', 'recycle', 'cmClids'] });
};
export const poolBody = poolFields.superRefine(checkRules);
export const poolEditBody = poolFields
  .extend({ cmHsid: zId(), actionState: actionStateSchema.default(0) })
  .superRefine(checkRules);
export type PoolBody = z.infer<typeof poolBody>;
export type PoolEditBody = z.infer<typeof poolEditBody>;
export const poolListQuery = pageQuery.extend({ actionState: qCode });

/** A pool option (highseasvisiblelist, discard dialog step 0). */
export const poolOptionSchema = z.object({ cmHsid: z.number(), name: z.string(), customerNum: z.number() });
export type PoolOption = z.infer<typeof poolOptionSchema>;

// ---------- discard and claim (SPEC §5, §7 followdown / followup) ----------

/** SPEC §9: the 'other' reason text is at most 30 characters. */
export const DISCARD_REASON_MAX = 30;
/** cmCdid 0 = 其他 (the reason is the typed text). */
export const DISCARD_OTHER = 0;

export const followDownBody = z.object({
  cmCtids: z.array(zId()).min(1, '请选择客户').max(1000),
  cmHsid: z.number({ error: '请选择目标公海！' }).int().positive('请选择目标公海！').max(INT4_MAX),
  cmCdid: z.number({ error: '请选择丢弃理由！' }).int().min(0, '请选择丢弃理由！').max(INT4_MAX),
  reason: z.string().trim().max(DISCARD_REASON_MAX, `丢弃理由最多${DISCARD_REASON_MAX}个字符`).default(''),
});
export type FollowDownBody = z.infer<typeof followDownBody>;

export const followUpBody = z.object({
  cmCtids: z.array(zId()).min(1, '请选择客户').max(1000),
});
export type FollowUpBody = z.infer<typeof followUpBody>;

/** Result of a claim or an allocation: how many moved, and why the others did not. */
export const moveResultSchema = z.object({ count: z.number(), failed: z.number(), reasons: z.array(z.string()) });
export type MoveResult = z.infer<typeof moveResultSchema>;

/** seaslist / seasexportlist: the list filters plus pool and reason. */
export const seasListBody = customerListBody.extend({
  cmHsid: z.preprocess((v) => (v === '' || v === null ? undefined : v), zId().optional()),
  cmCdid: z.preprocess((v) => (v === '' || v === null ? undefined : v), zUint().optional()),
});
export type SeasListBody = z.infer<typeof seasListBody>;

/** Pool facts a seas row shows beside the customer row. */
export const seasRowExtraSchema = z.object({
  cmHsid: z.number().nullable(),
  cmHsidName: z.string(),
  cmCdid: z.number().nullable(),
  discardReason: z.string(),
  discardTime: z.string(),
  /** who had it before (empty for customers never owned) */
  lastOwnerName: z.string(),
});
export type SeasRowExtra = z.infer<typeof seasRowExtraSchema>;
/** seaslist: a page of pool customers, each with its pool facts. */
export const seasListDataSchema = customerListDataSchema.extend({
  list: z.array(customerRowSchema.extend(seasRowExtraSchema.shape)),
});

// ---------- allocation (SPEC §7 allot / batchallot) ----------

export const allotBody = z.object({
  cmCtids: z.array(zId()).min(1, '请选择客户').max(1000),
  cmSid: z.number({ error: '请选择负责人' }).int().positive('请选择负责人').max(INT4_MAX),
  /** 1: reset the customers' stage */
  isNodeId: z.union([z.literal(0), z.literal(1)]).default(0),
});
export type AllotBody = z.infer<typeof allotBody>;

export const batchAllotBody = z.object({
  fromCmSid: z.number({ error: '请选择原负责人' }).int().positive('请选择原负责人').max(INT4_MAX),
  toCmSids: z.array(zId()).min(1, '请选择接收人').max(200),
  isNodeId: z.union([z.literal(0), z.literal(1)]).default(0),
});
export type BatchAllotBody = z.infer<typeof batchAllotBody>;

export type BatchAllotResult = z.infer<typeof batchAllotResultSchema>;

// ---------- bulk delete (SPEC §7 delall) ----------

/**
 * delall scopes: 1 every customer in the shared pools, 2 every private customer,
 * 3 every customer of the company. Rows are soft-deleted and recoverable for 30 days.
 */
export const DEL_TYPE = { pools: 1, private: 2, all: 3 } as const;
export const DEL_TYPE_LABEL: Record<number, string> = { 1: '清空公海客户', 2: '清空私有客户', 3: '清空全部客户' };
/** The text the admin types to confirm a bulk delete. */
export const DEL_CONFIRM_TEXT = '确认清空';
export const delAllBody = z.object({
  delType: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  confirmText: z.string().max(20),
});
export type DelAllBody = z.infer<typeof delAllBody>;
export const DELETED_KEEP_DAYS = 30;
/** 回收站: customers deleted within DELETED_KEEP_DAYS, newest first. */
export const deletedListQuery = pageQuery.extend({ name: z.string().trim().max(50).optional() });
export type DeletedListQuery = z.infer<typeof deletedListQuery>;
export const deletedCustomerSchema = z.object({
  cmCtid: z.number(),
  name: z.string(),
  /** the owner when deleted, or the pool for a shared-pool customer */
  ownerName: z.string(),
  cmHsidName: z.string(),
  deleteTime: z.string(),
  /** after this the row is purged and can no longer be restored */
  expireTime: z.string(),
});
export type DeletedCustomer = z.infer<typeof deletedCustomerSchema>;
export const restoreBody = z.object({ cmCtids: z.array(zId()).min(1, '请选择要恢复的客户').max(500) });
export type RestoreBody = z.infer<typeof restoreBody>;

// ---------- recycling (job, on demand for admins) ----------

export const recycleResultSchema = z.object({ recycled: z.number(), ranAt: z.string(), isSkipped: z.boolean() });
export type RecycleResult = z.infer<typeof recycleResultSchema>;
/** A customer about to return to a pool (即将回收). */
export const recycleSoonSchema = z.object({
  cmCtid: z.number(),
  name: z.string(),
  cmHsidName: z.string(),
  recycleTime: z.string(),
});
export type RecycleSoon = z.infer<typeof recycleSoonSchema>;
/** GET recyclesoon: the caller's customers due back within `days` (the strategy's recycleRemind). */
export const recycleSoonListSchema = listOf(recycleSoonSchema).extend({ days: z.number() });
