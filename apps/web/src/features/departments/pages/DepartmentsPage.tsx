import { PlusOutlined } from '@ant-design/icons';
import type { DepartmentNode } from '@crm/contracts';
import { Button, Card, Space, Table, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useConfirmDelete } from '../../../components/useConfirmDelete';
import { useModalTarget } from '../../../components/useModalTarget';
import { useDeleteDepartment, useDepartmentTree } from '../api';
import { DepartmentFormModal, type DepartmentFormTarget } from '../components/DepartmentFormModal';

/** Table rows: leaves carry no `children`, so antd shows no expand button on them. */
type Row = Omit<DepartmentNode, 'children'> & { children?: Row[] };
const toRows = (nodes: DepartmentNode[]): Row[] =>
  nodes.map(({ children, ...n }) => ({ ...n, children: children.length > 0 ? toRows(children) : undefined }));
const parentIds = (rows: Row[]): number[] => rows.flatMap((r) => (r.children ? [r.cmDid, ...parentIds(r.children)] : []));

/** /account/divisional: the department tree with add, add-child, edit and delete. */
export const DepartmentsPage = () => {
  const { data: departments = [], isLoading } = useDepartmentTree();
  const remove = useDeleteDepartment();
  const confirmDelete = useConfirmDelete();
  const formModal = useModalTarget<DepartmentFormTarget>();
  // Expanded by default: remember only what the user folded, so new branches open too.
  const [folded, setFolded] = useState<ReadonlySet<number>>(new Set());

  const rows = useMemo(() => toRows(departments), [departments]);
  const expandedRowKeys = useMemo(() => parentIds(rows).filter((id) => !folded.has(id)), [rows, folded]);

  const columns: TableColumnsType<Row> = [
    { title: '部门名称', dataIndex: 'name' },
    { title: '员工数', dataIndex: 'staffNum', width: 120 },
    { title: '排序', dataIndex: 'sortNum', width: 100 },
    { title: '创建时间', dataIndex: 'createTime', width: 200 },
    {
      title: '操作',
      key: 'actions',
      width: 240,
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => formModal.open({ mode: 'create', pid: row.cmDid })}>
            添加下级
          </Button>
          <Button type="link" size="small" onClick={() => formModal.open({ mode: 'edit', department: { ...row, children: [] } })}>
            编辑
          </Button>
          <Button type="link" size="small" danger onClick={() => confirmDelete(() => remove.mutateAsync(row.cmDid))}>
            删除
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card
      title="部门管理"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => formModal.open({ mode: 'create', pid: 0 })}>
          添加部门
        </Button>
      }
    >
      <Table<Row>
        rowKey="cmDid"
        columns={columns}
        dataSource={rows}
        loading={isLoading}
        pagination={false}
        expandable={{
          expandedRowKeys,
          onExpand: (isExpanded, row) =>
            setFolded((prev) => {
              const next = new Set(prev);
              if (isExpanded) next.delete(row.cmDid);
              else next.add(row.cmDid);
              return next;
            }),
        }}
      />
      <DepartmentFormModal
        key={formModal.openKey}
        isOpen={formModal.isOpen}
        target={formModal.target}
        departments={departments}
        onClose={formModal.close}
      />
    </Card>
  );
};
