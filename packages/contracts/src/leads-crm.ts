/** Lead search (拓客, issue 28): into the CRM — 转为客户 (with its duplicate check and quota) and 加入任务. */
import { z } from 'zod';
import { zId } from './common';
import { LEAD_LIMITS } from './leads-company';
import { leadExistingCustomerSchema } from './leads-search';

/** Where converted customers go: the caller, a staff member, or a pool. */
export const LEAD_ASSIGN = { self: 'self', staff: 'staff', pool: 'pool' } as const;

/** POST kqhk/convert/check {ids}: what each lead already is among the company's customers. */
export const leadIdsBody = z.object({
  ids: z.array(zId()).min(1, '请选择企业').max(LEAD_LIMITS.maxSelect, `一次最多选择${LEAD_LIMITS.maxSelect}家企业`),
});
export type LeadIdsBody = z.infer<typeof leadIdsBody>;
/** A lead not converted: the customers it already is, or (existing empty) why it could not be made a customer. */
export const leadDuplicateSchema = z.object({
  id: z.number(),
  name: z.string(),
  existing: z.array(leadExistingCustomerSchema),
  reason: z.string(),
});
export const leadCheckResultSchema = z.object({
  list: z.array(leadDuplicateSchema),
  /** the caller's 转为客户 left today */
  quotaLeft: z.number(),
});

/** POST kqhk/convert: 转为客户. Duplicates are skipped (and named); the rest become customers. */
export const leadConvertBody = leadIdsBody.extend({
  assignTo: z.enum(['self', 'staff', 'pool']).default('self'),
  /** assignTo 'staff': the receiving staff member */
  cmSid: zId().optional(),
  /** assignTo 'pool': the pool */
  cmHsid: zId().optional(),
});
export type LeadConvertBody = z.infer<typeof leadConvertBody>;
export const leadConvertResultSchema = z.object({
  created: z.array(z.object({ id: z.number(), cmCtid: z.number(), name: z.string() })),
  skipped: z.array(leadDuplicateSchema),
  /** the caller's conversions left today after this call */
  quotaLeft: z.number(),
});
export type LeadConvertResult = z.infer<typeof leadConvertResultSchema>;

/** POST kqhk/task/add: selected leads' numbers into a seat task, a group call or an AI task. */
export const leadTaskAddBody = leadIdsBody.extend({
  taskKind: z.enum(['seat', 'group', 'ai']),
  taskId: zId(),
});
export type LeadTaskAddBody = z.infer<typeof leadTaskAddBody>;
export const leadTaskAddResultSchema = z.object({ added: z.number(), noPhone: z.number(), skipped: z.number() });
