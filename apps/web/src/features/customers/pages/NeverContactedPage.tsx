import { CustomerListView } from '../components/CustomerListView';

/**
 * /manage/nevermentioned: my customers never called nor followed (nevermentionedlist); contact
 * status, last contact and contact count are the same for all of them, so they are not offered.
 */
export const NeverContactedPage = () => (
  <CustomerListView
    kind="never"
    title="从未联系"
    filters={[
      'name',
      'contactName',
      'contactPhone',
      'cmNid',
      'cmClids',
      'createCmSid',
      'createTime',
      'allotTime',
      'nextFollowTime',
    ]}
    columns={['name', 'contactName', 'contactPhone', 'stage', 'tags', 'nextFollowTime', 'controls', 'allotTime', 'createTime']}
  />
);
