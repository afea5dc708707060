import type { WorkOrderListQuery, WorkType } from '@crm/contracts';
import { Card, Empty, Select, Skeleton } from 'antd';
import { useMemo, useState } from 'react';
import { EChart, type EChartOption } from '../../../components/EChart';
import { useWorkOrderStageCounts } from '../api';

type Props = {
  types: WorkType[];
  /** the list's tab and filters; the chart counts per stage of one type within them */
  base: Partial<WorkOrderListQuery>;
};

const HEIGHT = 180;

/** 各阶段工单数: the work orders of the current tab and filters in each stage of a type (ECharts bar). */
export const WorkStageChart = ({ types, base }: Props) => {
  const [picked, setPicked] = useState<number | undefined>(undefined);
  // unless the filters or the user say otherwise: the type with the most work orders
  const busiest = types.reduce<WorkType | undefined>((best, t) => (!best || t.used > best.used ? t : best), undefined);
  const typeId = base.type_id ?? picked ?? busiest?.id;
  const type = types.find((t) => t.id === typeId);
  const stages = useMemo(() => [...(type?.stages ?? [])].sort((a, b) => a.sort - b.sort), [type]);
  const { counts, isLoading } = useWorkOrderStageCounts(
    { ...base, type_id: typeId, stage_id: undefined },
    stages.map((s) => s.id),
  );
  const key = counts.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the counts' values
  const option = useMemo<EChartOption>(
    () => ({
      grid: { left: 40, right: 16, top: 16, bottom: 28 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: unknown) => `${v} 个` },
      xAxis: { type: 'category', data: stages.map((s) => s.name) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [{ name: '工单数', type: 'bar', data: counts, barMaxWidth: 28, itemStyle: { color: '#1677ff' } }],
    }),
    [stages, key],
  );
  return (
    <Card
      size="small"
      title={type ? `各阶段工单数 · ${type.name}` : '各阶段工单数'}
      data-testid="work-stage-chart"
      style={{ marginBottom: 16 }}
      extra={
        base.type_id === undefined &&
        types.length > 1 && (
          <Select
            size="small"
            aria-label="图表工单类型"
            value={typeId}
            onChange={setPicked}
            options={types.map((t) => ({ value: t.id, label: t.name }))}
            style={{ width: 160 }}
          />
        )
      }
    >
      {!type ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无工单类型" style={{ height: HEIGHT - 40 }} />
      ) : isLoading ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : (
        <EChart option={option} height={HEIGHT} />
      )}
    </Card>
  );
};
