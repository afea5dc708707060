import { LEAD_LIMITS } from '@crm/contracts';

/** Pasted text → the company names, one a line (blank lines and surrounding spaces dropped). */
export const parseNames = (text: string): string[] =>
  text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);

/** The refusal for too many names, or null (issue 28: at most 10,000 names at once). */
export const tooManyNames = (count: number): string | null =>
  count > LEAD_LIMITS.batchMaxNames ? `一次最多查询${LEAD_LIMITS.batchMaxNames}个企业，当前${count}个，请删减后分批查询` : null;
