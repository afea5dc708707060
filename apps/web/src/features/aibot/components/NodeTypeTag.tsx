import { FLOW_NODE_TYPE_LABEL, type FlowNodeType } from '@crm/contracts';
import { Tag } from 'antd';

const COLOR: Record<FlowNodeType, string> = {
  start: 'blue',
  normal: 'default',
  transfer: 'green',
  hangup: 'red',
  end: 'purple',
};

export const NodeTypeTag = ({ type }: { type: FlowNodeType }) => (
  <Tag color={COLOR[type]} style={{ marginInlineEnd: 0 }}>
    {FLOW_NODE_TYPE_LABEL[type]}
  </Tag>
);
