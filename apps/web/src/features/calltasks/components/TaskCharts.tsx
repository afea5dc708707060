import { type CalltaskDetail, type CalltaskNumberRow, type ListData, TASK_NUMBER_STATE_LABEL } from '@crm/contracts';
import { useQueries } from '@tanstack/react-query';
import { Card, Col, Empty, Row } from 'antd';
import { useMemo } from 'react';
import { http } from '../../../api/http';
import { EChart, type EChartOption } from '../../../components/EChart';
import { calltaskKeys, TASK_POLL_MS } from '../api';

const STATES = Object.keys(TASK_NUMBER_STATE_LABEL).map(Number);
const STATE_COLORS = ['#bfbfbf', '#1677ff', '#52c41a', '#faad14', '#595959', '#ff4d4f'];

/** How many numbers of the task are in each state (one count request per state). */
const useStateCounts = (cmStid: number) =>
  useQueries({
    queries: STATES.map((state) => ({
      queryKey: calltaskKeys.numbers({ cmStid, state, page: 1, limit: 1 }),
      queryFn: () =>
        http.post<ListData<CalltaskNumberRow>>('/api/frontend/calltask/numbers', { cmStid, state, page: 1, limit: 1 }),
      refetchInterval: TASK_POLL_MS,
    })),
  });

/** Per agent: connected and not connected calls (stacked); the numbers by state (pie). */
export const TaskCharts = ({ detail }: { detail: CalltaskDetail }) => {
  const counts = useStateCounts(detail.cmStid);
  const agentOption = useMemo<EChartOption>(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 40, right: 16, top: 36, bottom: 28 },
      xAxis: { type: 'category', data: detail.agents.map((a) => a.name), axisLabel: { interval: 0 } },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        {
          name: '接通',
          type: 'bar',
          stack: 'calls',
          data: detail.agents.map((a) => a.zcallCnum),
          color: '#52c41a',
          barMaxWidth: 36,
        },
        {
          name: '未接通',
          type: 'bar',
          stack: 'calls',
          data: detail.agents.map((a) => a.zcallWnum),
          color: '#faad14',
          barMaxWidth: 36,
        },
      ],
    }),
    [detail.agents],
  );
  const stateCounts = counts.map((c) => c.data?.count ?? 0).join(',');
  const pieOption = useMemo<EChartOption>(() => {
    const values = stateCounts.split(',').map(Number);
    const data = STATES.map((s, i) => ({
      name: TASK_NUMBER_STATE_LABEL[s],
      value: values[i] ?? 0,
      itemStyle: { color: STATE_COLORS[i] },
    })).filter((d) => d.value > 0);
    return {
      tooltip: { trigger: 'item', formatter: '{b}：{c}（{d}%）' },
      legend: { bottom: 0 },
      series: [{ type: 'pie', radius: ['40%', '68%'], center: ['50%', '44%'], label: { formatter: '{b} {c}' }, data }],
    };
  }, [stateCounts]);
  const hasNumbers = counts.some((c) => (c.data?.count ?? 0) > 0);
  const hasCalls = detail.agents.some((a) => a.zcallNum > 0);
  return (
    <Row gutter={16}>
      <Col span={14}>
        <Card size="small" title="坐席外呼统计">
          {hasCalls ? <EChart option={agentOption} height={240} /> : <Empty description="暂无外呼" style={{ height: 240 }} />}
        </Card>
      </Col>
      <Col span={10}>
        <Card size="small" title="号码状态">
          {hasNumbers ? <EChart option={pieOption} height={240} /> : <Empty description="暂无号码" style={{ height: 240 }} />}
        </Card>
      </Col>
    </Row>
  );
};
