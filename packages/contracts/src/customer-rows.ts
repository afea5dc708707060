/** A customer as the lists show it: control values, the list row, a page of rows, contact status. */
import { z } from 'zod';
import { listOf } from './common';

/** Last contact status of a customer. */
export const CONTACT_STATUS = { never: 0, connected: 1, unanswered: 2 } as const;
export const CONTACT_STATUS_LABEL: Record<number, string> = { 0: '未联系', 1: '已接通', 2: '未接通' };

/** A control value as shown in lists and the detail. */
export const controlValueSchema = z.object({
  cbTacid: z.number(),
  name: z.string(),
  dmType: z.number(),
  dmValue: z.array(z.string()),
  dmValueText: z.array(z.string()),
  /** file controls: a download link per file id */
  fileUrls: z.array(z.string()).optional(),
});
export type ControlValue = z.infer<typeof controlValueSchema>;

/** A customer row of the lists (SPEC §3 Customer). */
export const customerRowSchema = z.object({
  cmCtid: z.number(),
  name: z.string(),
  /** 1 when the phone numbers are masked for the caller (SPEC §6). */
  encryptPhone: z.number(),
  contactName: z.string(),
  contactPhone: z.string(),
  templateControls: z.array(controlValueSchema),
  cmNid: z.number().nullable(),
  cmNidName: z.string(),
  cmClids: z.array(z.number()),
  cmClidsInfo: z.array(z.object({ cmClid: z.number(), name: z.string() })),
  ownerId: z.number().nullable(),
  ownerName: z.string(),
  creatorName: z.string(),
  cmDidName: z.string(),
  lastContactStatus: z.number(),
  lastContactTime: z.string(),
  contactNum: z.number(),
  followTime: z.string(),
  nextFollowTime: z.string(),
  allotTime: z.string(),
  createTime: z.string(),
  /** 预计回收时间 (private lists): when the recycling sweep would take the customer back; '' when no rule covers it. */
  exRecoveryTime: z.string().optional(),
  /** the expected recovery time falls within the strategy's recycleRemind days (即将回收). */
  isRecycleSoon: z.boolean().optional(),
});
export type CustomerRow = z.infer<typeof customerRowSchema>;
/** A page of customers; the count stops at a cap on very large lists (isCountCapped). */
export const customerListDataSchema = listOf(customerRowSchema).extend({
  isCountCapped: z.boolean(),
  isCountEstimated: z.boolean().optional(),
});
