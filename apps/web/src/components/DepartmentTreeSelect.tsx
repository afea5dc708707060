import type { DepartmentNode } from '@crm/contracts';
import { TreeSelect, type TreeSelectProps } from 'antd';
import { useMemo } from 'react';

type TreeOption = { value: number; title: string; disabled?: boolean; children?: TreeOption[] };

/** Department tree → TreeSelect options; `blockedId` and its subtree cannot be chosen. */
export const toDepartmentOptions = (nodes: DepartmentNode[], blockedId?: number, isBlocked = false): TreeOption[] =>
  nodes.map((n) => {
    const blocked = isBlocked || n.cmDid === blockedId;
    return {
      value: n.cmDid,
      title: n.name,
      disabled: blocked || undefined,
      children: n.children.length > 0 ? toDepartmentOptions(n.children, blockedId, blocked) : undefined,
    };
  });

type Props = Omit<TreeSelectProps<number>, 'treeData'> & {
  departments: DepartmentNode[];
  /** Adds 顶级部门 (value 0) above the tree: the parent picker of the department form. */
  withRoot?: boolean;
  /** A department being edited: it and its children cannot become its parent. */
  blockedId?: number;
};

/** Department picker shared by the department form, the staff form and department filters. */
export const DepartmentTreeSelect = ({ departments, withRoot, blockedId, ...rest }: Props) => {
  const treeData = useMemo(() => {
    const options = toDepartmentOptions(departments, blockedId);
    return withRoot ? [{ value: 0, title: '顶级部门', children: options }] : options;
  }, [departments, withRoot, blockedId]);
  return (
    <TreeSelect<number>
      treeData={treeData}
      treeDefaultExpandAll
      showSearch={{ treeNodeFilterProp: 'title' }}
      placeholder="请选择部门"
      allowClear={!withRoot}
      {...rest}
    />
  );
};
