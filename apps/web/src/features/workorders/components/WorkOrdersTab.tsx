import { PlusOutlined } from '@ant-design/icons';
import { WORK_ORDER_LIMITS, type WorkOrderRow } from '@crm/contracts';
import { Button, Flex, Space, Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { useWorkOrderList } from '../api';
import { WorkOrderDetailDrawer } from './WorkOrderDetailDrawer';
import { WorkOrderFormModal } from './WorkOrderFormModal';
import { OverdueTag, PriorityTag } from './WorkTags';

/** SPEC §3 Work order columns (工单名称, 处理人, 当前阶段, 创建时间, 最后更新) with priority and overdue. */
export const workOrderColumns: TableColumnsType<WorkOrderRow> = [
  {
    title: '工单名称',
    dataIndex: 'workOrderName',
    ellipsis: true,
    render: (v: string, r) => (
      <Space size={4}>
        <span>{v}</span>
        <OverdueTag overdue={r.overdue} />
      </Space>
    ),
  },
  { title: '优先级', dataIndex: 'priority', width: 80, render: (v: number) => <PriorityTag priority={v} /> },
  { title: '处理人', dataIndex: 'follow_staff_id_name', width: 100 },
  { title: '当前阶段', dataIndex: 'node_name', width: 110 },
  { title: '创建时间', dataIndex: 'created_at', width: 165 },
  { title: '最后更新', dataIndex: 'last_time', width: 165 },
];

type Props = { customerId: number };

/** 工单 tab of the customer drawer (SPEC §2): 10 per page, paginator only past 10; a row opens the detail. */
export const WorkOrdersTab = ({ customerId }: Props) => {
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<number | null>(null);
  const [isCreateOpen, setCreateOpen] = useState(false);
  const list = useWorkOrderList({ customer_id: customerId, page, limit: WORK_ORDER_LIMITS.pageSize });
  const count = list.data?.count ?? 0;
  return (
    <>
      <Flex justify="space-between" align="center" style={{ marginBottom: 12 }}>
        <Typography.Text type="secondary">共 {count} 个工单</Typography.Text>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreateOpen(true)}>
          新建工单
        </Button>
      </Flex>
      <Table<WorkOrderRow>
        size="small"
        rowKey="id"
        columns={workOrderColumns}
        dataSource={list.data?.list}
        loading={list.isFetching}
        locale={{ emptyText: '暂无工单' }}
        onRow={(r) => ({ onClick: () => setOpenId(r.id), style: { cursor: 'pointer' } })}
        pagination={
          count > WORK_ORDER_LIMITS.pageSize && {
            current: page,
            pageSize: WORK_ORDER_LIMITS.pageSize,
            total: count,
            showTotal: (n) => `共 ${n} 条`,
            onChange: setPage,
          }
        }
      />
      <WorkOrderFormModal
        key={`create-${isCreateOpen}`}
        mode="create"
        open={isCreateOpen}
        customerId={customerId}
        onClose={() => setCreateOpen(false)}
        onCreated={setOpenId}
      />
      <WorkOrderDetailDrawer id={openId} onClose={() => setOpenId(null)} />
    </>
  );
};
