import type { JobInfo } from '@crm/contracts';

/** What a running import shows: the file is read (and its rows counted) before the first row is imported. */
export type ImportProgressView = { phase: 'reading'; text: string } | { phase: 'importing'; percent: number; text: string };

/**
 * The progress of an import job still running (or not polled yet). Until the job has counted the
 * rows its total is 0: that is "reading the file", never "共 0 条".
 */
export const importProgressView = (info: Pick<JobInfo, 'processed' | 'total'> | undefined): ImportProgressView => {
  if (!info || info.total <= 0) return { phase: 'reading', text: '正在读取文件…' };
  const percent = Math.min(100, Math.floor((info.processed / info.total) * 100));
  return { phase: 'importing', percent, text: `正在导入：已处理 ${info.processed} / 共 ${info.total} 条` };
};
