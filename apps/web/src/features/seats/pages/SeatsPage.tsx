import { PhoneOutlined } from '@ant-design/icons';
import { CALL_TYPE_LABEL, type CallRecordRow, type SeatsStat } from '@crm/contracts';
import { Badge, Button, Card, Col, Empty, Row, Skeleton, Statistic, Table, type TableColumnsType, Typography } from 'antd';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { EChart, type EChartOption } from '../../../components/EChart';
import { extensionDisplay } from '../../../phone/extensionState';
import { onCallButton } from '../../../phone/phoneActions';
import { useExtension } from '../../../phone/phoneStore';
import { billsecText } from '../../calls/api';
import { RecordingPlayer } from '../../calls/components/RecordingPlayer';
import { TaskWorkPanel } from '../../calltasks/work/TaskWorkPanel';
import { useSeatsStat } from '../api';

const hourChart = (perHour: SeatsStat['perHour']): EChartOption => ({
  tooltip: { trigger: 'axis' },
  grid: { left: 40, right: 16, top: 30, bottom: 30 },
  xAxis: { type: 'category', data: perHour.map((h) => `${h.hour}时`) },
  yAxis: { type: 'value', minInterval: 1 },
  series: [
    { name: '呼叫', type: 'bar', data: perHour.map((h) => h.calls), itemStyle: { color: '#1677ff' }, barMaxWidth: 18 },
    { name: '接通', type: 'bar', data: perHour.map((h) => h.connected), itemStyle: { color: '#52c41a' }, barMaxWidth: 18 },
  ],
});

const columns: TableColumnsType<CallRecordRow> = [
  { title: '呼叫时间', dataIndex: 'startTime', width: 170 },
  { title: '类型', dataIndex: 'callType', width: 70, render: (v: number) => CALL_TYPE_LABEL[v] ?? '-' },
  { title: '号码', dataIndex: 'dstNumber', width: 130 },
  {
    title: '客户',
    dataIndex: 'customerName',
    ellipsis: true,
    render: (v: string, row) =>
      row.cmCtid > 0 ? <Link to={`/manage/mycustomer?detail=${row.cmCtid}`}>{v || '未命名'}</Link> : '-',
  },
  {
    title: '结果',
    dataIndex: 'billsec',
    width: 120,
    render: (v: number, row) =>
      row.isActive ? (
        <Badge status="processing" text="通话中" />
      ) : v > 0 ? (
        <Badge status="success" text={billsecText(v)} />
      ) : (
        <Badge status="default" text={row.hangupCauseName || '未接通'} />
      ),
  },
  { title: '录音', dataIndex: 'recordFile', width: 300, render: (v: string, row) => <RecordingPlayer src={v} name={row.uuid} /> },
];

/** /seats/Index: the agent's calling day at a glance, calls per hour and the latest calls. */
export const SeatsPage = () => {
  const { data, isLoading } = useSeatsStat();
  const { sip, registerStatus, phoneState } = useExtension();
  const option = useMemo(() => (data ? hourChart(data.perHour) : null), [data]);
  const t = data?.today;

  return (
    <Row gutter={[16, 16]}>
      <Col span={24}>
        <Card
          title="今日通话"
          extra={
            <Typography.Text type="secondary">
              {sip ? `分机 ${sip.user} · ${extensionDisplay(registerStatus, phoneState)}` : '暂无默认分机'}
              <Button type="primary" icon={<PhoneOutlined />} style={{ marginLeft: 12 }} onClick={onCallButton}>
                拨号
              </Button>
            </Typography.Text>
          }
        >
          {isLoading || !t ? (
            <Skeleton active paragraph={{ rows: 2 }} />
          ) : (
            <Row gutter={16}>
              <Col xs={12} md={4}>
                <Statistic title="呼叫次数" value={t.calls} />
              </Col>
              <Col xs={12} md={4}>
                <Statistic title="接通次数" value={t.connected} />
              </Col>
              <Col xs={12} md={4}>
                <Statistic title="接通率" value={t.connectRate} precision={1} suffix="%" />
              </Col>
              <Col xs={12} md={4}>
                <Statistic title="通话总时长" value={billsecText(t.totalBillsec)} />
              </Col>
              <Col xs={12} md={4}>
                <Statistic title="平均通话时长" value={billsecText(t.avgBillsec)} />
              </Col>
              <Col xs={12} md={4}>
                <Statistic title="呼入次数" value={t.inbound} />
              </Col>
            </Row>
          )}
        </Card>
      </Col>
      <Col span={24}>
        <TaskWorkPanel />
      </Col>
      <Col span={24}>
        <Card
          title="今日分时呼叫"
          extra={
            <>
              <Badge color="#1677ff" text="呼叫" style={{ marginRight: 12 }} />
              <Badge color="#52c41a" text="接通" />
            </>
          }
        >
          {option ? <EChart option={option} height={260} /> : <Skeleton active />}
        </Card>
      </Col>
      <Col span={24}>
        <Card title="最近通话" extra={<Link to="/call/record">全部通话记录</Link>}>
          <Table<CallRecordRow>
            rowKey="uuid"
            size="small"
            loading={isLoading}
            columns={columns}
            dataSource={data?.latest}
            pagination={false}
            scroll={{ x: 900 }}
            locale={{ emptyText: <Empty description="今天还没有通话，点击右下角的电话按钮开始拨号" /> }}
          />
        </Card>
      </Col>
    </Row>
  );
};
