import { z } from 'zod';
import { qCode, qId, zId, zUint } from './common';
import { controlValueSchema } from './customer-rows';
import { templateControlsInput } from './customer-templates';

/** SPEC §4 follow types; any other value reads as a written follow-up. */
export const FOLLOW_TYPE = { written: 0, discard: 1, claim: 2, call: 3, ai: 4 } as const;
export const FOLLOW_TYPE_LABEL: Record<number, string> = {
  0: '写跟进',
  1: '丢入公海',
  2: '公海领取',
  3: '电话',
  4: 'AI跟进',
};

/** The history's category tabs (SPEC §2): 全部 -1, 写跟进 0, 公海操作 1 (types 1 and 2), 电话 3. */
export const FOLLOW_CATEGORIES = [
  { value: -1, label: '全部' },
  { value: 0, label: '写跟进' },
  { value: 1, label: '公海操作' },
  { value: 3, label: '电话' },
] as const;

/** 1 written in the CRM, 2 from a call, 3 by the system. */
export const FOLLOW_SOURCE = { crm: 1, call: 2, system: 3 } as const;

/** SPEC §5 follow and §9 page sizes. */
export const FOLLOW_LIMITS = { remark: 3000, pageSize: 10, contactPageSize: 20 } as const;

export const followCreateBody = z.object({
  cmCtid: zId(),
  /** the stage chosen on the stage bar (0 or absent: unchanged) */
  cmNid: zUint().optional(),
  /** next appointment, unix seconds (0 or absent: none) */
  nextFollowTime: zUint().optional(),
  remark: z.string().max(FOLLOW_LIMITS.remark, `跟进内容最多${FOLLOW_LIMITS.remark}个字符`).default(''),
  /** values of the isFollowShow controls, saved on the customer too */
  templateControls: templateControlsInput,
});
export type FollowCreateBody = z.infer<typeof followCreateBody>;

export const followDelBody = z.object({ cmCtfid: zId() });

export const followListQuery = z.object({
  cmCtid: qId(),
  sourceType: qCode,
  /** category tab: -1 all (default), 0 written, 1 pool operations, 3 phone calls */
  followType: qCode,
  /** `YYYY-MM-DD` day range (whole days, SPEC §9) */
  startTime: z.string().max(19).optional(),
  endTime: z.string().max(19).optional(),
  page: z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), zId().default(1)),
  limit: z.preprocess(
    (v) => (v === '' || v === undefined ? FOLLOW_LIMITS.pageSize : Number(v)),
    z.number().int().min(1).max(100).default(FOLLOW_LIMITS.pageSize),
  ),
});
export type FollowListQuery = z.infer<typeof followListQuery>;

/** A follow record (SPEC §3), times in unix seconds (0 = none). */
export const followRecordSchema = z.object({
  cmCtfid: z.number(),
  cmCtid: z.number(),
  cmNid: z.number().nullable(),
  cmNidName: z.string(),
  followType: z.number(),
  sourceType: z.number(),
  createTime: z.number(),
  nextFollowTime: z.number(),
  remark: z.string(),
  cmSidName: z.string(),
  billsec: z.number(),
  recordFile: z.string(),
  record_id: z.string(),
  /** 1 when the record may be deleted (with the followdel permission) */
  isDelete: z.number(),
  templateControls: z.array(controlValueSchema),
});
export type FollowRecord = z.infer<typeof followRecordSchema>;

/** POST /api/frontend/customer/stage: the stage bar. */
export const customerStageBody = z.object({ cmCtid: zId(), cmNid: zId() });
export type CustomerStageBody = z.infer<typeof customerStageBody>;
