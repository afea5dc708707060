import type { FlowGraph } from '@crm/contracts';
import { ConfigProvider, Empty, Tabs } from 'antd';
import type { ReactNode } from 'react';
import { addNode, type DesignerTab, removeNode, renameNodeKey, updateNode } from '../flowEdit';
import styles from './designer.module.css';
import { GradesTab } from './GradesTab';
import { KbTab } from './KbTab';
import { NodeEditor } from './NodeEditor';
import { NodeList } from './NodeList';

type Props = {
  graph: FlowGraph;
  /** absent: a frozen version, shown read-only */
  onChange?: (graph: FlowGraph) => void;
  tab: DesignerTab;
  onTab: (tab: DesignerTab) => void;
  selected: string | null;
  onSelect: (key: string | null) => void;
  flagged?: ReadonlySet<string>;
  settings: ReactNode;
};

const NO_FLAGS: ReadonlySet<string> = new Set();

/** The outline designer: nodes (list + editor), knowledge base, grade rules and settings as tabs. */
export const FlowOutline = ({ graph, onChange, tab, onTab, selected, onSelect, flagged = NO_FLAGS, settings }: Props) => {
  const isReadOnly = !onChange;
  const change = onChange ?? (() => undefined);
  const node = graph.nodes.find((n) => n.key === selected) ?? graph.nodes[0];
  const nodesPane = (
    <div className={styles.body}>
      <NodeList
        graph={graph}
        selected={node?.key ?? null}
        flagged={flagged}
        onSelect={onSelect}
        onAdd={
          isReadOnly
            ? undefined
            : (type) => {
                const added = addNode(graph, type);
                change(added.graph);
                onSelect(added.key);
              }
        }
        onDelete={
          isReadOnly
            ? undefined
            : (key) => {
                change(removeNode(graph, key));
                if (key === node?.key) onSelect(graph.nodes[0]?.key ?? null);
              }
        }
      />
      {node ? (
        <ConfigProvider componentDisabled={isReadOnly}>
          <NodeEditor
            key={node.key}
            graph={graph}
            node={node}
            isReadOnly={isReadOnly}
            onChange={(next) => change(updateNode(graph, node.key, () => next))}
            onRenameKey={(from, to) => {
              change(renameNodeKey(graph, from, to));
              onSelect(to);
            }}
          />
        </ConfigProvider>
      ) : (
        <Empty className={styles.editor} description="请先添加节点" />
      )}
    </div>
  );
  return (
    <Tabs
      activeKey={tab}
      onChange={(k) => onTab(k as DesignerTab)}
      items={[
        { key: 'nodes', label: '流程节点', children: nodesPane },
        {
          key: 'kb',
          label: `知识库（${graph.kb.length}）`,
          children: (
            <ConfigProvider componentDisabled={isReadOnly}>
              <KbTab kb={graph.kb} isReadOnly={isReadOnly} onChange={(kb) => change({ ...graph, kb })} />
            </ConfigProvider>
          ),
        },
        {
          key: 'grades',
          label: '意向等级规则',
          children: (
            <ConfigProvider componentDisabled={isReadOnly}>
              <GradesTab graph={graph} onChange={(grades) => change({ ...graph, grades })} />
            </ConfigProvider>
          ),
        },
        { key: 'settings', label: '设置', children: <ConfigProvider componentDisabled={isReadOnly}>{settings}</ConfigProvider> },
      ]}
    />
  );
};
