/** The receipts' part of the customer detail drawer: the 回款 tab, 新建回款计划 and 新建回款. */
import { AccountBookOutlined, PayCircleOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import type { CustomerDetailActionProps, CustomerPart } from '../../components/customer-parts/registry';
import { PlanFormModal } from './components/PlanFormModal';
import { ReceiptFormModal } from './components/ReceiptFormModal';
import { ReceiptTab } from './components/ReceiptTab';

const NewPlanAction = ({ customer: c, view }: CustomerDetailActionProps) => {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      {c.detailFlags.cMoney === 1 && c.modules.receipt && view !== 'seas' && (
        <Button icon={<AccountBookOutlined />} block onClick={() => setOpen(true)}>
          新建回款计划
        </Button>
      )}
      <PlanFormModal open={isOpen} customerId={c.cmCtid} onClose={() => setOpen(false)} />
    </>
  );
};

const NewReceiptAction = ({ customer: c, view }: CustomerDetailActionProps) => {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      {c.detailFlags.cReceipt === 1 && c.modules.receipt && view !== 'seas' && (
        <Button icon={<PayCircleOutlined />} block onClick={() => setOpen(true)}>
          新建回款
        </Button>
      )}
      <ReceiptFormModal open={isOpen} customerId={c.cmCtid} onClose={() => setOpen(false)} />
    </>
  );
};

export const customerPart: CustomerPart = {
  tabs: [
    {
      key: 'receipt',
      label: '回款',
      order: 50,
      flag: 'receipt',
      module: 'receipt',
      Panel: ({ customer: c }) => (
        <ReceiptTab customerId={c.cmCtid} canPlan={c.detailFlags.cMoney === 1} canReceipt={c.detailFlags.cReceipt === 1} />
      ),
    },
  ],
  actions: [
    { key: 'plan', order: 20, Action: NewPlanAction },
    { key: 'receipt', order: 30, Action: NewReceiptAction },
  ],
};
