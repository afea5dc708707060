/** Lead search (拓客, issue 28): batch lookup (`kqhk/batch/company`), a durable job of up to 10,000 names. */
import { z } from 'zod';
import { INT4_MAX, zText } from './common';
import { LEAD_LIMITS, leadCompanySchema } from './leads-company';
import { limit, page } from './leads-params';

/** A batch row's match: exact (same normalized name or credit code), fuzzy (with a score), not found. */
export const LEAD_MATCH = { exact: 'exact', fuzzy: 'fuzzy', none: 'none' } as const;
export const LEAD_MATCH_LABEL: Record<string, string> = { exact: '精确匹配', fuzzy: '模糊匹配', none: '未找到' };

/** POST kqhk/batch/company: names pasted (one a line) or an uploaded .xlsx (first column). */
export const leadBatchCreateBody = z
  .object({
    names: z.array(zText().max(100)).max(LEAD_LIMITS.batchMaxNames, `一次最多查询${LEAD_LIMITS.batchMaxNames}个企业`).optional(),
    /** an .xlsx uploaded through /api/frontend/upload/file: company names in the first column */
    fileId: z.number().int().positive().max(INT4_MAX).optional(),
  })
  .refine((b) => (b.names && b.names.length > 0) || b.fileId, { message: '请粘贴企业名称或上传文件' });
export type LeadBatchCreateBody = z.infer<typeof leadBatchCreateBody>;

export const leadBatchSummarySchema = z.object({
  total: z.number(),
  exact: z.number(),
  fuzzy: z.number(),
  none: z.number(),
});
export type LeadBatchSummary = z.infer<typeof leadBatchSummarySchema>;

/** GET kqhk/batch/company ?jobId: a batch job's rows (and its summary); filter by match. */
export const leadBatchQuery = z.object({
  jobId: z.string().min(8).max(64),
  match: z.enum(['exact', 'fuzzy', 'none']).optional(),
  page,
  limit,
});
export type LeadBatchQuery = z.infer<typeof leadBatchQuery>;
export const leadBatchRowSchema = z.object({
  /** 1-based line of the input */
  row: z.number(),
  input: z.string(),
  /** LEAD_MATCH */
  match: z.string(),
  /** 0–100; 100 for exact */
  score: z.number(),
  company: leadCompanySchema.nullable(),
});
export type LeadBatchRow = z.infer<typeof leadBatchRowSchema>;
export const leadBatchResultSchema = z.object({
  jobId: z.string(),
  /** 'running' | 'done' | 'failed' */
  status: z.string(),
  processed: z.number(),
  summary: leadBatchSummarySchema,
  list: z.array(leadBatchRowSchema),
  count: z.number(),
});
export type LeadBatchResult = z.infer<typeof leadBatchResultSchema>;
/** POST kqhk/batch/company/export {jobId, match?}: an export job (poll GET customer/job). */
export const leadBatchExportBody = z.object({
  jobId: z.string().min(8).max(64),
  match: z.enum(['exact', 'fuzzy', 'none']).optional(),
});
