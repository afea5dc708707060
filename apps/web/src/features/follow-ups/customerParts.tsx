/** The follow-ups' part of the customer detail drawer: the 跟进记录 tab (the drawer opens on it). */
import type { CustomerPart } from '../../components/customer-parts/registry';
import { FollowPanel } from './components/FollowPanel';

export const customerPart: CustomerPart = {
  tabs: [{ key: 'follow', label: '跟进记录', order: 30, flag: 'follow', Panel: FollowPanel }],
};
