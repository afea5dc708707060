import { CONTRACT_STATUS_LABEL } from '@crm/contracts';
import { Tag } from 'antd';

const COLOR: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'cyan', 3: 'success', 4: 'error' };

/** 草稿/签署中/已签署/已归档/已作废 as a coloured tag. */
export const ContractStatusTag = ({ status }: { status: number }) => (
  <Tag color={COLOR[status] ?? 'default'} style={{ marginInlineEnd: 0 }}>
    {CONTRACT_STATUS_LABEL[status] ?? '未知'}
  </Tag>
);
