import type { CustomerPickRow } from '@crm/contracts';
import { Button, Card, Space, Tabs } from 'antd';
import { useState } from 'react';
import { hasPermission, useSession } from '../../../stores/session';
import { CustomerPickerModal } from '../../customers/components/CustomerPickerModal';
import { CustomerDetailDrawer } from '../../customers/components/detail/CustomerDetailDrawer';
import { PlanFormModal } from '../components/PlanFormModal';
import { PlansPanel } from '../components/PlansPanel';
import { ReceiptCharts } from '../components/ReceiptCharts';
import { ReceiptFormModal } from '../components/ReceiptFormModal';
import { ReceiptsPanel } from '../components/ReceiptsPanel';

type Creating = 'plan' | 'receipt';
const CREATE_TITLE: Record<Creating, string> = { plan: '新建回款计划', receipt: '新建回款' };

/** 回款管理 (issue 14): the plans and the receipts in the caller's data scope, with filters and export, under its figures. */
export const ReceiptsPage = () => {
  const [customerId, setCustomerId] = useState<number | null>(null);
  const permissions = useSession((s) => s.permissions);
  // issue 23: plans and receipts are created from here too, for a customer picked first (the drawer's flags)
  const can: Record<Creating, boolean> = {
    plan: hasPermission(permissions, 'frontend/customer/detail/cMoney'),
    receipt: hasPermission(permissions, 'frontend/customer/detail/cReceipt'),
  };
  const [picking, setPicking] = useState<Creating | null>(null);
  const [creating, setCreating] = useState<{ kind: Creating; customerId: number } | null>(null);
  const pick = (c: CustomerPickRow) => {
    if (picking) setCreating({ kind: picking, customerId: c.cmCtid });
    setPicking(null);
  };
  return (
    <Card
      title="回款管理"
      extra={
        <Space>
          {(['plan', 'receipt'] as const).map(
            (kind) =>
              can[kind] && (
                <Button key={kind} type={kind === 'plan' ? 'primary' : 'default'} onClick={() => setPicking(kind)}>
                  {CREATE_TITLE[kind]}
                </Button>
              ),
          )}
        </Space>
      }
    >
      <ReceiptCharts />
      <Tabs
        destroyOnHidden
        items={[
          { key: 'plans', label: '回款计划', children: <PlansPanel canExport onCustomer={setCustomerId} /> },
          { key: 'receipts', label: '回款记录', children: <ReceiptsPanel canExport onCustomer={setCustomerId} /> },
        ]}
      />
      <CustomerDetailDrawer cmCtid={customerId} onClose={() => setCustomerId(null)} />
      <CustomerPickerModal
        open={picking !== null}
        title={picking ? CREATE_TITLE[picking] : ''}
        onPick={pick}
        onClose={() => setPicking(null)}
      />
      {creating?.kind === 'plan' && <PlanFormModal open customerId={creating.customerId} onClose={() => setCreating(null)} />}
      {creating?.kind === 'receipt' && (
        <ReceiptFormModal open customerId={creating.customerId} onClose={() => setCreating(null)} />
      )}
    </Card>
  );
};
