import type { BillingChart } from '@crm/contracts';
import { Card, Empty, Skeleton } from 'antd';
import { useMemo } from 'react';
import { EChart, type EChartOption } from '../../../components/EChart';
import { type BillingFilters, useBillingChart } from '../api';
import { formatYuan, yuanDigits } from '../money';

const HEIGHT = 240;
const COLORS = ['#1677ff', '#52c41a', '#fa8c16', '#722ed1', '#13c2c2', '#eb2f96', '#faad14', '#2f54eb', '#a0d911', '#8c8c8c'];

/** Amounts are plotted as the integers they are (1/10,000 yuan) and only labelled in yuan. */
const chartOption = (c: BillingChart): EChartOption => ({
  color: COLORS,
  grid: { left: 64, right: 16, top: 36, bottom: 28 },
  legend: { top: 0, type: 'scroll' },
  tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: unknown) => formatYuan(Number(v)) },
  xAxis: { type: 'category', data: c.days.map((d) => d.slice(5)) },
  yAxis: { type: 'value', axisLabel: { formatter: (v: number) => yuanDigits(v).replace(/\.00$/, '') } },
  series: c.series.map((s) => ({ name: s.label, type: 'bar', stack: 'spend', data: s.amounts, barMaxWidth: 18 })),
});

/** 消费趋势: the charges per day of the filtered range, stacked by kind. */
export const ConsumptionChart = ({ filters }: { filters: BillingFilters }) => {
  const { data, isLoading, isError } = useBillingChart(filters);
  const option = useMemo(() => (data ? chartOption(data) : null), [data]);
  const isEmpty = !!data && data.totals.every((t) => t === 0);
  return (
    <Card size="small" title="每日消费（按类型）" data-testid="billing-chart">
      {isError ? (
        <Empty style={{ height: HEIGHT - 40 }} image={Empty.PRESENTED_IMAGE_SIMPLE} description="图表加载失败" />
      ) : isLoading || !option ? (
        <Skeleton active paragraph={{ rows: 5 }} />
      ) : isEmpty ? (
        <Empty style={{ height: HEIGHT - 40 }} image={Empty.PRESENTED_IMAGE_SIMPLE} description="所选时间内暂无消费" />
      ) : (
        <EChart option={option} height={HEIGHT} />
      )}
    </Card>
  );
};
