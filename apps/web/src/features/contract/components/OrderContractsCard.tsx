/** The order drawer's 合同 card (an approved order): its contracts and 生成合同. Fills orderContractsSlot. */
import { FileAddOutlined } from '@ant-design/icons';
import { Button, Card } from 'antd';
import { useState } from 'react';
import { hasPermission, useSession } from '../../../stores/session';
import { useContractsOfOrder } from '../api';
import { ContractDetailDrawer } from './ContractDetailDrawer';
import { ContractsTable } from './ContractsTable';
import { CreateContractModal } from './CreateContractModal';

export const OrderContractsCard = ({ customerId, orderId }: { customerId: number; orderId: number }) => {
  const canUse = hasPermission(
    useSession((s) => s.permissions),
    '/contract/list',
  );
  const contracts = useContractsOfOrder(orderId);
  const [isCreating, setCreating] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);
  if (!canUse) return null;
  return (
    <Card
      size="small"
      title="合同"
      extra={
        <Button type="primary" size="small" icon={<FileAddOutlined />} onClick={() => setCreating(true)}>
          生成合同
        </Button>
      }
    >
      <ContractsTable rows={contracts.data?.list} isLoading={contracts.isFetching} onOpen={setOpenId} />
      <CreateContractModal
        open={isCreating}
        orderId={orderId}
        customerId={customerId}
        onClose={() => setCreating(false)}
        onCreated={setOpenId}
      />
      <ContractDetailDrawer id={openId} onClose={() => setOpenId(null)} onOpen={setOpenId} />
    </Card>
  );
};
