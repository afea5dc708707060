import { CustomerListView } from '../components/CustomerListView';
import { BASE_COLUMNS, BASE_FILTERS } from '../components/customerLists';

/**
 * /manage/nevermentioned: my customers never called nor followed (nevermentionedlist); contact
 * status, last contact and contact count are the same for all of them, so they are not offered.
 */
export const NeverContactedPage = () => (
  <CustomerListView
    kind="never"
    title="从未联系"
    filters={[...BASE_FILTERS, 'createCmSid', 'createTime', 'allotTime', 'nextFollowTime']}
    columns={[...BASE_COLUMNS, 'nextFollowTime', 'controls', 'allotTime', 'createTime']}
  />
);
