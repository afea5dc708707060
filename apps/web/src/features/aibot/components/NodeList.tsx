import { DeleteOutlined, PlusOutlined, WarningFilled } from '@ant-design/icons';
import { AIBOT_LIMITS, FLOW_NODE_TYPE_LABEL, FLOW_NODE_TYPES, type FlowGraph } from '@crm/contracts';
import { Button, Dropdown, Popconfirm, Typography } from 'antd';
import { referencesTo } from '../flowEdit';
import styles from './designer.module.css';
import { NodeTypeTag } from './NodeTypeTag';

type Props = {
  graph: FlowGraph;
  selected: string | null;
  /** node keys some issue points at */
  flagged: ReadonlySet<string>;
  onSelect: (key: string) => void;
  onAdd?: (type: (typeof FLOW_NODE_TYPES)[number]) => void;
  onDelete?: (key: string) => void;
};

/** The outline's left column: 开场 first, each node with its type, name and key. */
export const NodeList = ({ graph, selected, flagged, onSelect, onAdd, onDelete }: Props) => {
  const hasStart = graph.nodes.some((n) => n.type === 'start');
  const isFull = graph.nodes.length >= AIBOT_LIMITS.nodes;
  return (
    <div className={styles.nodeList}>
      <div className={styles.nodeListHead}>
        <Typography.Text strong>流程节点（{graph.nodes.length}）</Typography.Text>
        {onAdd && (
          <Dropdown
            disabled={isFull}
            menu={{
              items: FLOW_NODE_TYPES.filter((t) => t !== 'start' || !hasStart).map((t) => ({
                key: t,
                label: FLOW_NODE_TYPE_LABEL[t],
              })),
              onClick: ({ key }) => onAdd(key as (typeof FLOW_NODE_TYPES)[number]),
            }}
          >
            <Button size="small" type="primary" icon={<PlusOutlined />}>
              添加节点
            </Button>
          </Dropdown>
        )}
      </div>
      <ul className={styles.nodeItems} aria-label="流程节点">
        {graph.nodes.map((n) => {
          const refs = referencesTo(graph, n.key);
          return (
            <li key={n.key}>
              <div className={`${styles.nodeItem} ${selected === n.key ? styles.nodeItemActive : ''}`}>
                <button
                  type="button"
                  className={styles.nodeSelect}
                  aria-current={selected === n.key}
                  onClick={() => onSelect(n.key)}
                >
                  <NodeTypeTag type={n.type} />
                  <div className={styles.nodeItemText}>
                    <Typography.Text ellipsis>{n.name || '未命名'}</Typography.Text>
                    <Typography.Text type="secondary" className={styles.nodeKey}>
                      {n.branches.length}个分支{refs > 0 ? ` · ${refs}处指向` : ''}
                    </Typography.Text>
                  </div>
                  {flagged.has(n.key) && <WarningFilled style={{ color: '#faad14' }} aria-label="有问题" />}
                </button>
                {onDelete && n.type !== 'start' && (
                  <Popconfirm
                    title="删除节点"
                    description={refs > 0 ? `有${refs}处指向该节点，删除后需要重新选择，确定删除？` : '确定要删除该节点吗？'}
                    okText="删除"
                    cancelText="取消"
                    okButtonProps={{ danger: true }}
                    onConfirm={(e) => {
                      e?.stopPropagation();
                      onDelete(n.key);
                    }}
                    onPopupClick={(e) => e.stopPropagation()}
                  >
                    <Button
                      size="small"
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={`删除节点${n.name}`}
                      onClick={(e) => e.stopPropagation()}
                    />
                  </Popconfirm>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
};
