import { ORDER_LIMITS, type OrderRow } from '@crm/contracts';
import { Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { formatMoney } from '../../../components/money';
import { VerifyStatusTag } from '../../../components/VerifyStatusTag';
import { useOrderList } from '../api';
import { OrderDetailDrawer } from './OrderDetailDrawer';

export const orderColumns: TableColumnsType<OrderRow> = [
  { title: '产品', dataIndex: 'product_names', ellipsis: true },
  { title: '订单金额(元)', dataIndex: 'cost_price', width: 130, align: 'right', render: formatMoney },
  { title: '成交时间', dataIndex: 'deal_time', width: 110, render: (v: string) => v || '-' },
  { title: '负责人', dataIndex: 'owner', width: 90 },
  { title: '审核状态', dataIndex: 'verify_status', width: 100, render: (v: number) => <VerifyStatusTag status={v} /> },
  { title: '创建时间', dataIndex: 'created_at', width: 165 },
];

/** 订单 tab of the customer drawer (SPEC §2/§9): 10 per page, paginator only past 10; a row opens the detail. */
export const OrdersTab = ({ cmCtid }: { cmCtid: number }) => {
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(ORDER_LIMITS.pageSize);
  const [orderId, setOrderId] = useState<number | null>(null);
  const list = useOrderList({ customer_id: cmCtid, page, limit });
  const count = list.data?.count ?? 0;
  return (
    <>
      <Table<OrderRow>
        size="small"
        rowKey="id"
        columns={orderColumns}
        dataSource={list.data?.list}
        loading={list.isFetching}
        locale={{ emptyText: '暂无订单' }}
        onRow={(r) => ({ onClick: () => setOrderId(r.id), style: { cursor: 'pointer' } })}
        pagination={
          count > ORDER_LIMITS.pageSize && {
            current: page,
            pageSize: limit,
            total: count,
            showSizeChanger: true,
            pageSizeOptions: [...ORDER_LIMITS.pageSizeOptions],
            showTotal: (n) => `共 ${n} 条`,
            onChange: (p, size) => {
              setPage(size === limit ? p : 1);
              setLimit(size);
            },
          }
        }
      />
      <OrderDetailDrawer orderId={orderId} onClose={() => setOrderId(null)} />
    </>
  );
};
