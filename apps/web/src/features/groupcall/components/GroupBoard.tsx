import type { GroupcallBoard } from '@crm/contracts';
import { Button, Card, Col, Empty, Flex, Row, Skeleton, Statistic, Tag } from 'antd';
import { useMemo } from 'react';
import { EChart, type EChartOption } from '../../../components/EChart';
import { type GroupAction, useGroupBoard } from '../api';

const STATE_COLOR = ['default', 'green', 'blue', 'orange'];

const chartOf = (b: GroupcallBoard): EChartOption => ({
  grid: { left: 48, right: 48, top: 32, bottom: 32 },
  tooltip: { trigger: 'axis' },
  xAxis: { type: 'category', data: b.samples.map((s) => s.time) },
  yAxis: [
    { type: 'value', name: '比率', min: 0 },
    { type: 'value', name: '%', min: 0 },
  ],
  series: [
    { name: '拨号比率', type: 'line', showSymbol: false, data: b.samples.map((s) => s.ratio) },
    { name: '放弃率(%)', type: 'line', yAxisIndex: 1, showSymbol: false, data: b.samples.map((s) => s.abandonRate) },
  ],
});

type Props = {
  cmStid: number;
  /** the signed-in staff: an agent of the task gets 开始工作 / 停止工作 */
  staffId: number;
  onAction: (action: Extract<GroupAction, 'work' | 'unwork'>) => void;
  isPending: boolean;
};

/** 群呼看板: the task's agents, lines, ratio and outcomes, live from msg_type 8 frames (polling as fallback). */
export const GroupBoard = ({ cmStid, staffId, onAction, isPending }: Props) => {
  const { data: b, isLoading } = useGroupBoard(cmStid);
  const option = useMemo(() => (b && b.samples.length > 0 ? chartOf(b) : null), [b]);
  if (isLoading) return <Skeleton active />;
  if (!b) return <Empty description="暂无数据" />;
  const me = b.agents.find((a) => a.cmSid === staffId);
  const isOver = b.abandonRate > b.abandonTarget;
  const figures: { title: string; value: number | string; suffix?: string; testId: string; color?: string }[] = [
    { title: '空闲坐席', value: b.agentsFree, testId: 'free' },
    { title: '通话中', value: b.agentsTalking, testId: 'talking' },
    { title: '整理中', value: b.agentsWrapUp, testId: 'wrapup' },
    { title: '占用线路', value: `${b.linesInUse}/${b.maxLines}`, testId: 'lines' },
    { title: '当前比率', value: b.ratio.toFixed(1), testId: 'ratio' },
    { title: '已接通', value: b.answered, testId: 'answered' },
    { title: '放弃率', value: b.abandonRate, suffix: '%', testId: 'abandon', color: isOver ? '#cf1322' : undefined },
    { title: '转坐席', value: b.connected, testId: 'connected' },
    { title: '平均等待', value: b.avgWaitSeconds, suffix: '秒', testId: 'wait' },
  ];
  return (
    <Flex vertical gap={16} data-testid="group-board">
      {me && (
        <Flex gap={8} align="center">
          <span>我的状态：</span>
          <Tag color={STATE_COLOR[me.state]}>{me.stateName}</Tag>
          {me.state === 0 ? (
            <Button type="primary" loading={isPending} onClick={() => onAction('work')}>
              开始工作
            </Button>
          ) : (
            <Button loading={isPending} onClick={() => onAction('unwork')}>
              停止工作
            </Button>
          )}
        </Flex>
      )}
      <Row gutter={[12, 12]}>
        {figures.map((f) => (
          <Col key={f.testId} xs={12} sm={8} md={6} lg={4}>
            <Card size="small" data-testid={`board-${f.testId}`}>
              <Statistic
                title={f.title}
                value={f.value}
                suffix={f.suffix}
                valueStyle={f.color ? { color: f.color } : undefined}
              />
            </Card>
          </Col>
        ))}
      </Row>
      <div>
        放弃率目标 {b.abandonTarget}%，已拨打 {b.called} 个
      </div>
      <Flex gap={8} wrap>
        {b.agents.map((a) => (
          <Tag key={a.cmSid} color={STATE_COLOR[a.state]}>
            {a.name} · {a.stateName}
          </Tag>
        ))}
      </Flex>
      <Card size="small" title="比率与放弃率">
        {option ? <EChart option={option} height={240} /> : <Empty description="任务运行后显示" />}
      </Card>
    </Flex>
  );
};
