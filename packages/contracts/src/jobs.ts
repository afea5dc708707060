import { z } from 'zod';
import { leadBatchSummarySchema } from './leads';

// Background jobs (customer export/import, batch allocation, order and receipt exports): their
// status, results and the progress the web polls.

export const JOB_STATUS = { running: 'running', done: 'done', failed: 'failed' } as const;
export type JobStatus = (typeof JOB_STATUS)[keyof typeof JOB_STATUS];

const jobStatusSchema = z.enum(['running', 'done', 'failed']);

export const importResultSchema = z.object({
  created: z.number(),
  updated: z.number(),
  skipped: z.number(),
  rejected: z.number(),
  reasons: z.array(z.object({ row: z.number(), reason: z.string() })),
});
export type ImportResult = z.infer<typeof importResultSchema>;
/** Result of a batch allocation job: moved per receiver, and how many stayed for lack of room (maxCustomer). */
export const batchAllotResultSchema = z.object({
  moved: z.number(),
  notAssigned: z.number(),
  perStaff: z.array(z.object({ cmSid: z.number(), name: z.string(), count: z.number() })),
});

/** A long task's progress, polled by the web (GET /api/frontend/customer/job?jobId=). */
export const jobInfoSchema = z.object({
  jobId: z.string(),
  kind: z.enum([
    'export',
    'import',
    'allot',
    'order-export',
    'receipt-export',
    'receipt-list-export',
    'workorder-export',
    'aicall-export',
    'contract-zip',
    'leads-batch',
    'leads-batch-export',
    'billing-export',
  ]),
  status: jobStatusSchema,
  processed: z.number(),
  total: z.number(),
  /** export: the file to download; import: the rejected rows as .xlsx (when any) */
  fileUrl: z.string(),
  fileName: z.string(),
  /** import: what was imported; allot: what moved (BatchAllotResult) */
  result: z.union([importResultSchema, batchAllotResultSchema, leadBatchSummarySchema]).nullable(),
  error: z.string(),
  createTime: z.string(),
});
/** The web reads `result` of the jobs it starts as ImportResult (the allot page reads BatchAllotResult from the same field). */
export type JobInfo = Omit<z.infer<typeof jobInfoSchema>, 'result'> & { result: ImportResult | null };

export const jobQuery = z.object({ jobId: z.string().min(8).max(64) });
