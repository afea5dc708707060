import type { BillingGroupBy, BillingSummary } from '@crm/contracts';
import { Segmented, Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { type BillingFilters, useBillingSummary } from '../api';
import { formatSeconds, formatYuan } from '../money';

type Row = BillingSummary['rows'][number];

const GROUPS: { value: BillingGroupBy; label: string; column: string }[] = [
  { value: 'staff', label: '按员工', column: '员工' },
  { value: 'day', label: '按日期', column: '日期' },
  { value: 'line', label: '按线路', column: '线路号码' },
  { value: 'kind', label: '按类型', column: '消费类型' },
];

const columnsOf = (groupBy: BillingGroupBy): TableColumnsType<Row> => [
  { title: GROUPS.find((g) => g.value === groupBy)?.column, dataIndex: 'label', ellipsis: true, render: (v: string) => v || '-' },
  { title: '消费笔数', dataIndex: 'count', width: 120, align: 'right' },
  { title: '计费时长', dataIndex: 'billed_seconds', width: 140, align: 'right', render: (v: number) => formatSeconds(v) },
  { title: '消费金额', dataIndex: 'amount', width: 160, align: 'right', render: (v: number) => formatYuan(v) },
];

/** 汇总 tab: the filtered charges by staff, day, line or kind; the server's totals row equals the sum of the rows. */
export const SummaryPanel = ({ filters }: { filters: BillingFilters }) => {
  const [groupBy, setGroupBy] = useState<BillingGroupBy>('staff');
  const summary = useBillingSummary(filters, groupBy);
  const total = summary.data?.total;
  return (
    <>
      <Segmented<BillingGroupBy>
        options={GROUPS.map(({ value, label }) => ({ value, label }))}
        value={groupBy}
        onChange={setGroupBy}
        style={{ marginBottom: 12 }}
      />
      <Table<Row>
        rowKey="key"
        size="small"
        columns={columnsOf(groupBy)}
        dataSource={summary.data?.rows}
        loading={summary.isFetching}
        pagination={false}
        scroll={{ y: 360 }}
        locale={{ emptyText: '所选条件下暂无消费' }}
        data-testid="billing-summary"
        summary={() =>
          total && summary.data && summary.data.rows.length > 0 ? (
            <Table.Summary fixed>
              <Table.Summary.Row data-testid="billing-summary-total">
                <Table.Summary.Cell index={0}>
                  <Typography.Text strong>合计</Typography.Text>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={1} align="right">
                  <Typography.Text strong>{total.count}</Typography.Text>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={2} align="right">
                  <Typography.Text strong>{formatSeconds(total.billed_seconds)}</Typography.Text>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={3} align="right">
                  <Typography.Text strong>{formatYuan(total.amount)}</Typography.Text>
                </Table.Summary.Cell>
              </Table.Summary.Row>
            </Table.Summary>
          ) : null
        }
      />
    </>
  );
};
