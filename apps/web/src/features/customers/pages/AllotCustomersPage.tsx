import { CustomerListView } from '../components/CustomerListView';

/** /manage/allot: every customer in my data scope, owned or not (allotlist), with owner and department. */
export const AllotCustomersPage = () => (
  <CustomerListView
    kind="allot"
    title="分配管理"
    filters={[
      'name',
      'contactName',
      'contactPhone',
      'cmNid',
      'cmClids',
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
      'name',
      'contactName',
      'contactPhone',
      'stage',
      'tags',
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
