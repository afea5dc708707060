import { DownloadOutlined } from '@ant-design/icons';
import type { OrderListQuery } from '@crm/contracts';
import { Button } from 'antd';
import { useState } from 'react';
import { useButtonLock } from '../../../components/useButtonLock';
import { ExportProgressModal } from '../../customers/components/ExportButton';
import { useStartOrderExport } from '../api';

/** 导出: the orders of the current filters as .xlsx, by a background job with its progress. */
export const OrderExportButton = ({ filters }: { filters: Partial<OrderListQuery> }) => {
  const start = useStartOrderExport();
  const [jobId, setJobId] = useState<string | null>(null);
  const [run, isLocked] = useButtonLock(async () => {
    try {
      setJobId((await start.mutateAsync(filters)).jobId);
    } catch {
      // the http client has shown the server's message
    }
  });
  return (
    <>
      <Button icon={<DownloadOutlined />} loading={start.isPending} disabled={isLocked && !start.isPending} onClick={run}>
        导出
      </Button>
      <ExportProgressModal jobId={jobId} title="导出订单" onClose={() => setJobId(null)} />
    </>
  );
};
