import { AI_MESSAGE_MSG_TYPE, type AiMessageNotice } from '@crm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { callSocket } from '../../../api/callSocket';
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
        const key = `ai-message-${data.aiCallId}`;
        notification.open({
          key,
          type: 'info',
          title: 'AI接待留言',
          description: frame.msg,
          placement: 'bottomRight',
          duration: 0,
          actions: data.aiCallId ? (
            <Button
              type="primary"
              size="small"
              onClick={() => {
                notification.destroy(key);
                setOpenId(data.aiCallId ?? null);
              }}
            >
              查看留言
            </Button>
          ) : undefined,
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
