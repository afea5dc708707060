import { CustomerListView } from '../components/CustomerListView';
import { BASE_COLUMNS, BASE_FILTERS } from '../components/customerLists';

/** /manage/allot: every customer in my data scope, owned or not (allotlist), with owner and department. */
export const AllotCustomersPage = () => (
  <CustomerListView
    kind="allot"
    title="分配管理"
    filters={[
      ...BASE_FILTERS,
      'followCmSid',
      'followCmDid',
      'lastContactStatus',
      'createCmDid',
      'createTime',
      'allotTime',
      'nextFollowTime',
      'lastContactTime',
      'exRecoveryTime',
      'contactNum',
    ]}
    columns={[
      ...BASE_COLUMNS,
      'owner',
      'department',
      'lastContact',
      'nextFollowTime',
      'contactNum',
      'controls',
      'allotTime',
      'exRecoveryTime',
      'createTime',
    ]}
    canImport
  />
);
