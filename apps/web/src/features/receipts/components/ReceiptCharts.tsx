import type { ReceiptStats } from '@crm/contracts';
import { Card, Col, Empty, Row, Skeleton } from 'antd';
import { useMemo } from 'react';
import { EChart, type EChartOption } from '../../../components/EChart';
import { formatMoney } from '../../../components/money';
import { useReceiptStats } from '../api';

/** Amounts travel in 1/1000 yuan; the charts plot them as they are and show them in 元 with 2 decimals. */
const yuan = (v: unknown) => `¥${formatMoney(Number(v))}`;
const axisYuan = (v: number) => formatMoney(v).replace(/\.00$/, '');
const HEIGHT = 260;

const monthChart = (s: ReceiptStats): EChartOption => ({
  grid: { left: 64, right: 16, top: 24, bottom: 32 },
  tooltip: { trigger: 'axis', valueFormatter: yuan },
  xAxis: { type: 'category', data: s.byMonth.map((m) => m.month) },
  yAxis: { type: 'value', axisLabel: { formatter: axisYuan } },
  series: [
    { name: '回款金额', type: 'bar', data: s.byMonth.map((m) => m.amount), barMaxWidth: 24, itemStyle: { color: '#1677ff' } },
  ],
});

const staffChart = (s: ReceiptStats): EChartOption => {
  const rows = [...s.byStaff].reverse();
  return {
    grid: { left: 72, right: 24, top: 16, bottom: 32 },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: yuan },
    xAxis: { type: 'value', axisLabel: { formatter: axisYuan } },
    yAxis: { type: 'category', data: rows.map((r) => r.name || `#${r.staff_id}`) },
    series: [
      { name: '回款金额', type: 'bar', data: rows.map((r) => r.amount), barMaxWidth: 16, itemStyle: { color: '#52c41a' } },
    ],
  };
};

const dueChart = (s: ReceiptStats): EChartOption => ({
  grid: { left: 64, right: 16, top: 24, bottom: 32 },
  tooltip: {
    trigger: 'axis',
    formatter: (params: unknown) => {
      const p = (params as { dataIndex: number }[])[0];
      const d = s.dueNext30[p?.dataIndex ?? 0];
      return d ? `${d.day}<br/>应回款 ${yuan(d.amount)}<br/>回款计划 ${d.count} 个` : '';
    },
  },
  xAxis: { type: 'category', data: s.dueNext30.map((d) => d.day.slice(5)) },
  yAxis: { type: 'value', axisLabel: { formatter: axisYuan } },
  series: [
    { name: '应回款', type: 'bar', data: s.dueNext30.map((d) => d.amount), barMaxWidth: 12, itemStyle: { color: '#fa8c16' } },
  ],
});

const ChartCard = ({
  title,
  loading,
  failed,
  empty,
  option,
  testId,
}: {
  title: string;
  loading: boolean;
  failed: boolean;
  empty: boolean;
  option: EChartOption | null;
  testId: string;
}) => (
  <Card title={title} size="small" data-testid={testId}>
    {failed ? (
      <Empty style={{ height: HEIGHT - 40 }} image={Empty.PRESENTED_IMAGE_SIMPLE} description="图表加载失败" />
    ) : loading || !option ? (
      <Skeleton active paragraph={{ rows: 6 }} />
    ) : empty ? (
      <Empty style={{ height: HEIGHT - 40 }} description="暂无数据" />
    ) : (
      <EChart option={option} height={HEIGHT} />
    )}
  </Card>
);

/** 回款管理's figures (issue 14): 月度回款, 员工回款排行, 未来30天应回款, in the caller's data scope. */
export const ReceiptCharts = () => {
  const { data, isLoading, isError } = useReceiptStats();
  const options = useMemo(
    () => (data ? { month: monthChart(data), staff: staffChart(data), due: dueChart(data) } : null),
    [data],
  );
  const loading = isLoading || !data;
  return (
    <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
      <Col xs={24} lg={8}>
        <ChartCard
          title="月度回款（近12个月）"
          testId="receipt-chart-month"
          loading={loading}
          failed={isError}
          empty={!!data && data.byMonth.every((m) => m.amount === 0)}
          option={options?.month ?? null}
        />
      </Col>
      <Col xs={24} lg={8}>
        <ChartCard
          title="员工回款排行"
          testId="receipt-chart-staff"
          loading={loading}
          failed={isError}
          empty={!!data && data.byStaff.every((m) => m.amount === 0)}
          option={options?.staff ?? null}
        />
      </Col>
      <Col xs={24} lg={8}>
        <ChartCard
          title="未来30天应回款"
          testId="receipt-chart-due"
          loading={loading}
          failed={isError}
          empty={!!data && data.dueNext30.every((d) => d.count === 0)}
          option={options?.due ?? null}
        />
      </Col>
    </Row>
  );
};
