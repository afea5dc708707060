import type { PlanListQuery } from '@crm/contracts';
import { JobExportButton } from '../../customers/components/ExportButton';
import { useStartReceiptExport } from '../api';

/** 导出: the receipt plans of the current filters as .xlsx, by a background job with its progress. */
export const ReceiptExportButton = ({ filters }: { filters: Partial<PlanListQuery> }) => {
  const start = useStartReceiptExport();
  return <JobExportButton title="导出回款计划" startExport={() => start.mutateAsync(filters)} isStarting={start.isPending} />;
};
