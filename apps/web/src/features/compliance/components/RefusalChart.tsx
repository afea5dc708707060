import { useMemo } from 'react';
import { EChart, type EChartOption } from '../../../components/EChart';
import { useRefusalStat } from '../api';

/** Refusals per day over the last 7 days, stacked by reason (the caller's data scope). */
export const RefusalChart = () => {
  const { data } = useRefusalStat();
  const option = useMemo<EChartOption | null>(
    () =>
      data
        ? {
            tooltip: { trigger: 'axis' },
            legend: { top: 0 },
            grid: { left: 40, right: 16, top: 36, bottom: 24 },
            xAxis: { type: 'category', data: data.days.map((d) => d.slice(5)) },
            yAxis: { type: 'value', minInterval: 1 },
            series: data.series.map((s) => ({ name: s.kind, type: 'bar', stack: 'all', data: s.counts, barMaxWidth: 32 })),
          }
        : null,
    [data],
  );
  if (!option) return null;
  return <EChart option={option} height={220} />;
};
