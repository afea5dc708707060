import { AuditOutlined } from '@ant-design/icons';
import { APPROVAL_SOCKET_MSG_TYPE } from '@crm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Tooltip } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { callSocket } from '../../../api/callSocket';
import { approvalKeys, useApprovalCounts } from '../api';

/**
 * The header's 我的审批 entry with the count of approvals waiting for me: polled every 30 s and
 * refreshed at once when the socket says an approval concerns me (its text shown as a notice).
 */
export const ApprovalBadge = () => {
  const counts = useApprovalCounts();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { notification } = App.useApp();
  useEffect(
    () =>
      callSocket.subscribe((frame) => {
        if (frame.msg_type !== APPROVAL_SOCKET_MSG_TYPE) return;
        for (const key of [approvalKeys.all, ['orders'], ['workbench']]) void client.invalidateQueries({ queryKey: key });
        const text = (frame.data as { text?: string } | null)?.text || frame.msg;
        if (text) notification.info({ message: '审批提醒', description: text, placement: 'bottomRight' });
      }),
    [client, notification],
  );
  const todo = counts.data?.todo ?? 0;
  return (
    <Tooltip title="我的审批">
      <Badge count={todo} size="small" offset={[-4, 4]}>
        <Button
          type="text"
          aria-label={`我的审批 ${todo}`}
          icon={<AuditOutlined style={{ color: 'rgba(255,255,255,.85)', fontSize: 18 }} />}
          onClick={() => navigate('/order/approval')}
        />
      </Badge>
    </Tooltip>
  );
};
