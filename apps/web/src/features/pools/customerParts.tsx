/**
 * The pools' part of the customer screens: in the detail drawer 丢入公海, and in a shared pool 领取 (or
 * the former owner's cooldown); in the batch bar of 我的客户 and 分配管理 the pool actions.
 */
import { CloudUploadOutlined, DownloadOutlined } from '@ant-design/icons';
import { App, Button, Typography } from 'antd';
import { useState } from 'react';
import type { CustomerBatchActionProps, CustomerDetailActionProps, CustomerPart } from '../../components/customer-parts/registry';
import { useClaim } from './api';
import { DiscardDialog } from './components/DiscardDialog';
import { PoolBatchActions } from './components/PoolBatchActions';

const DiscardAction = ({ customer: c, onClose }: CustomerDetailActionProps) => {
  const [isOpen, setOpen] = useState(false);
  return (
    <>
      {c.detailFlags.discard === 1 && c.ownerId !== null && (
        <Button icon={<CloudUploadOutlined />} block onClick={() => setOpen(true)}>
          丢入公海
        </Button>
      )}
      <DiscardDialog open={isOpen} cmCtids={[c.cmCtid]} onClose={() => setOpen(false)} onDone={onClose} />
    </>
  );
};

const ClaimAction = ({ customer: c, view, onClose }: CustomerDetailActionProps) => {
  const { message } = App.useApp();
  const claim = useClaim();
  if (view !== 'seas' || c.ownerId !== null) return null;
  if (c.claimBlockedUntil)
    // issue 23: the former owner is not offered 领取 during the pool's cooldown
    return (
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        您是原负责人，{c.claimBlockedUntil} 之后可重新领取
      </Typography.Text>
    );
  return (
    <Button
      type="primary"
      icon={<DownloadOutlined />}
      block
      loading={claim.isPending}
      onClick={async () => {
        try {
          await claim.mutateAsync([c.cmCtid]);
        } catch {
          return;
        }
        message.success('领取成功');
        onClose();
      }}
    >
      领取
    </Button>
  );
};

/** 我的客户 gets 丢入公海; 分配管理 also 分配, 批量转移, 批量清空 and 回收站. */
const ListPoolActions = ({ kind, selected, clearSelection }: CustomerBatchActionProps) =>
  kind === 'mine' || kind === 'allot' ? (
    <PoolBatchActions selected={selected} clearSelection={clearSelection} isAllotPage={kind === 'allot'} />
  ) : null;

export const customerPart: CustomerPart = {
  batchActions: [{ key: 'pools', order: 10, Actions: ListPoolActions }],
  actions: [
    { key: 'discard', order: 50, Action: DiscardAction },
    { key: 'claim', order: 60, Action: ClaimAction },
  ],
};
