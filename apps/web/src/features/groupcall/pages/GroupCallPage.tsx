import { CALLTASK_STATUS, CALLTASK_STATUS_LABEL, type GroupcallRow } from '@crm/contracts';
import { App, Button, Card, Drawer, Flex, Space, Table, type TableColumnsType, Tag } from 'antd';
import { useState } from 'react';
import { useTablePaging } from '../../../components/useTablePaging';
import { useSession } from '../../../stores/session';
import { type GroupAction, useBoardFrames, useGroupAction, useGroupTasks } from '../api';
import { GroupBoard } from '../components/GroupBoard';
import { GroupTaskFormModal } from '../components/GroupTaskFormModal';

const STATUS_COLOR: Record<number, string> = { 0: 'default', 1: 'green', 2: 'orange', 3: 'red', 4: 'blue' };
const { draft, running, paused } = CALLTASK_STATUS;

/** The lifecycle buttons a task in this state offers its manager. */
const movesOf = (status: number): { action: GroupAction; label: string }[] => {
  if (status === draft) return [{ action: 'start', label: '开始' }];
  if (status === running)
    return [
      { action: 'pause', label: '暂停' },
      { action: 'stop', label: '停止' },
    ];
  if (status === paused)
    return [
      { action: 'resume', label: '继续' },
      { action: 'stop', label: '停止' },
    ];
  return [];
};

const LABELS: Record<GroupAction, string> = {
  start: '任务已开始',
  pause: '任务已暂停',
  resume: '任务已继续',
  stop: '任务已停止',
  work: '已开始工作',
  unwork: '已停止工作',
};

/** 群呼任务 (人工群呼, issue 15): group tasks with their counters, create, and a live board per task. */
export const GroupCallPage = () => {
  const { message } = App.useApp();
  const staffId = useSession((s) => s.userInfo?.cmSid ?? 0);
  const { page, limit, pagination } = useTablePaging();
  const tasks = useGroupTasks({ page, limit });
  const action = useGroupAction();
  const [isCreating, setCreating] = useState(false);
  const [boardId, setBoardId] = useState<number | null>(null);
  useBoardFrames();
  const run = async (a: GroupAction, cmStid: number) => {
    await action.mutateAsync({ action: a, cmStid });
    message.success(LABELS[a]);
  };
  const columns: TableColumnsType<GroupcallRow> = [
    { title: '任务名称', dataIndex: 'name' },
    {
      title: '状态',
      dataIndex: 'status',
      render: (s: number) => <Tag color={STATUS_COLOR[s]}>{CALLTASK_STATUS_LABEL[s]}</Tag>,
    },
    { title: '号码数', dataIndex: 'totalNum' },
    { title: '剩余', dataIndex: 'leftNum' },
    { title: '已拨打', dataIndex: 'zcallNum' },
    { title: '已接通', dataIndex: 'answered' },
    { title: '转坐席', dataIndex: 'connected' },
    {
      title: '放弃率',
      key: 'abandon',
      render: (_: unknown, r) => {
        const rate = r.answered > 0 ? Math.round((r.abandoned * 1000) / r.answered) / 10 : 0;
        return <span style={rate * 10 > r.abandonTarget ? { color: '#cf1322' } : undefined}>{rate}%</span>;
      },
    },
    { title: '线路上限', dataIndex: 'maxLines' },
    { title: '坐席', key: 'agents', render: (_: unknown, r) => r.cmSidInfo.map((a) => a.name).join('、') },
    { title: '创建人', dataIndex: 'createName' },
    { title: '创建时间', dataIndex: 'createTime' },
    {
      title: '操作',
      key: 'op',
      render: (_: unknown, r) => (
        <Space>
          <Button type="link" size="small" onClick={() => setBoardId(r.cmStid)}>
            看板
          </Button>
          {r.createCmSid === staffId || r.cmSidInfo.every((a) => a.cmSid !== staffId)
            ? movesOf(r.status).map((m) => (
                <Button
                  key={m.action}
                  type="link"
                  size="small"
                  onClick={() => void run(m.action, r.cmStid).catch(() => undefined)}
                >
                  {m.label}
                </Button>
              ))
            : null}
        </Space>
      ),
    },
  ];
  return (
    <Card
      title="群呼任务"
      extra={
        <Button type="primary" onClick={() => setCreating(true)}>
          新建群呼任务
        </Button>
      }
    >
      <Table
        rowKey="cmStid"
        size="middle"
        loading={tasks.isLoading}
        columns={columns}
        dataSource={tasks.data?.list ?? []}
        pagination={pagination(tasks.data?.count ?? 0)}
        scroll={{ x: 'max-content' }}
      />
      <GroupTaskFormModal open={isCreating} onClose={() => setCreating(false)} />
      <Drawer
        open={boardId !== null}
        width={960}
        title={`群呼看板 · ${tasks.data?.list.find((t) => t.cmStid === boardId)?.name ?? ''}`}
        onClose={() => setBoardId(null)}
        destroyOnHidden
      >
        {boardId !== null && (
          <Flex vertical>
            <GroupBoard
              cmStid={boardId}
              staffId={staffId}
              isPending={action.isPending}
              onAction={(a) => void run(a, boardId).catch(() => undefined)}
            />
          </Flex>
        )}
      </Drawer>
    </Card>
  );
};
