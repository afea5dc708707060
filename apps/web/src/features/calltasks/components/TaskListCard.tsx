/** A call-task list page's card (坐席任务, AI外呼任务): toolbar, the table with the name link and the row actions, the detail drawer and the form. */
import { Card, Empty, Table, type TableColumnsType, Typography } from 'antd';
import { type ComponentType, type ReactNode, useState } from 'react';
import { TaskListToolbar, type useTaskListFilters } from './TaskListToolbar';
import { type MoveTexts, type TaskMove, TaskRowActions, useTaskMoveConfirm } from './taskMoves';

type TaskRow = { cmStid: number; name: string; status: number };

type Props<Row extends TaskRow> = {
  title: string;
  /** the empty table's text */
  emptyText: string;
  filters: ReturnType<typeof useTaskListFilters>;
  list: { data?: { list: Row[]; count: number }; isLoading: boolean; refetch: () => unknown };
  moveTexts: MoveTexts;
  move: (cmStid: number, move: TaskMove) => Promise<unknown>;
  remove: (cmStid: number) => Promise<unknown>;
  /** the columns between 任务名称 and 操作 */
  columns: TableColumnsType<Row>;
  /** the width of 操作, so its buttons stay on one line */
  actionsWidth: number;
  /** shown above the toolbar */
  banner?: ReactNode;
  Detail: ComponentType<{ id: number | null; onClose: () => void }>;
  /** the create (row null) / edit form */
  Form: ComponentType<{ row: Row | null; onClose: () => void }>;
};

export const TaskListCard = <Row extends TaskRow>({
  title,
  emptyText,
  filters,
  list,
  moveTexts,
  move,
  remove,
  columns,
  actionsWidth,
  banner,
  Detail,
  Form,
}: Props<Row>) => {
  const [detailId, setDetailId] = useState<number | null>(null);
  const [form, setForm] = useState<{ row: Row | null } | null>(null);
  const confirmMove = useTaskMoveConfirm(moveTexts, move);

  const allColumns: TableColumnsType<Row> = [
    {
      title: '任务名称',
      dataIndex: 'name',
      fixed: 'left',
      width: 140,
      ellipsis: true,
      render: (v: string, r) => <Typography.Link onClick={() => setDetailId(r.cmStid)}>{v}</Typography.Link>,
    },
    ...columns,
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: actionsWidth,
      render: (_, r) => (
        <TaskRowActions
          status={r.status}
          texts={moveTexts}
          onDetail={() => setDetailId(r.cmStid)}
          onMove={(m) => confirmMove(r, m)}
          onEdit={() => setForm({ row: r })}
          onDelete={() => remove(r.cmStid)}
        />
      ),
    },
  ];

  return (
    <Card title={title}>
      {banner}
      <TaskListToolbar filters={filters} onRefresh={() => list.refetch()} onCreate={() => setForm({ row: null })} />
      <Table<Row>
        rowKey="cmStid"
        size="middle"
        columns={allColumns}
        dataSource={list.data?.list}
        loading={list.isLoading}
        scroll={{ x: 1060 }}
        pagination={filters.paging.pagination(list.data?.count ?? 0)}
        locale={{ emptyText: <Empty description={emptyText} /> }}
      />
      <Detail id={detailId} onClose={() => setDetailId(null)} />
      {form && <Form row={form.row} onClose={() => setForm(null)} />}
    </Card>
  );
};
