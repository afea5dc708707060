import type { PlanListQuery, ReceiptListQuery } from '@crm/contracts';
import { JobExportButton } from '../../customers/components/ExportButton';
import { useStartReceiptExport, useStartReceiptListExport } from '../api';

/** 导出: the receipt plans of the current filters as .xlsx, by a background job with its progress. */
export const ReceiptExportButton = ({ filters }: { filters: Partial<PlanListQuery> }) => {
  const start = useStartReceiptExport();
  return <JobExportButton title="导出回款计划" startExport={() => start.mutateAsync(filters)} isStarting={start.isPending} />;
};

/** 导出 of 回款记录: the receipts of the current filters, through the same job and progress window. */
export const ReceiptListExportButton = ({ filters }: { filters: Partial<ReceiptListQuery> }) => {
  const start = useStartReceiptListExport();
  return <JobExportButton title="导出回款记录" startExport={() => start.mutateAsync(filters)} isStarting={start.isPending} />;
};
