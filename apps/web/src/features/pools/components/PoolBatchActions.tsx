import { ClearOutlined, CloudUploadOutlined, RestOutlined, SwapOutlined, UserSwitchOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { hasPermission, useSession } from '../../../stores/session';
import { AllotModal } from './AllotModal';
import { BatchAllotModal } from './BatchAllotModal';
import { DelAllModal } from './DelAllModal';
import { DiscardDialog } from './DiscardDialog';
import { RecycleBinModal } from './RecycleBinModal';

type Props = {
  selected: number[];
  clearSelection: () => void;
  /** the allocation page also offers 分配, 批量转移, 批量清空 and 回收站 (each behind its permission) */
  isAllotPage?: boolean;
};

/** Pool actions of a customer list's batch bar: 丢入公海, and on the allocation page 分配 / 批量转移 / 批量清空 / 回收站. */
export const PoolBatchActions = ({ selected, clearSelection, isAllotPage = false }: Props) => {
  const permissions = useSession((s) => s.permissions);
  const canDiscard = hasPermission(permissions, 'frontend/customer/detail/discard');
  const canAllot = isAllotPage && hasPermission(permissions, 'frontend/customer/allot');
  const canDelAll = isAllotPage && hasPermission(permissions, 'frontend/customer/delall');
  const [open, setOpen] = useState<'discard' | 'allot' | 'batch' | 'delall' | 'bin' | null>(null);
  const hasSelection = selected.length > 0;
  const close = () => setOpen(null);
  return (
    <>
      {canAllot && (
        <Button icon={<UserSwitchOutlined />} disabled={!hasSelection} onClick={() => setOpen('allot')}>
          分配
        </Button>
      )}
      {canDiscard && (
        <Button icon={<CloudUploadOutlined />} disabled={!hasSelection} onClick={() => setOpen('discard')}>
          丢入公海
        </Button>
      )}
      {canAllot && (
        <Button icon={<SwapOutlined />} onClick={() => setOpen('batch')}>
          批量转移
        </Button>
      )}
      {canDelAll && (
        <Button danger icon={<ClearOutlined />} onClick={() => setOpen('delall')}>
          批量清空
        </Button>
      )}
      {canDelAll && (
        <Button icon={<RestOutlined />} onClick={() => setOpen('bin')}>
          回收站
        </Button>
      )}
      <DiscardDialog open={open === 'discard'} cmCtids={selected} onClose={close} onDone={clearSelection} />
      {canAllot && <AllotModal open={open === 'allot'} cmCtids={selected} onClose={close} onDone={clearSelection} />}
      {canAllot && <BatchAllotModal open={open === 'batch'} onClose={close} />}
      {canDelAll && <DelAllModal open={open === 'delall'} onClose={close} />}
      {canDelAll && <RecycleBinModal open={open === 'bin'} onClose={close} />}
    </>
  );
};
