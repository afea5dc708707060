import { z } from 'zod';
import { qNum, zId, zText } from './common';

// Calling compliance (issue 15): the 禁拨 list (do-not-call) and the log of dials the dial policy
// refused (外呼拦截记录), application 6 (号码黑名单), menus 601 and 602.

/** Where a 禁拨 entry came from. */
export const DNC_SOURCE = { manual: 1, taskRefusal: 2, callRecord: 3 } as const;
export type DncSource = (typeof DNC_SOURCE)[keyof typeof DNC_SOURCE];
export const DNC_SOURCE_LABEL: Record<number, string> = { 1: '手动添加', 2: '任务拒接', 3: '通话记录' };

export const DNC_LIMITS = { reason: 50, pageSize: 20 } as const;
export const DNC_REASON_DEFAULT = '客户拒绝来电';

const page = z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), zId().default(1));
const limit = z.preprocess(
  (v) => (v === '' || v === undefined ? DNC_LIMITS.pageSize : Number(v)),
  z.number().int().min(1).max(200).default(DNC_LIMITS.pageSize),
);
const reason = zText().trim().min(1, '请输入禁拨原因').max(DNC_LIMITS.reason, `禁拨原因最多${DNC_LIMITS.reason}个字`);

/** GET /api/frontend/dnc/list */
export const dncListQuery = z.object({ phone: z.string().max(20).optional(), page, limit });
export type DncListQuery = z.infer<typeof dncListQuery>;

export const dncEntrySchema = z.object({
  id: z.number(),
  /** masked as the customer-access policy says */
  phone: z.string(),
  encryptPhone: z.number(),
  reason: z.string(),
  source: z.number(),
  sourceName: z.string(),
  cmSidName: z.string(),
  /** the customer of the number when the caller may see him, else 0 */
  cmCtid: z.number(),
  customerName: z.string(),
  createTime: z.string(),
  /** '' kept forever */
  expireTime: z.string(),
  /** 1 while the number may not be dialled */
  isActive: z.number(),
});
export type DncEntry = z.infer<typeof dncEntrySchema>;

/** POST /api/frontend/dnc/add */
export const dncAddBody = z.object({
  phone: z.string({ error: '请输入电话号码' }).trim().min(1, '请输入电话号码').max(20, '请输入正确的电话号码'),
  reason: reason.default(DNC_REASON_DEFAULT),
});
export type DncAddBody = z.infer<typeof dncAddBody>;

/** POST /api/frontend/dnc/addfromcall: the number of a call record (the agent never needs it). */
export const dncAddFromCallBody = z.object({
  uuid: z.string({ error: '请选择通话记录' }).trim().min(1, '请选择通话记录').max(64, '请选择通话记录'),
  reason: reason.default(DNC_REASON_DEFAULT),
});
export type DncAddFromCallBody = z.infer<typeof dncAddFromCallBody>;

/** POST /api/frontend/dnc/del */
export const dncDelBody = z.object({ id: zId() });

/** GET /api/frontend/dnc/refusals */
export const dialRefusalListQuery = z.object({
  /** 'YYYY-MM-DD[ HH:mm:ss]' */
  startTime: z.string().max(19).optional(),
  endTime: z.string().max(19).optional(),
  cmSid: qNum,
  code: qNum,
  page,
  limit,
});
export type DialRefusalListQuery = z.infer<typeof dialRefusalListQuery>;

/** Where a refused dial came from: 0 an agent's dial, 1 a server leg (task, dialer, bot, line test). */
export const DIAL_ORIGIN_LABEL: Record<number, string> = { 0: '人工外呼', 1: '系统外呼' };

/** The refusal reasons the log keeps, by code (the chart's series). */
export const DIAL_REFUSAL_KIND: Record<number, string> = {
  110001: '号码不规范',
  100011: '黑名单',
  100014: '黑名单',
  110024: '非外呼时段',
  115001: '禁拨名单',
  115002: '5分钟超频',
  115003: '24小时超频',
};

export const dialRefusalSchema = z.object({
  id: z.number(),
  origin: z.number(),
  originName: z.string(),
  cmSid: z.number(),
  cmSidName: z.string(),
  cmStid: z.number(),
  cmCtid: z.number(),
  customerName: z.string(),
  phone: z.string(),
  encryptPhone: z.number(),
  code: z.number(),
  kind: z.string(),
  reason: z.string(),
  createTime: z.string(),
});
export type DialRefusal = z.infer<typeof dialRefusalSchema>;

/** GET /api/frontend/dnc/refusalstat: refusals per day (last 7 days, Beijing) and kind, in the caller's scope. */
export const dialRefusalStatSchema = z.object({
  days: z.array(z.string()),
  series: z.array(z.object({ kind: z.string(), counts: z.array(z.number()) })),
});
export type DialRefusalStat = z.infer<typeof dialRefusalStatSchema>;
