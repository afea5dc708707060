import { CustomerListView } from '../components/CustomerListView';

/** /manage/subscribe: my customers whose next follow-up is today (subscribelist); the day is fixed, so no next-follow filter. */
export const SubscribeCustomersPage = () => (
  <CustomerListView
    kind="subscribe"
    title="今日预约"
    filters={[
      'name',
      'contactName',
      'contactPhone',
      'cmNid',
      'cmClids',
      'lastContactStatus',
      'createCmSid',
      'createTime',
      'allotTime',
      'lastContactTime',
      'followTime',
      'contactNum',
    ]}
    columns={[
      'name',
      'contactName',
      'contactPhone',
      'stage',
      'tags',
      'nextFollowTime',
      'lastContact',
      'contactNum',
      'controls',
      'createTime',
    ]}
  />
);
