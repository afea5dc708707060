import { Button, Card, Space } from 'antd';
import { useState } from 'react';
import { hasPermission, useSession } from '../../../stores/session';
import { PlanFormModal } from './PlanFormModal';
import { ReceiptFormModal } from './ReceiptFormModal';
import { ReceiptTab } from './ReceiptTab';

/** 回款 of an approved order in its detail: the order's plans and receipts, and the two creation windows. */
export const OrderReceiptsCard = ({ customerId, orderId }: { customerId: number; orderId: number }) => {
  const permissions = useSession((s) => s.permissions);
  const canPlan = hasPermission(permissions, 'frontend/customer/detail/cMoney');
  const canReceipt = hasPermission(permissions, 'frontend/customer/detail/cReceipt');
  const canSee = hasPermission(permissions, 'frontend/customer/detail/receipt');
  const [open, setOpen] = useState<'plan' | 'receipt' | null>(null);
  if (!canSee) return null;
  return (
    <Card
      size="small"
      title="回款"
      extra={
        <Space size={0}>
          {canPlan && (
            <Button type="link" size="small" onClick={() => setOpen('plan')}>
              新建回款计划
            </Button>
          )}
          {canReceipt && (
            <Button type="link" size="small" onClick={() => setOpen('receipt')}>
              新建回款
            </Button>
          )}
        </Space>
      }
    >
      <ReceiptTab customerId={customerId} orderId={orderId} canPlan={canPlan} canReceipt={canReceipt} />
      <PlanFormModal open={open === 'plan'} customerId={customerId} orderId={orderId} onClose={() => setOpen(null)} />
      <ReceiptFormModal open={open === 'receipt'} customerId={customerId} orderId={orderId} onClose={() => setOpen(null)} />
    </Card>
  );
};
