import {
  type CalltaskAgentStat,
  type CalltaskDetail,
  type CalltaskNumberRow,
  DIAL_REFUSAL_KIND,
  HANGUP_CAUSE_LABEL,
  TASK_NUMBER_STATE_LABEL,
} from '@crm/contracts';
import {
  Alert,
  Badge,
  Card,
  Col,
  Descriptions,
  Drawer,
  Empty,
  Progress,
  Result,
  Row,
  Select,
  Skeleton,
  Space,
  Statistic,
  Table,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { useTablePaging } from '../../../components/useTablePaging';
import { useCalltaskDetail, useCalltaskNumbers } from '../api';
import { TaskCharts } from './TaskCharts';
import { TaskStatusTag } from './TaskStatusTag';
import { shownWait, windowText } from './TaskWindow';
import { formatBillsec, progressPercent, WEEK_OPTIONS } from './taskForm';

type Props = { id: number | null; onClose: () => void };

/** A number's last result: the call's hang-up cause, or the dial refusal's kind (禁拨, 超频, 黑名单 …). */
const lastCodeText = (code: string) => {
  if (!code) return '-';
  if (code === 'blacklist') return '黑名单';
  return HANGUP_CAUSE_LABEL[code] ?? DIAL_REFUSAL_KIND[Number(code)] ?? code;
};

const STATE_BADGE: Record<number, 'default' | 'processing' | 'success' | 'warning' | 'error'> = {
  0: 'default',
  1: 'processing',
  2: 'success',
  3: 'warning',
  4: 'default',
  5: 'error',
};

const Counters = ({ d }: { d: CalltaskDetail }) => {
  const items: [string, number | string][] = [
    ['总数', d.totalNum],
    ['已呼', d.zcallNum],
    ['接通', d.zcallCnum],
    ['未接通', d.zcallWnum],
    ['黑名单/禁拨', d.zcallBnum],
    ['待拨打', d.leftNum],
    ['通话时长', formatBillsec(d.zcallBillsec)],
  ];
  return (
    <Row gutter={[12, 12]}>
      {items.map(([title, value]) => (
        <Col key={title} flex="1 0 120px">
          <Card size="small">
            <Statistic title={title} value={value} valueStyle={{ fontSize: 20 }} />
          </Card>
        </Col>
      ))}
    </Row>
  );
};

const agentColumns: TableColumnsType<CalltaskAgentStat> = [
  { title: '坐席', dataIndex: 'name' },
  {
    title: '状态',
    dataIndex: 'isWorking',
    width: 100,
    render: (v: number) => (v ? <Badge status="processing" text="工作中" /> : <Badge status="default" text="未工作" />),
  },
  { title: '已呼', dataIndex: 'zcallNum', width: 80 },
  { title: '接通', dataIndex: 'zcallCnum', width: 80 },
  { title: '未接通', dataIndex: 'zcallWnum', width: 80 },
  {
    title: '接通率',
    key: 'rate',
    width: 90,
    render: (_, a) => (a.zcallNum ? `${Math.round((a.zcallCnum / a.zcallNum) * 100)}%` : '-'),
  },
  { title: '通话时长', dataIndex: 'zcallBillsec', width: 120, render: (v: number) => formatBillsec(v) },
  { title: '最后通话结束', dataIndex: 'lastCallEndTime', width: 170, render: (v: string) => v || '-' },
];

const NumbersTable = ({ cmStid }: { cmStid: number }) => {
  const [state, setState] = useState<number | undefined>(undefined);
  const paging = useTablePaging(10);
  const numbers = useCalltaskNumbers({ cmStid, state, page: paging.page, limit: paging.limit }, true);
  const columns: TableColumnsType<CalltaskNumberRow> = [
    { title: '号码', dataIndex: 'phone', width: 140 },
    { title: '客户', dataIndex: 'name', ellipsis: true, render: (v: string, r) => (r.cmCtid ? v || '未命名' : '暂无客户信息') },
    {
      title: '状态',
      dataIndex: 'state',
      width: 110,
      render: (v: number, r) => <Badge status={STATE_BADGE[v] ?? 'default'} text={r.stateName} />,
    },
    { title: '拨打次数', dataIndex: 'attempts', width: 90 },
    { title: '下次拨打', dataIndex: 'nextTime', width: 170, render: (v: string, r) => (r.state === 0 && v ? v : '-') },
    { title: '最后结果', dataIndex: 'lastCode', width: 110, render: (v: string) => lastCodeText(v) },
    { title: '坐席结果', dataIndex: 'outcomeName', width: 100, render: (v: string) => v || '-' },
  ];
  return (
    <Card
      size="small"
      title="任务号码"
      extra={
        <Select
          allowClear
          placeholder="全部状态"
          aria-label="号码状态"
          style={{ width: 140 }}
          value={state}
          onChange={(v) => {
            setState(v);
            paging.resetPage();
          }}
          options={Object.entries(TASK_NUMBER_STATE_LABEL).map(([value, label]) => ({ value: Number(value), label }))}
        />
      }
    >
      <Table<CalltaskNumberRow>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={numbers.data?.list}
        loading={numbers.isFetching && !numbers.data}
        pagination={paging.pagination(numbers.data?.count ?? 0)}
        locale={{ emptyText: <Empty description="暂无号码" /> }}
        scroll={{ x: 820 }}
      />
    </Card>
  );
};

/** 任务详情: counters, charts, per-agent figures and the numbers (masked as the server returns them). */
export const TaskDetailDrawer = ({ id, onClose }: Props) => {
  const detail = useCalltaskDetail(id);
  const d = detail.data;
  const weeks = d ? WEEK_OPTIONS.filter((w) => d.cmWeeks.includes(w.value)).map((w) => w.label) : [];
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size={1000}
      destroyOnHidden
      title={
        d ? (
          <Space size={8}>
            <span>{d.name}</span>
            <TaskStatusTag status={d.status} />
          </Space>
        ) : (
          '任务详情'
        )
      }
    >
      {detail.isError ? (
        <Result status="warning" title="无法查看该任务" subTitle="任务不存在、已被删除，或不在您的数据范围内" />
      ) : !d ? (
        <Skeleton active paragraph={{ rows: 12 }} />
      ) : (
        <Space orientation="vertical" size={16} style={{ display: 'flex' }}>
          {shownWait(d) && (
            <Alert
              type={shownWait(d)?.reason === 'never' ? 'error' : 'warning'}
              showIcon
              data-testid="task-wait"
              message={shownWait(d)?.text}
              description={`外呼时间：${windowText(d.cmWeeks, d.cmTimes)}（北京时间），且须在公司外呼时段内；进行中的任务到时自动开始拨号`}
            />
          )}
          <Progress percent={progressPercent(d)} status={d.status === 1 ? 'active' : 'normal'} />
          <Counters d={d} />
          <Descriptions column={3} size="small" bordered>
            <Descriptions.Item label="外呼日期">{weeks.join('、')}</Descriptions.Item>
            <Descriptions.Item label="外呼时段" span={2}>
              {d.cmTimes.map((r) => `${r.start}–${r.end}`).join('，')}
            </Descriptions.Item>
            <Descriptions.Item label="重拨">
              {d.maxAttempts > 1 ? `${d.redialMinutes}分钟后，最多${d.maxAttempts}次` : '不重拨'}
            </Descriptions.Item>
            <Descriptions.Item label="整理时间">{d.wrapUpSeconds}秒</Descriptions.Item>
            <Descriptions.Item label="过滤黑名单">{d.blackState ? '是' : '否'}</Descriptions.Item>
            <Descriptions.Item label="创建人">{d.createName}</Descriptions.Item>
            <Descriptions.Item label="创建时间" span={2}>
              {d.createTime}
            </Descriptions.Item>
          </Descriptions>
          <TaskCharts detail={d} />
          <Card size="small" title="坐席统计">
            <Table<CalltaskAgentStat>
              rowKey="cmSid"
              size="small"
              columns={agentColumns}
              dataSource={d.agents}
              pagination={false}
              locale={{ emptyText: <Empty description="暂无坐席" /> }}
            />
          </Card>
          <NumbersTable cmStid={d.cmStid} />
        </Space>
      )}
    </Drawer>
  );
};
