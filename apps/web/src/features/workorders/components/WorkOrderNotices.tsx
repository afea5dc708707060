import { WORK_ORDER_MSG_TYPE } from '@crm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { callSocket } from '../../../api/callSocket';
import { workOrderKeys } from '../api';

// Loaded when a notice is opened: the layout stays light.
const WorkOrderDetailDrawer = lazy(async () => ({ default: (await import('./WorkOrderDetailDrawer')).WorkOrderDetailDrawer }));

/** The data of a work-order frame (msg_type 22): assigned to me, handed to me, or overdue. */
type Notice = { kind?: string; workOrderId?: number; name?: string };

const TITLE: Record<string, string> = { assigned: '新工单', transfer: '工单转交', overdue: '工单超时' };

/**
 * Work-order notices over the socket: the lists and badges refresh at once, and a notice with
 * 查看工单 opens the work order's detail wherever the user is.
 */
export const WorkOrderNotices = () => {
  const client = useQueryClient();
  const { notification } = App.useApp();
  const [openId, setOpenId] = useState<number | null>(null);
  useEffect(
    () =>
      callSocket.subscribe((frame) => {
        if (frame.msg_type !== WORK_ORDER_MSG_TYPE) return;
        void client.invalidateQueries({ queryKey: workOrderKeys.all });
        void client.invalidateQueries({ queryKey: ['workbench'] });
        const data = (frame.data ?? {}) as Notice;
        const key = `work-${data.kind}-${data.workOrderId}`;
        notification.open({
          key,
          type: data.kind === 'overdue' ? 'warning' : 'info',
          title: TITLE[data.kind ?? ''] ?? '工单提醒',
          description: frame.msg,
          placement: 'bottomRight',
          actions: data.workOrderId ? (
            <Button
              type="primary"
              size="small"
              onClick={() => {
                notification.destroy(key);
                setOpenId(data.workOrderId ?? null);
              }}
            >
              查看工单
            </Button>
          ) : undefined,
        });
      }),
    [client, notification],
  );
  return openId === null ? null : (
    <Suspense fallback={null}>
      <WorkOrderDetailDrawer id={openId} onClose={() => setOpenId(null)} />
    </Suspense>
  );
};
