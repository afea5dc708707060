import { type Application, BASE_MENU_IDS, type MenuNode } from '@crm/contracts';
import { Tree, type TreeDataNode } from 'antd';
import { useMemo } from 'react';

type Props = {
  applications: Application[];
  /** Fully checked cmMid values; a checked group grants its whole subtree. */
  value?: number[];
  onChange?: (value: number[]) => void;
  disabled?: boolean;
};

const appKey = (cbAid: number) => `app-${cbAid}`;
const isBase = (cmMid: number) => BASE_MENU_IDS.includes(cmMid);

const toNodes = (menus: MenuNode[]): TreeDataNode[] =>
  menus.map((m) => ({
    key: m.cmMid,
    title: isBase(m.cmMid) ? `${m.name}（默认开放）` : m.name,
    disableCheckbox: isBase(m.cmMid),
    children: m.children.length > 0 ? toNodes(m.children) : undefined,
  }));

/**
 * Menu permissions of a role: the applications (SPEC §2 top menu) as top nodes, their menu
 * trees below. Base sections (工作台, 系统设置) are open to every role and shown as fixed.
 */
export const MenuPermissionTree = ({ applications, value = [], onChange, disabled }: Props) => {
  const treeData = useMemo<TreeDataNode[]>(
    () => applications.map((a) => ({ key: appKey(a.cbAid), title: a.name, children: toNodes(a.menus) })),
    [applications],
  );
  const checkedKeys = useMemo(() => [...new Set([...value, ...BASE_MENU_IDS])], [value]);

  return (
    <Tree
      checkable
      selectable={false}
      disabled={disabled}
      defaultExpandAll
      treeData={treeData}
      checkedKeys={checkedKeys}
      onCheck={(checked) => {
        const keys = Array.isArray(checked) ? checked : checked.checked;
        onChange?.(keys.filter((k): k is number => typeof k === 'number' && !isBase(k)));
      }}
    />
  );
};
