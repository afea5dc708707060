import { Card, Tabs } from 'antd';
import { useState } from 'react';
import { CustomerDetailDrawer } from '../../customers/components/detail/CustomerDetailDrawer';
import { PlansPanel } from '../components/PlansPanel';
import { ReceiptCharts } from '../components/ReceiptCharts';
import { ReceiptsPanel } from '../components/ReceiptsPanel';

/** 回款管理 (issue 14): the plans and the receipts in the caller's data scope, with filters and export, under its figures. */
export const ReceiptsPage = () => {
  const [customerId, setCustomerId] = useState<number | null>(null);
  return (
    <Card title="回款管理">
      <ReceiptCharts />
      <Tabs
        destroyOnHidden
        items={[
          { key: 'plans', label: '回款计划', children: <PlansPanel canExport onCustomer={setCustomerId} /> },
          { key: 'receipts', label: '回款记录', children: <ReceiptsPanel canExport onCustomer={setCustomerId} /> },
        ]}
      />
      <CustomerDetailDrawer cmCtid={customerId} onClose={() => setCustomerId(null)} />
    </Card>
  );
};
