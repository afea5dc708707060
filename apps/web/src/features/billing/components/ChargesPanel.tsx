import type { BillingChargeRow } from '@crm/contracts';
import { Flex, Table, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { Link } from 'react-router';
import { useTablePaging } from '../../../components/useTablePaging';
import { type BillingFilters, useBillingCharges } from '../api';
import { formatRate, formatSeconds, formatYuan } from '../money';

const TwoLines = ({ top, bottom }: { top: React.ReactNode; bottom: React.ReactNode }) => (
  <Flex vertical style={{ lineHeight: '18px' }}>
    <span>{top}</span>
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      {bottom}
    </Typography.Text>
  </Flex>
);

/** CALL_TYPE of the call: 1 呼出, 4 呼入; other debits (rental, storage…) are no call. */
const DIRECTION: Record<number, string> = { 1: '呼出', 4: '呼入' };
const isCall = (r: BillingChargeRow) => r.call_uuid !== '';
const timeOf = (at: string) => at.slice(11) || '-';

// Two-line cells keep the fourteen fields of a charge within 1366 px: no column under another.
const columns: TableColumnsType<BillingChargeRow> = [
  {
    title: '时间 / 类型',
    dataIndex: 'at',
    width: 144,
    render: (v: string, r) => <TwoLines top={v} bottom={<Tag style={{ marginTop: 2 }}>{r.kind_label}</Tag>} />,
  },
  {
    title: '员工 / 任务',
    dataIndex: 'staff_name',
    width: 96,
    ellipsis: true,
    render: (v: string, r) => <TwoLines top={v || '-'} bottom={r.task_name || '-'} />,
  },
  {
    title: '线路 / 被叫',
    dataIndex: 'line',
    width: 108,
    // the callee arrives masked when the viewer may not see the number (customer-access policy)
    render: (v: string, r) => (isCall(r) ? <TwoLines top={v || '-'} bottom={r.callee || '-'} /> : r.remark || '-'),
  },
  { title: '方向', dataIndex: 'direction', width: 52, render: (v: number) => DIRECTION[v] ?? '-' },
  {
    title: '接通 / 结束',
    dataIndex: 'answer_at',
    width: 150,
    render: (v: string, r) =>
      isCall(r) ? <TwoLines top={v || '未接通'} bottom={r.end_at ? `结束 ${timeOf(r.end_at)}` : '-'} /> : '-',
  },
  {
    title: '时长 / 计费',
    dataIndex: 'duration',
    width: 84,
    render: (v: number, r) => (isCall(r) ? <TwoLines top={formatSeconds(v)} bottom={formatSeconds(r.billed_seconds)} /> : '-'),
  },
  {
    title: '计费步长',
    dataIndex: 'increment',
    width: 68,
    render: (v: number, r) => (isCall(r) && r.first_block > 0 ? `${r.first_block}/${v}秒` : '-'),
  },
  {
    title: '费率(元/分钟)',
    dataIndex: 'rate',
    width: 90,
    align: 'right',
    render: (v: number, r) => (isCall(r) ? formatRate(v).replace(' 元/分钟', '') : '-'),
  },
  {
    title: '费用',
    dataIndex: 'amount',
    width: 84,
    align: 'right',
    render: (v: number, r) =>
      r.shortfall > 0 ? (
        <Tooltip title={`按资费应收 ${formatYuan(r.cost)}，余额不足未扣 ${formatYuan(r.shortfall)}`}>
          <Typography.Text type="danger">{formatYuan(v)}</Typography.Text>
        </Tooltip>
      ) : (
        formatYuan(v)
      ),
  },
  { title: '扣费后余额', dataIndex: 'balance_after', width: 96, align: 'right', render: (v: number) => formatYuan(v) },
  {
    title: '通话ID',
    dataIndex: 'call_uuid',
    width: 92,
    ellipsis: true,
    render: (v: string) =>
      v ? (
        <Tooltip title={`${v}（在通话记录中查看）`}>
          <Link to={`/call/record?uuid=${encodeURIComponent(v)}`} data-testid="billing-call-link">
            {v.slice(0, 8)}
          </Link>
        </Tooltip>
      ) : (
        '-'
      ),
  },
];

/** 消费明细 tab: every charge of the filters, newest first, paged on the server. */
export const ChargesPanel = ({ filters }: { filters: BillingFilters }) => {
  const paging = useTablePaging(20);
  const list = useBillingCharges({ ...filters, page: paging.page, limit: paging.limit });
  return (
    <Table<BillingChargeRow>
      rowKey="id"
      size="small"
      columns={columns}
      dataSource={list.data?.list}
      loading={list.isFetching}
      scroll={{ x: 1064 }}
      locale={{ emptyText: '所选条件下暂无消费' }}
      pagination={paging.pagination(list.data?.count ?? 0)}
      data-testid="billing-charges"
    />
  );
};
