import type { DepartmentNode } from '@crm/contracts';
import { Skeleton, Tree, type TreeDataNode } from 'antd';
import { useMemo } from 'react';

const ALL = 'all';

const toNodes = (nodes: DepartmentNode[]): TreeDataNode[] =>
  nodes.map((n) => ({ key: n.cmDid, title: n.name, children: n.children.length > 0 ? toNodes(n.children) : undefined }));

type Props = {
  departments: DepartmentNode[];
  isLoading: boolean;
  /** undefined = every department. */
  value: number | undefined;
  onChange: (cmDid: number | undefined) => void;
};

/** Left-hand department filter of the staff page: 全部部门 on top, the tree below. */
export const DepartmentFilterTree = ({ departments, isLoading, value, onChange }: Props) => {
  const treeData = useMemo<TreeDataNode[]>(
    () => [{ key: ALL, title: '全部部门', children: toNodes(departments) }],
    [departments],
  );
  if (isLoading) return <Skeleton active paragraph={{ rows: 4 }} />;
  return (
    <Tree
      blockNode
      defaultExpandAll
      treeData={treeData}
      selectedKeys={[value ?? ALL]}
      onSelect={(keys) => {
        // Clicking the selected node again deselects it in antd; keep a selection instead.
        if (keys.length === 0) return;
        const key = keys[0];
        onChange(typeof key === 'number' ? key : undefined);
      }}
    />
  );
};
