/** Customer list filters and queries: list body, control filters, order fields, picklist, info and export queries. */
import { z } from 'zod';
import { int2, int4, pageQuery, qId, zId } from './common';

const blank = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));
/** A numeric bound of a control filter (integer and number controls hold decimals). */
const optNum = z.preprocess(blank, z.number().min(-1e15).max(1e15).optional());
/** An id or a code used as a filter. */
const optInt = z.preprocess(blank, int4().optional());
const optStr = z.string().trim().max(50).optional();
/** `[start, end]` as `YYYY-MM-DD` or `YYYY-MM-DD HH:mm:ss` (SPEC §9: date ranges cover whole days). */
const range = z.array(z.string().max(19)).max(2).optional();
/** A filter on a template control: equality / containment, or a numeric or date range. */
export const controlFilter = z.object({
  cbTacid: zId(),
  dmValue: z.array(z.string().max(50)).max(50).default([]),
  min: optNum,
  max: optNum,
});
export type ControlFilter = z.infer<typeof controlFilter>;

export const ORDER_FIELDS = [
  'createTime',
  'followTime',
  'nextFollowTime',
  'allotTime',
  'lastContactTime',
  'contactNum',
  'name',
] as const;

/** Filters of minelist / allotlist and friends (SPEC §7). */
export const customerListBody = z.object({
  page: zId().default(1),
  limit: z.number().int().min(1).max(200).default(20),
  name: optStr,
  contactName: optStr,
  contactPhone: optStr,
  templateControls: z.array(controlFilter).max(20).default([]),
  nextFollowTime: range,
  allotTime: range,
  lastContactTime: range,
  createTime: range,
  followTime: range,
  /** 预计回收时间 (SPEC §7 ex-recovery time) */
  exRecoveryTime: range,
  lastContactStatus: z.preprocess(blank, int2().optional()),
  createCmSid: optInt,
  followCmSid: optInt,
  createCmDid: optInt,
  followCmDid: optInt,
  cmNid: optInt,
  cmClids: z.array(int4()).max(50).optional(),
  minContactNum: optInt,
  maxContactNum: optInt,
  orderParams: z.enum(ORDER_FIELDS).optional(),
  orderSort: z.enum(['asc', 'desc']).optional(),
});
export type CustomerListBody = z.infer<typeof customerListBody>;

/**
 * GET customer/picklist (SPEC §7 customer list {page, limit 100, keyword}): the customer picker of the
 * order and receipt pages, private customers in the caller's data scope by name or number.
 */
export const customerPickQuery = z.object({
  page: z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), zId().default(1)),
  limit: z.preprocess((v) => (v === '' || v === undefined ? 100 : Number(v)), z.number().int().min(1).max(100).default(100)),
  keyword: z.string().trim().max(50, '关键词最多50个字符').default(''),
});
export type CustomerPickQuery = z.infer<typeof customerPickQuery>;
export const customerPickRowSchema = z.object({
  cmCtid: z.number(),
  name: z.string(),
  contactName: z.string(),
  /** masked for the caller as on the lists (SPEC §6) */
  contactPhone: z.string(),
  encryptPhone: z.number(),
  ownerName: z.string(),
  cmNidName: z.string(),
});
export type CustomerPickRow = z.infer<typeof customerPickRowSchema>;

/** GET customer/info ?cmCtid, phone (SPEC §7): one customer by id, or by one of his whole numbers alone. */
export const customerInfoQuery = z
  .object({
    cmCtid: z.preprocess((v) => (v === '' ? undefined : v), qId().optional()),
    phone: z.string().trim().max(30, '请输入正确的电话号码').optional(),
  })
  .refine((q) => q.cmCtid !== undefined || !!q.phone, { message: '请选择客户或输入电话号码' });
export type CustomerInfoQuery = z.infer<typeof customerInfoQuery>;
export const customerPageQuery = pageQuery;

/** Export takes the list's filters; page and limit are ignored. */
export const customerExportBody = customerListBody;
