/** The work orders' part of the customer detail drawer: the 工单 tab. */
import type { CustomerPart } from '../../components/customer-parts/registry';
import { WorkOrdersTab } from './components/WorkOrdersTab';

export const customerPart: CustomerPart = {
  tabs: [
    {
      key: 'work',
      label: '工单',
      order: 60,
      flag: 'work',
      module: 'work',
      Panel: ({ customer }) => <WorkOrdersTab customerId={customer.cmCtid} />,
    },
  ],
};
