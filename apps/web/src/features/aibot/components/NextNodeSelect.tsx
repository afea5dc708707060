import { FLOW_NODE_TYPE_LABEL, type FlowGraph } from '@crm/contracts';
import { Select } from 'antd';

type Props = {
  graph: FlowGraph;
  value: string | null;
  label: string;
  onChange: (key: string | null) => void;
  /** offer 挂机 (null) as a choice */
  nullLabel?: string;
  prefix?: string;
};

/** Picks a node by key; a key no node has any more is shown in red so the admin sees the broken link. */
export const NextNodeSelect = ({ graph, value, label, onChange, nullLabel, prefix = '' }: Props) => {
  const isMissing = value !== null && value !== '' && !graph.nodes.some((n) => n.key === value);
  const options = [
    ...(nullLabel ? [{ value: '', label: nullLabel }] : []),
    ...graph.nodes.map((n) => ({ value: n.key, label: `${prefix}${n.name}（${FLOW_NODE_TYPE_LABEL[n.type]}）` })),
    ...(isMissing ? [{ value: value as string, label: `${prefix}不存在的节点 ${value}` }] : []),
  ];
  return (
    <Select
      aria-label={label}
      style={{ width: '100%' }}
      status={isMissing ? 'error' : undefined}
      value={value ?? (nullLabel ? '' : undefined)}
      options={options}
      placeholder="选择下一节点"
      showSearch={{ optionFilterProp: 'label' }}
      onChange={(v: string) => onChange(v === '' ? null : v)}
    />
  );
};
