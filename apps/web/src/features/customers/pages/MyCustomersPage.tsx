import { CustomerListView } from '../components/CustomerListView';

/** /manage/mycustomer: the customers I own (minelist). */
export const MyCustomersPage = () => (
  <CustomerListView
    kind="mine"
    title="我的客户"
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
      'lastContact',
      'nextFollowTime',
      'contactNum',
      'controls',
      'exRecoveryTime',
      'createTime',
    ]}
    canImport
  />
);
