/** The contracts' part of the customer detail drawer: the 合同 tab and 生成合同. */
import { FileAddOutlined } from '@ant-design/icons';
import { Button, Empty, Space } from 'antd';
import { useState } from 'react';
import type { CustomerDetailActionProps, CustomerPart } from '../../components/customer-parts/registry';
import { hasPermission, useSession } from '../../stores/session';
import { useContractsOfCustomer } from './api';
import { ContractDetailDrawer } from './components/ContractDetailDrawer';
import { ContractsTable } from './components/ContractsTable';
import { CreateContractModal } from './components/CreateContractModal';

const useCanUseContracts = () =>
  hasPermission(
    useSession((s) => s.permissions),
    '/contract/list',
  );

const ContractsTab = ({ customerId }: { customerId: number }) => {
  const canUse = useCanUseContracts();
  const contracts = useContractsOfCustomer(customerId);
  const [openId, setOpenId] = useState<number | null>(null);
  if (!canUse) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="您没有合同管理权限" />;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <ContractsTable rows={contracts.data?.list} isLoading={contracts.isFetching} onOpen={setOpenId} />
      <ContractDetailDrawer id={openId} onClose={() => setOpenId(null)} onOpen={setOpenId} />
    </Space>
  );
};

const NewContractAction = ({ customer: c, view }: CustomerDetailActionProps) => {
  const canUse = useCanUseContracts();
  const [isOpen, setOpen] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);
  return (
    <>
      {canUse && c.modules.order && view !== 'seas' && (
        <Button icon={<FileAddOutlined />} block onClick={() => setOpen(true)}>
          生成合同
        </Button>
      )}
      <CreateContractModal open={isOpen} customerId={c.cmCtid} onClose={() => setOpen(false)} onCreated={setOpenId} />
      <ContractDetailDrawer id={openId} onClose={() => setOpenId(null)} onOpen={setOpenId} />
    </>
  );
};

export const customerPart: CustomerPart = {
  tabs: [
    {
      key: 'contract',
      label: '合同',
      order: 45,
      flag: 'order',
      module: 'order',
      Panel: ({ customer }) => <ContractsTab customerId={customer.cmCtid} />,
    },
  ],
  actions: [{ key: 'contract', order: 15, Action: NewContractAction }],
};
