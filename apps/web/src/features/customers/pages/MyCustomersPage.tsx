import { CustomerListView } from '../components/CustomerListView';
import { BASE_COLUMNS, BASE_FILTERS } from '../components/customerLists';

/** /manage/mycustomer: the customers I own (minelist). */
export const MyCustomersPage = () => (
  <CustomerListView
    kind="mine"
    title="我的客户"
    filters={[
      ...BASE_FILTERS,
      'lastContactStatus',
      'createCmSid',
      'createTime',
      'allotTime',
      'nextFollowTime',
      'lastContactTime',
      'exRecoveryTime',
      'contactNum',
    ]}
    columns={[...BASE_COLUMNS, 'lastContact', 'nextFollowTime', 'contactNum', 'controls', 'exRecoveryTime', 'createTime']}
    canImport
  />
);
