import type { OrderListQuery } from '@crm/contracts';
import { JobExportButton } from '../../customers/components/ExportButton';
import { useStartOrderExport } from '../api';

/** 导出: the orders of the current filters as .xlsx, by a background job with its progress. */
export const OrderExportButton = ({ filters }: { filters: Partial<OrderListQuery> }) => {
  const start = useStartOrderExport();
  return <JobExportButton title="导出订单" startExport={() => start.mutateAsync(filters)} isStarting={start.isPending} />;
};
