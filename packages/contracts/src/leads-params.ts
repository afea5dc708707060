/** Query-string parts the lead search contracts share; internal (neither ./leads nor the package index re-exports them). */
import { z } from 'zod';
import { zId, zText } from './common';
import { LEAD_LIMITS } from './leads-company';

export const page = z.preprocess((v) => (v === '' || v === undefined ? 1 : Number(v)), zId().default(1));
export const limit = z.preprocess(
  (v) => (v === '' || v === undefined ? LEAD_LIMITS.pageSize : Number(v)),
  z.number().int().min(1).max(LEAD_LIMITS.maxPageSize).default(LEAD_LIMITS.pageSize),
);
export const qBool = z.preprocess(
  (v) => (v === '' || v === undefined || v === null ? undefined : v === '1' || v === 1 || v === 'true' || v === true),
  z.boolean().optional(),
);
export const keyword = zText().trim().max(LEAD_LIMITS.keyword, `关键词最多${LEAD_LIMITS.keyword}个字符`);
