import type { WorkOrderListQuery } from '@crm/contracts';
import { JobExportButton } from '../../customers/components/ExportButton';
import { useStartWorkOrderExport } from '../api';

/** 导出: 工单管理's work orders of the current tab and filters as .xlsx, by a background job with its progress. */
export const WorkOrderExportButton = ({ filters }: { filters: Partial<WorkOrderListQuery> }) => {
  const start = useStartWorkOrderExport();
  return <JobExportButton title="导出工单" startExport={() => start.mutateAsync(filters)} isStarting={start.isPending} />;
};
