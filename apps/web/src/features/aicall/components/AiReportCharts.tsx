import { type AicallReport, GRADE_LABEL, GRADES } from '@crm/contracts';
import { Card, Col, Empty, Row, Typography } from 'antd';
import { useMemo } from 'react';
import { EChart, type EChartOption } from '../../../components/EChart';

const GRADE_CHART_COLOR: Record<string, string> = { A: '#f5222d', B: '#fa8c16', C: '#1677ff', D: '#8c8c8c', E: '#d9d9d9' };
const HEIGHT = 240;

/** The task report's charts: the grade split (pie) and, per day, called / connected / A / B (bars). */
export const AiReportCharts = ({ report }: { report: AicallReport }) => {
  const pie = useMemo<EChartOption>(
    () => ({
      tooltip: { trigger: 'item', formatter: '{b}：{c}（{d}%）' },
      legend: { bottom: 0, itemWidth: 12, itemHeight: 12 },
      series: [
        {
          type: 'pie',
          radius: ['40%', '66%'],
          center: ['50%', '42%'],
          label: { formatter: '{c}' },
          data: GRADES.map((g) => ({
            name: GRADE_LABEL[g],
            value: report.grades[g],
            itemStyle: { color: GRADE_CHART_COLOR[g] },
          })).filter((d) => d.value > 0),
        },
      ],
    }),
    [report.grades],
  );
  const days = useMemo<EChartOption>(() => {
    const bar = (name: string, key: 'called' | 'connected' | 'a' | 'b', color: string) => ({
      name,
      type: 'bar',
      barMaxWidth: 18,
      color,
      data: report.days.map((d) => d[key]),
    });
    return {
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 40, right: 16, top: 36, bottom: 28 },
      xAxis: { type: 'category', data: report.days.map((d) => d.day.slice(5)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        bar('已呼', 'called', '#91caff'),
        bar('接通', 'connected', '#52c41a'),
        bar('A级', 'a', GRADE_CHART_COLOR.A),
        bar('B级', 'b', GRADE_CHART_COLOR.B),
      ],
    };
  }, [report.days]);
  const hasGrades = GRADES.some((g) => report.grades[g] > 0);
  return (
    <Row gutter={16}>
      <Col span={9}>
        <Card
          size="small"
          title="意向等级分布"
          // calls that failed for a system reason have no grade: counted beside the split, not in it (issue 22)
          extra={
            report.grades.failed > 0 ? (
              <Typography.Text type="danger" data-testid="grades-failed">
                另有系统异常 {report.grades.failed} 通
              </Typography.Text>
            ) : null
          }
        >
          {hasGrades ? <EChart option={pie} height={HEIGHT} /> : <Empty description="暂无通话" style={{ height: HEIGHT }} />}
        </Card>
      </Col>
      <Col span={15}>
        <Card size="small" title="每日外呼">
          {report.days.length > 0 ? (
            <EChart option={days} height={HEIGHT} />
          ) : (
            <Empty description="暂无外呼" style={{ height: HEIGHT }} />
          )}
        </Card>
      </Col>
    </Row>
  );
};
