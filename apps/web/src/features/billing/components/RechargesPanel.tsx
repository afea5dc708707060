import type { BillingRechargeRow } from '@crm/contracts';
import { Table, type TableColumnsType, Tag } from 'antd';
import { useTablePaging } from '../../../components/useTablePaging';
import { type BillingFilters, useBillingRecharges } from '../api';
import { formatYuan } from '../money';

const columns: TableColumnsType<BillingRechargeRow> = [
  { title: '充值时间', dataIndex: 'at', width: 160 },
  { title: '充值渠道', dataIndex: 'channel', width: 100 },
  { title: '充值金额', dataIndex: 'amount', width: 120, align: 'right', render: (v: number) => formatYuan(v) },
  { title: '赠送金额', dataIndex: 'bonus', width: 110, align: 'right', render: (v: number) => formatYuan(v) },
  { title: '到账后余额', dataIndex: 'balance_after', width: 120, align: 'right', render: (v: number) => formatYuan(v) },
  { title: '流水号', dataIndex: 'ref', width: 150, ellipsis: true },
  { title: '操作人', dataIndex: 'operator', width: 90, ellipsis: true },
  {
    title: '状态',
    dataIndex: 'status_label',
    width: 80,
    render: (v: string, r) => <Tag color={r.status === 1 ? 'green' : 'default'}>{v}</Tag>,
  },
  { title: '备注', dataIndex: 'remark', ellipsis: true, render: (v: string) => v || '-' },
];

/** 充值记录 tab: the company's recharges in the date range (recorded by the platform operator). */
export const RechargesPanel = ({ filters }: { filters: BillingFilters }) => {
  const paging = useTablePaging(20);
  // recharges follow the date range only: staff, department, kind and number are of charges
  const list = useBillingRecharges({ start: filters.start, end: filters.end, page: paging.page, limit: paging.limit });
  return (
    <Table<BillingRechargeRow>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={list.data?.list}
      loading={list.isFetching}
      scroll={{ x: 1000 }}
      locale={{ emptyText: '暂无充值记录' }}
      pagination={paging.pagination(list.data?.count ?? 0)}
      data-testid="billing-recharges"
    />
  );
};
