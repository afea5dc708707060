import { CALLTASK_STATUS, CALLTASK_STATUS_LABEL, type CalltaskRow } from '@crm/contracts';
import { App, Button, Card, Empty, Flex, Progress, Segmented, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { extensionRefusal } from '../../../phone/dialRules';
import { useCall, useExtension } from '../../../phone/phoneStore';
import { useSession } from '../../../stores/session';
import { TaskWaitBrief } from '../components/TaskWindow';
import { useTaskFrames } from './useTaskFrames';
import { WorkStrip } from './WorkStrip';
import { useMyTasks, useServerWorking, useTaskDetail, useUnwork, useWork } from './workApi';
import { useTaskWork } from './workStore';

const STATUS_COLOR: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'warning', 3: 'default', 4: 'success' };

const progressOf = (t: CalltaskRow) => (t.totalNum > 0 ? Math.round(((t.totalNum - t.leftNum) / t.totalNum) * 100) : 0);

/**
 * 我的任务 on the seats workbench (issue 15): the seat tasks the agent works, their progress, and
 * 开始工作 / 停止工作 (one task at a time). While he works, the server dials his next number as
 * soon as he is free and his wrap-up is over; the in-call modal pops for each call.
 */
export const TaskWorkPanel = () => {
  const { message } = App.useApp();
  const staffId = useSession((s) => s.userInfo?.cmSid ?? 0);
  const [filter, setFilter] = useState<'running' | 'all'>('running');
  const tasks = useMyTasks(filter === 'running' ? CALLTASK_STATUS.running : undefined);
  const { workingId, setWorking } = useTaskWork();
  const serverWorking = useServerWorking(staffId, workingId === null);
  const detail = useTaskDetail(workingId);
  const work = useWork();
  const unwork = useUnwork();
  const callStatus = useCall((s) => s.callStatus);
  const { sip, registerStatus } = useExtension();
  const merchantType = useSession((s) => s.userInfo?.merchantType ?? 1);
  useTaskFrames();

  // after a reload: the task the server still has him working (read once per visit)
  const isRestored = useRef(false);
  useEffect(() => {
    if (isRestored.current || serverWorking.data === undefined) return;
    isRestored.current = true;
    if (workingId === null && serverWorking.data > 0) setWorking(serverWorking.data);
  }, [workingId, serverWorking.data, setWorking]);

  const start = (row: CalltaskRow) => {
    const refusal = extensionRefusal({ callStatus, merchantType, sip, registerStatus });
    if (refusal) {
      message.warning(refusal);
      return;
    }
    work.mutate(row.cmStid, {
      onSuccess: (r) => {
        setWorking(row.cmStid);
        message.success(r.isDialled ? '已开始工作，正在拨打第一个号码' : '已开始工作，空闲时将自动拨打下一个号码');
      },
    });
  };
  const stop = (cmStid: number) =>
    unwork.mutate(cmStid, {
      onSuccess: () => {
        setWorking(null);
        message.success('已停止工作');
      },
    });
  const next = () =>
    workingId !== null &&
    work.mutate(workingId, {
      onSuccess: (r) => message.info(r.isDialled ? '正在拨打下一个号码' : '上一通电话结算中，稍后自动拨打'),
    });

  const working = detail.data ?? tasks.data?.list.find((t) => t.cmStid === workingId);
  // one task at a time; a completed or stopped one (the server stopped its workers) leaves him free
  const isWorkingActive =
    workingId !== null && working?.status !== CALLTASK_STATUS.completed && working?.status !== CALLTASK_STATUS.stopped;
  const columns: TableColumnsType<CalltaskRow> = [
    { title: '任务名称', dataIndex: 'name', ellipsis: true },
    {
      title: '状态',
      dataIndex: 'status',
      width: 112,
      render: (v: number, t) => (
        <>
          <Tag color={STATUS_COLOR[v]}>{CALLTASK_STATUS_LABEL[v] ?? '-'}</Tag>
          <TaskWaitBrief task={t} />
        </>
      ),
    },
    {
      title: '进度',
      key: 'progress',
      width: 300,
      render: (_, t) => (
        <div data-testid={`task-progress-${t.cmStid}`}>
          <Progress percent={progressOf(t)} size="small" />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            已呼 {t.zcallNum} · 接通 {t.zcallCnum} · 剩余 {t.leftNum} / 共 {t.totalNum}
          </Typography.Text>
        </div>
      ),
    },
    { title: '整理时间', dataIndex: 'wrapUpSeconds', width: 90, render: (v: number) => `${v} 秒` },
    {
      title: '外呼时段',
      dataIndex: 'cmTimes',
      width: 150,
      render: (v: CalltaskRow['cmTimes']) => v.map((r) => `${r.start}-${r.end}`).join('，'),
    },
    {
      title: '操作',
      key: 'op',
      width: 110,
      render: (_, t) =>
        workingId === t.cmStid && (t.status === CALLTASK_STATUS.running || t.status === CALLTASK_STATUS.paused) ? (
          <Button size="small" danger loading={unwork.isPending} onClick={() => stop(t.cmStid)}>
            停止工作
          </Button>
        ) : (
          <Button
            size="small"
            type="primary"
            disabled={t.status !== CALLTASK_STATUS.running || isWorkingActive}
            loading={work.isPending && work.variables === t.cmStid}
            onClick={() => start(t)}
          >
            开始工作
          </Button>
        ),
    },
  ];

  return (
    <Card
      title="我的任务"
      extra={
        <Segmented
          size="small"
          value={filter}
          onChange={(v) => setFilter(v as 'running' | 'all')}
          options={[
            { label: '进行中', value: 'running' },
            { label: '全部', value: 'all' },
          ]}
        />
      }
    >
      <Flex vertical gap={12}>
        {workingId !== null && working && (
          <WorkStrip
            task={working}
            isBusy={work.isPending || unwork.isPending}
            onStop={() => stop(working.cmStid)}
            onNext={next}
            onClose={() => setWorking(null)}
          />
        )}
        <Table<CalltaskRow>
          rowKey="cmStid"
          size="small"
          loading={tasks.isLoading}
          columns={columns}
          dataSource={tasks.data?.list}
          pagination={false}
          scroll={{ x: 900 }}
          locale={{
            emptyText: <Empty description={filter === 'running' ? '暂无进行中的任务' : '暂无分配给你的任务'} />,
          }}
        />
      </Flex>
    </Card>
  );
};
