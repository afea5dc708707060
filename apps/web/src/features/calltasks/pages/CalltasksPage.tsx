import { CALLTASK_STATUS, type CalltaskRow } from '@crm/contracts';
import { Progress, type TableColumnsType, Tooltip, Typography } from 'antd';
import { useCalltaskList, useDeleteCalltask, useMoveCalltask } from '../api';
import { TaskDetailDrawer } from '../components/TaskDetailDrawer';
import { TaskFormModal } from '../components/TaskFormModal';
import { TaskListCard } from '../components/TaskListCard';
import { useTaskListFilters } from '../components/TaskListToolbar';
import { taskStatusColumn } from '../components/TaskWindow';
import { formatBillsec, progressPercent } from '../components/taskForm';
import { type MoveTexts, STOP_TEXT } from '../components/taskMoves';
import { useTaskProgress } from '../components/useTaskProgress';

const MOVE_TEXT: MoveTexts = {
  start: { label: '开始', title: '开始任务', content: '开始后，坐席开始工作即自动拨打任务号码。', done: '任务已开始' },
  pause: { label: '暂停', title: '暂停任务', content: '暂停后不再拨打新的号码，进行中的通话不受影响。', done: '任务已暂停' },
  resume: { label: '继续', title: '继续任务', content: '继续后，工作中的坐席将接着拨打剩余号码。', done: '任务已继续' },
  stop: STOP_TEXT,
};

/** The columns between 任务名称 and 操作. */
const COLUMNS: TableColumnsType<CalltaskRow> = [
  taskStatusColumn(),
  {
    // progress and the counts in one column: at 1366 px the table fits without scrolling sideways
    title: '进度',
    key: 'progress',
    width: 200,
    render: (_, r) => (
      <div data-testid={`calltask-progress-${r.cmStid}`}>
        <Progress percent={progressPercent(r)} size="small" status={r.status === CALLTASK_STATUS.running ? 'active' : 'normal'} />
        <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block', lineHeight: 1.5 }}>
          已呼 {r.zcallNum} / 共 {r.totalNum} · 接通 {r.zcallCnum}
          <br />
          未接通 {r.zcallWnum} · <Tooltip title="导入时或拨打时命中黑名单、禁拨名单而跳过的号码">黑名单 {r.zcallBnum}</Tooltip>
        </Typography.Text>
      </div>
    ),
  },
  {
    title: '坐席',
    dataIndex: 'cmSidInfo',
    width: 120,
    ellipsis: { showTitle: false },
    render: (v: CalltaskRow['cmSidInfo']) => {
      const text = v.map((a) => a.name).join('、');
      return (
        <Tooltip title={text} placement="topLeft">
          {text || '-'}
        </Tooltip>
      );
    },
  },
  { title: '通话时长', dataIndex: 'zcallBillsec', width: 90, render: (v: number) => formatBillsec(v) },
  { title: '创建时间', dataIndex: 'createTime', width: 160 },
];

const TaskForm = ({ row, onClose }: { row: CalltaskRow | null; onClose: () => void }) => (
  <TaskFormModal isOpen row={row} onClose={onClose} />
);

/** /calltask/tasklist 坐席任务 (issue 15): the managers' list of seat tasks, live over the socket. */
export const CalltasksPage = () => {
  const filters = useTaskListFilters();
  const list = useCalltaskList(filters.query);
  const move = useMoveCalltask();
  const remove = useDeleteCalltask();
  useTaskProgress();
  return (
    <TaskListCard<CalltaskRow>
      title="坐席任务"
      emptyText="暂无坐席任务，点击「新建任务」创建"
      filters={filters}
      list={list}
      moveTexts={MOVE_TEXT}
      move={(cmStid, m) => move.mutateAsync({ cmStid, move: m })}
      remove={(cmStid) => remove.mutateAsync({ cmStid, confirm: 1 })}
      columns={COLUMNS}
      // 详情 继续 停止 编辑 删除 (a paused task) in one line
      actionsWidth={240}
      Detail={TaskDetailDrawer}
      Form={TaskForm}
    />
  );
};
