/** The orders' part of the customer detail drawer: the 订单 tab and 新建订单. */
import { ShoppingCartOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import type { CustomerDetailActionProps, CustomerPart } from '../../components/customer-parts/registry';
import { OrderFormModal } from './components/OrderFormModal';
import { OrdersTab } from './components/OrdersTab';

const NewOrderAction = ({ customer: c, view }: CustomerDetailActionProps) => {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      {c.detailFlags.cOrder === 1 && c.modules.order && view !== 'seas' && c.ownerId !== null && (
        <Button type="primary" icon={<ShoppingCartOutlined />} block onClick={() => setOpen(true)}>
          新建订单
        </Button>
      )}
      <OrderFormModal
        open={isOpen}
        // a masked number is not a contact phone: the seller types it
        customer={{ cmCtid: c.cmCtid, name: c.name, phone: c.contactPhone.includes('*') ? '' : c.contactPhone }}
        onClose={() => setOpen(false)}
      />
    </>
  );
};

export const customerPart: CustomerPart = {
  tabs: [
    {
      key: 'order',
      label: '订单',
      order: 40,
      flag: 'order',
      module: 'order',
      Panel: ({ customer }) => <OrdersTab cmCtid={customer.cmCtid} />,
    },
  ],
  actions: [{ key: 'order', order: 10, Action: NewOrderAction }],
};
