import { CustomerListView } from '../components/CustomerListView';
import { BASE_COLUMNS, BASE_FILTERS } from '../components/customerLists';

/** /manage/subscribe: my customers whose next follow-up is today (subscribelist); the day is fixed, so no next-follow filter. */
export const SubscribeCustomersPage = () => (
  <CustomerListView
    kind="subscribe"
    title="今日预约"
    filters={[
      ...BASE_FILTERS,
      'lastContactStatus',
      'createCmSid',
      'createTime',
      'allotTime',
      'lastContactTime',
      'followTime',
      'contactNum',
    ]}
    columns={[...BASE_COLUMNS, 'nextFollowTime', 'lastContact', 'contactNum', 'controls', 'createTime']}
  />
);
