import { type AicallReport, type AicallRow, ASSIGN_RULE_LABEL, type AssignRule } from '@crm/contracts';
import { Alert, Card, Col, Descriptions, Drawer, Progress, Result, Row, Skeleton, Space, Statistic } from 'antd';
import { billsecText } from '../../calls/api';
import { TaskStatusTag } from '../../calltasks/components/TaskStatusTag';
import { shownWait, windowText } from '../../calltasks/components/TaskWindow';
import { progressPercent, WEEK_OPTIONS } from '../../calltasks/components/taskForm';
import { useAicallDetail, useAicallReport } from '../api';
import { AiCallsTable } from './AiCallsTable';
import { AiReportCharts } from './AiReportCharts';

type Props = { id: number | null; onClose: () => void };

const Figures = ({ report, row }: { report: AicallReport; row: AicallRow }) => {
  const items: [string, string | number, string?][] = [
    ['号码总数', row.totalNum],
    ['已呼', report.called],
    ['接通', report.connected],
    ['接通率', report.connectRate, '%'],
    ['平均通话', billsecText(Math.round(report.avgDuration))],
    ['平均轮次', report.avgRounds],
    ['转人工', report.transferred],
    // calls that failed for a system reason: not connected, not graded, counted apart (issue 22)
    ['系统异常', report.grades.failed],
    ['线路', `${row.linesInUse}/${row.maxLines}`],
  ];
  return (
    <Row gutter={[12, 12]}>
      {items.map(([title, value, suffix]) => (
        <Col key={title} flex="1 0 100px">
          <Card size="small" data-testid={`report-${title}`}>
            <Statistic title={title} value={value} suffix={suffix} styles={{ content: { fontSize: 20 } }} />
          </Card>
        </Col>
      ))}
    </Row>
  );
};

/** 任务详情 of an AI task: progress, the report (figures and charts), its settings and its AI calls. */
export const AiTaskDrawer = ({ id, onClose }: Props) => {
  const detail = useAicallDetail(id);
  const row = detail.data ?? null;
  const isLive = row?.status === 1;
  const report = useAicallReport(id, isLive);
  const r = report.data;
  const weeks = row ? WEEK_OPTIONS.filter((w) => row.cmWeeks.includes(w.value)).map((w) => w.label) : [];
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={1040}
      destroyOnHidden
      title={
        row ? (
          <Space size={8}>
            <span>{row.name}</span>
            <TaskStatusTag status={row.status} />
          </Space>
        ) : (
          'AI外呼任务'
        )
      }
    >
      {detail.isError || report.isError ? (
        <Result status="warning" title="无法查看该任务" subTitle="任务不存在、已被删除，或不在您的数据范围内" />
      ) : !row || !r ? (
        <Skeleton active paragraph={{ rows: 12 }} />
      ) : (
        <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
          {shownWait(row) && (
            <Alert
              type={shownWait(row)?.reason === 'never' ? 'error' : 'warning'}
              showIcon
              data-testid="task-wait"
              message={shownWait(row)?.text}
              description={`外呼时间：${windowText(row.cmWeeks, row.cmTimes)}（北京时间），且须在公司外呼时段内；进行中的任务到时自动开始拨号`}
            />
          )}
          <Progress percent={progressPercent(row)} status={isLive ? 'active' : 'normal'} />
          <Figures report={r} row={row} />
          <AiReportCharts report={r} />
          <Descriptions column={3} size="small" bordered>
            <Descriptions.Item label="话术">{row.flowName}</Descriptions.Item>
            <Descriptions.Item label="意向分配">
              {row.assignGrades.length ? `${row.assignGrades.join('、')}级` : '不分配'}
            </Descriptions.Item>
            <Descriptions.Item label="分配规则">{ASSIGN_RULE_LABEL[row.assignRule as AssignRule] ?? '-'}</Descriptions.Item>
            <Descriptions.Item label="外呼日期">{weeks.join('、')}</Descriptions.Item>
            <Descriptions.Item label="外呼时段">{row.cmTimes.map((t) => `${t.start}–${t.end}`).join('，')}</Descriptions.Item>
            <Descriptions.Item label="重拨">
              {row.maxAttempts > 1 ? `${row.redialMinutes}分钟后，最多${row.maxAttempts}次` : '不重拨'}
            </Descriptions.Item>
            <Descriptions.Item label="转人工坐席" span={2}>
              {row.cmSidInfo.map((a) => a.name).join('、') || '无'}
            </Descriptions.Item>
            <Descriptions.Item label="创建">
              {row.createName} {row.createTime}
            </Descriptions.Item>
          </Descriptions>
          <Card size="small" title="AI通话记录">
            <AiCallsTable cmStid={row.cmStid} source={1} isLive={isLive} canExport />
          </Card>
        </Space>
      )}
    </Drawer>
  );
};
