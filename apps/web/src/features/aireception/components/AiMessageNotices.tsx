import { AI_MESSAGE_MSG_TYPE, type AiMessageNotice } from '@crm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { callSocket } from '../../../api/callSocket';
import { openSocketNotice } from '../../../components/socketNotice';
import { aicallKeys } from '../../aicall/api';

// Loaded when a notice is opened: the layout stays light.
const AiCallDetailModal = lazy(async () => ({
  default: (await import('../../aicall/components/AiCallDetailModal')).AiCallDetailModal,
}));

/**
 * AI接待 留言 over the socket (msg_type 23, to the number's agents): the reception records refresh,
 * and 查看留言 opens the AI call's detail (its message and clip at the top) wherever the user is.
 */
export const AiMessageNotices = () => {
  const client = useQueryClient();
  const { notification } = App.useApp();
  const [openId, setOpenId] = useState<number | null>(null);
  useEffect(
    () =>
      callSocket.subscribe((frame) => {
        if (frame.msg_type !== AI_MESSAGE_MSG_TYPE) return;
        void client.invalidateQueries({ queryKey: aicallKeys.all });
        const data = (frame.data ?? {}) as Partial<AiMessageNotice>;
        const id = data.aiCallId;
        openSocketNotice(notification, {
          key: `ai-message-${id}`,
          type: 'info',
          title: 'AI接待留言',
          description: frame.msg,
          duration: 0,
          actionLabel: '查看留言',
          onAction: id ? () => setOpenId(id) : undefined,
        });
      }),
    [client, notification],
  );
  return openId === null ? null : (
    <Suspense fallback={null}>
      <AiCallDetailModal id={openId} onClose={() => setOpenId(null)} />
    </Suspense>
  );
};
