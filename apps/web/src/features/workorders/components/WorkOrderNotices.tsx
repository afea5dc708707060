import { WORK_ORDER_MSG_TYPE } from '@crm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { callSocket } from '../../../api/callSocket';
import { openSocketNotice } from '../../../components/socketNotice';
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
        const id = data.workOrderId;
        openSocketNotice(notification, {
          key: `work-${data.kind}-${id}`,
          type: data.kind === 'overdue' ? 'warning' : 'info',
          title: TITLE[data.kind ?? ''] ?? '工单提醒',
          description: frame.msg,
          actionLabel: '查看工单',
          onAction: id ? () => setOpenId(id) : undefined,
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
