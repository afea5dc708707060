import { AccountBookOutlined } from '@ant-design/icons';
import { BILLING_LOW_BALANCE_MSG_TYPE, type BillingAlert } from '@crm/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Tooltip } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { callSocket } from '../../../api/callSocket';
import { openSocketNotice } from '../../../components/socketNotice';
import { hasPermission, useSession } from '../../../stores/session';
import { billingKeys, useBillingAlerts, useBillingOverview, useReadBillingAlerts } from '../api';

const PAGE = '/account/expensedetails';

/** The mark itself, for an admin of the company's money (scope company): shown while the balance is low or a notice is unread. */
const Mark = () => {
  const navigate = useNavigate();
  const overview = useBillingOverview();
  const isCompany = overview.data?.scope === 'company';
  const alerts = useBillingAlerts(isCompany);
  const read = useReadBillingAlerts();
  const unread = alerts.data?.unread ?? 0;
  if (!isCompany || (!overview.data?.is_low && unread === 0)) return null;
  return (
    <Tooltip title={overview.data?.is_low ? '余额不足，请及时充值' : '余额提醒'}>
      <Badge count={unread} dot={unread === 0} size="small" offset={[-4, 4]}>
        <Button
          type="text"
          aria-label="余额不足"
          data-testid="billing-low-balance"
          icon={<AccountBookOutlined style={{ color: '#ff7875', fontSize: 18 }} />}
          onClick={() => {
            if (unread > 0) read.mutate();
            navigate(PAGE);
          }}
        />
      </Badge>
    </Tooltip>
  );
};

/**
 * The header's low-balance mark and notices (issue 27): the server sends a notice (msg_type 24) to
 * the company's admins once per threshold crossing; it is shown bottom right with 查看消费明细, and the
 * header keeps a red mark while the balance stays under the highest threshold. Only for those whose
 * menu holds 费用明细; what they see (company or own) is the server's answer.
 */
export const LowBalanceBadge = () => {
  const permissions = useSession((s) => s.permissions);
  const canSee = hasPermission(permissions, PAGE);
  const client = useQueryClient();
  const navigate = useNavigate();
  const { notification } = App.useApp();
  useEffect(
    () =>
      callSocket.subscribe((frame) => {
        if (frame.msg_type !== BILLING_LOW_BALANCE_MSG_TYPE) return;
        void client.invalidateQueries({ queryKey: billingKeys.all });
        void client.invalidateQueries({ queryKey: ['workbench'] });
        const alert = frame.data as BillingAlert | null;
        openSocketNotice(notification, {
          key: `billing-low-${alert?.id ?? 'latest'}`,
          type: 'warning',
          title: '余额不足提醒',
          description: alert?.text || frame.msg,
          duration: 0,
          actionLabel: '查看消费明细',
          onAction: () => navigate(PAGE),
        });
      }),
    [client, notification, navigate],
  );
  return canSee ? <Mark /> : null;
};
