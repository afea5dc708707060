import type { ECharts, EChartsCoreOption } from 'echarts/core';
import { useEffect, useRef, useState } from 'react';

export type EChartOption = EChartsCoreOption;

let loading: Promise<typeof import('./echarts-setup')> | null = null;
/** ECharts (core and the charts used) in its own chunk, fetched once, when the first chart mounts. */
const loadEcharts = () => {
  loading ??= import('./echarts-setup').catch((e: unknown) => {
    loading = null; // a failed chunk load may be retried by the next chart
    throw e;
  });
  return loading;
};

/** A resizable ECharts canvas (DESIGN: ECharts for the workbench statistics); ECharts loads lazily. */
export const EChart = ({ option, height = 280 }: { option: EChartOption; height?: number }) => {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | null = null;
    void loadEcharts().then(({ init }) => {
      if (disposed || !ref.current) return;
      chart.current = init(ref.current);
      observer = new ResizeObserver(() => chart.current?.resize());
      observer.observe(ref.current);
      setReady(true);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    if (ready) chart.current?.setOption(option, true);
  }, [option, ready]);
  return <div ref={ref} style={{ width: '100%', height }} />;
};
