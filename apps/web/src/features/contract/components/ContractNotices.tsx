import { CONTRACT_MSG_TYPE } from '@crm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { callSocket } from '../../../api/callSocket';
import { openSocketNotice } from '../../../components/socketNotice';
import { contractKeys } from '../api';

// Loaded when a notice is opened: the layout stays light.
const ContractDetailDrawer = lazy(async () => ({ default: (await import('./ContractDetailDrawer')).ContractDetailDrawer }));

/** The data of a contract frame (msg_type 25): the customer signed. */
type Notice = { contractId?: number; contractNo?: string; status?: number; event?: string };

/** Contract notices over the socket: the lists refresh at once, and 查看合同 opens the contract wherever the user is. */
export const ContractNotices = () => {
  const client = useQueryClient();
  const { notification } = App.useApp();
  const [openId, setOpenId] = useState<number | null>(null);
  useEffect(
    () =>
      callSocket.subscribe((frame) => {
        if (frame.msg_type !== CONTRACT_MSG_TYPE) return;
        void client.invalidateQueries({ queryKey: contractKeys.all });
        const data = (frame.data ?? {}) as Notice;
        const id = data.contractId;
        openSocketNotice(notification, {
          key: `contract-${data.event}-${id}`,
          type: 'info',
          title: data.event === 'customer_signed' ? '客户已签署合同' : '合同提醒',
          description: frame.msg || `合同 ${data.contractNo ?? ''} 状态已更新`,
          actionLabel: '查看合同',
          onAction: id ? () => setOpenId(id) : undefined,
        });
      }),
    [client, notification],
  );
  return openId === null ? null : (
    <Suspense fallback={null}>
      <ContractDetailDrawer id={openId} onClose={() => setOpenId(null)} onOpen={setOpenId} />
    </Suspense>
  );
};
