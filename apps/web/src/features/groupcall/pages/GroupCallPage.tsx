import type { GroupcallRow } from '@crm/contracts';
import { App, Card, Drawer, Empty, Flex, Table, type TableColumnsType, Typography } from 'antd';
import { useState } from 'react';
import { hasPermission, useSession } from '../../../stores/session';
import { TaskListToolbar, useTaskListFilters } from '../../calltasks/components/TaskListToolbar';
import { taskStatusColumn } from '../../calltasks/components/TaskWindow';
import { type MoveTexts, STOP_TEXT, TaskRowActions, useTaskMoveConfirm } from '../../calltasks/components/taskMoves';
import { useBoardFrames, useDeleteGroupTask, useGroupAction, useGroupTasks } from '../api';
import { GroupBoard } from '../components/GroupBoard';
import { GroupTaskFormModal } from '../components/GroupTaskFormModal';
import { useGroupWork } from '../groupWork';

const MOVE_TEXT: MoveTexts = {
  start: {
    label: '开始',
    title: '开始群呼',
    content: '开始后，系统按线路上限同时拨打，客户接听后转给工作中的空闲坐席。',
    done: '任务已开始',
  },
  pause: { label: '暂停', title: '暂停群呼', content: '暂停后不再拨打新的号码，进行中的通话不受影响。', done: '任务已暂停' },
  resume: { label: '继续', title: '继续群呼', content: '继续后，系统接着拨打剩余号码。', done: '任务已继续' },
  stop: STOP_TEXT,
};

const WORK_DONE: Record<'work' | 'unwork', string> = { work: '已开始工作', unwork: '已停止工作' };

/** 群呼任务 (人工群呼, issue 15): group tasks with their counters, create, and a live board per task. */
export const GroupCallPage = () => {
  const { message } = App.useApp();
  const staffId = useSession((s) => s.userInfo?.cmSid ?? 0);
  // group tasks are managed by the roles that manage seat tasks (坐席任务); agents only work them
  const canManageTasks = useSession((s) => hasPermission(s.permissions, '/calltask/tasklist'));
  const filters = useTaskListFilters();
  const tasks = useGroupTasks(filters.query);
  const action = useGroupAction();
  const remove = useDeleteGroupTask();
  const [isCreating, setCreating] = useState(false);
  const [boardId, setBoardId] = useState<number | null>(null);
  const confirmMove = useTaskMoveConfirm(MOVE_TEXT, (cmStid, m) => action.mutateAsync({ action: m, cmStid }));
  useBoardFrames();
  const work = async (a: 'work' | 'unwork', cmStid: number) => {
    await action.mutateAsync({ action: a, cmStid });
    // remembered so that a reconnected call socket joins again (groupWork.ts)
    if (a === 'work') useGroupWork.getState().joined(cmStid);
    else useGroupWork.getState().left(cmStid);
    message.success(WORK_DONE[a]);
  };
  const columns: TableColumnsType<GroupcallRow> = [
    {
      title: '任务名称',
      dataIndex: 'name',
      fixed: 'left',
      width: 150,
      ellipsis: true,
      render: (v: string, r) => <Typography.Link onClick={() => setBoardId(r.cmStid)}>{v}</Typography.Link>,
    },
    taskStatusColumn(),
    {
      // the counts in one column: at 1366 px the table fits without scrolling sideways
      title: '号码',
      key: 'numbers',
      width: 190,
      render: (_: unknown, r) => (
        <Typography.Text style={{ fontSize: 13, lineHeight: 1.5, display: 'block' }}>
          已拨打 {r.zcallNum} / 共 {r.totalNum} · 剩余 {r.leftNum}
          <br />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            已接通 {r.answered} · 转坐席 {r.connected}
          </Typography.Text>
        </Typography.Text>
      ),
    },
    {
      title: '放弃率',
      key: 'abandon',
      width: 64,
      align: 'right',
      render: (_: unknown, r) => {
        const rate = r.answered > 0 ? Math.round((r.abandoned * 1000) / r.answered) / 10 : 0;
        return <span style={rate * 10 > r.abandonTarget ? { color: '#cf1322' } : undefined}>{rate}%</span>;
      },
    },
    { title: '线路上限', dataIndex: 'maxLines', width: 72, align: 'right' },
    {
      title: '坐席',
      key: 'agents',
      width: 110,
      ellipsis: true,
      render: (_: unknown, r) => r.cmSidInfo.map((a) => a.name).join('、') || '-',
    },
    {
      title: '创建',
      key: 'created',
      width: 160,
      render: (_: unknown, r) => (
        <span style={{ fontSize: 13, lineHeight: 1.5 }}>
          {r.createName || '-'}
          <br />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.createTime}
          </Typography.Text>
        </span>
      ),
    },
    {
      title: '操作',
      key: 'op',
      fixed: 'right',
      // 看板 继续 停止 删除 (a paused task) in one line
      width: 200,
      render: (_: unknown, r) => (
        <TaskRowActions
          status={r.status}
          texts={MOVE_TEXT}
          detailLabel="看板"
          onDetail={() => setBoardId(r.cmStid)}
          // an agent of the task who did not create it works it from the board, he does not run it
          canManage={canManageTasks && (r.createCmSid === staffId || r.cmSidInfo.every((a) => a.cmSid !== staffId))}
          onMove={(m) => confirmMove(r, m)}
          onDelete={() => remove.mutateAsync({ cmStid: r.cmStid, confirm: 1 })}
        />
      ),
    },
  ];
  return (
    <Card title="群呼任务">
      <TaskListToolbar
        filters={filters}
        onRefresh={() => tasks.refetch()}
        onCreate={canManageTasks ? () => setCreating(true) : undefined}
      />
      <Table<GroupcallRow>
        rowKey="cmStid"
        size="middle"
        loading={tasks.isLoading}
        columns={columns}
        dataSource={tasks.data?.list ?? []}
        pagination={filters.paging.pagination(tasks.data?.count ?? 0)}
        scroll={{ x: 1060 }}
        locale={{
          emptyText: <Empty description={canManageTasks ? '暂无群呼任务，点击「新建任务」创建' : '暂无您参与的群呼任务'} />,
        }}
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
              onAction={(a) => void work(a, boardId).catch(() => undefined)}
            />
          </Flex>
        )}
      </Drawer>
    </Card>
  );
};
