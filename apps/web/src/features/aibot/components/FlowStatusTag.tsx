import { FLOW_STATUS, FLOW_STATUS_LABEL } from '@crm/contracts';
import { Tag } from 'antd';

const STATUS_COLOR: Record<number, string> = {
  [FLOW_STATUS.draft]: 'default',
  [FLOW_STATUS.published]: 'success',
  [FLOW_STATUS.changed]: 'warning',
};

export const FlowStatusTag = ({ status }: { status: number }) => (
  <Tag color={STATUS_COLOR[status] ?? 'default'}>{FLOW_STATUS_LABEL[status] ?? '-'}</Tag>
);
