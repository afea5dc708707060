/** The work orders' part of the customer detail drawer: the 工单 tab. */
import type { CustomerDetailPart } from '../../components/customer-detail/registry';
import { WorkOrdersTab } from './components/WorkOrdersTab';

export const customerDetailPart: CustomerDetailPart = {
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
