/** The pools' part of the customer detail drawer: 丢入公海, and in a shared pool 领取 (or the former owner's cooldown). */
import { CloudUploadOutlined, DownloadOutlined } from '@ant-design/icons';
import { App, Button, Typography } from 'antd';
import { useState } from 'react';
import type { CustomerDetailActionProps, CustomerDetailPart } from '../../components/customer-detail/registry';
import { useClaim } from './api';
import { DiscardDialog } from './components/DiscardDialog';

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

export const customerDetailPart: CustomerDetailPart = {
  actions: [
    { key: 'discard', order: 50, Action: DiscardAction },
    { key: 'claim', order: 60, Action: ClaimAction },
  ],
};
