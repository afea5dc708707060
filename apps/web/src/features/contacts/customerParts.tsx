/** The contacts' part of the customer detail drawer: the 联系电话 tab. */
import type { CustomerPart } from '../../components/customer-parts/registry';
import { ContactsPanel } from './components/ContactsPanel';

export const customerPart: CustomerPart = {
  tabs: [
    {
      key: 'phone',
      label: '联系电话',
      order: 20,
      flag: 'phone',
      Panel: ({ customer }) => <ContactsPanel cmCtid={customer.cmCtid} />,
    },
  ],
};
