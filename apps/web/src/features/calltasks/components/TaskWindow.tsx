import { ClockCircleOutlined } from '@ant-design/icons';
import { CALLTASK_STATUS, type TaskWait } from '@crm/contracts';
import { Tooltip, Typography } from 'antd';
import { TaskStatusTag } from './TaskStatusTag';

// A task's calling window in words (the create/edit forms), and why a running task waits with when
// it dials next (issue 23: the server's `wait` of the task row, shown in the lists, the seats
// workbench and the AI task drawer).

const DAY = ['', '周一', '周二', '周三', '周四', '周五', '周六', '周日'];

/** 每天, 周一至周五, 周六、周日, 周一、周三 … */
export const weeksText = (weeks: number[]): string => {
  const days = [...new Set(weeks)].filter((d) => d >= 1 && d <= 7).sort((a, b) => a - b);
  if (days.length === 0) return '未选外呼日期';
  if (days.length === 7) return '每天';
  const isRun = days.length >= 3 && days.every((d, i) => i === 0 || d === days[i - 1] + 1);
  return isRun ? `${DAY[days[0]]}至${DAY[days[days.length - 1]]}` : days.map((d) => DAY[d]).join('、');
};

/** 周一至周五 09:00–12:00、14:00–18:00 */
export const windowText = (weeks: number[], times: { start: string; end: string }[]): string =>
  `${weeksText(weeks)} ${times.length > 0 ? times.map((r) => `${r.start}–${r.end}`).join('、') : '未设外呼时段'}`;

/** The window the task will dial in, with the company's hours, as one line under or beside the form. */
export const TaskWindowSummary = ({
  weeks,
  times,
  hours,
}: {
  weeks: number[];
  times: { start: string; end: string }[];
  hours?: { from: string; to: string };
}) => (
  <Typography.Text type="secondary" data-testid="task-window-summary" style={{ fontSize: 12 }}>
    <ClockCircleOutlined /> 只在 {windowText(weeks, times)} 自动拨号
    {hours ? `（且在公司外呼时段 ${hours.from}–${hours.to} 内，北京时间）` : '（北京时间）'}
  </Typography.Text>
);

/**
 * The wait of a task as shown: only while it runs (a progress frame may have paused or stopped it
 * since the row was read; the next read brings the server's answer).
 */
export const shownWait = (task: { status: number; wait: TaskWait | null }): TaskWait | null =>
  task.status === CALLTASK_STATUS.running ? task.wait : null;

const SHORT: Record<TaskWait['reason'], string> = {
  window: '不在外呼时段',
  hours: '不在公司外呼时段',
  numbers: '号码等待重拨',
  never: '时段不重叠',
};

/** The list's narrow form: the reason and 下次 周一 09:00 on two short lines, the full text on hover. */
export const TaskWaitBrief = ({ task }: { task: { status: number; wait: TaskWait | null } }) => {
  const wait = shownWait(task);
  if (!wait) return null;
  const when = wait.text.split('下次拨号 ')[1];
  return (
    <Tooltip title={wait.text}>
      <Typography.Text
        type={wait.reason === 'never' ? 'danger' : 'warning'}
        data-testid="task-wait"
        aria-label={wait.text}
        style={{ fontSize: 12, display: 'block', lineHeight: '16px', marginTop: 4, whiteSpace: 'normal' }}
      >
        {SHORT[wait.reason]}
        {when ? <div>下次 {when}</div> : null}
      </Typography.Text>
    </Tooltip>
  );
};

/** The task lists' 状态 column (坐席任务, 人工群呼, AI外呼任务): the status tag and, while it waits, why. */
export const taskStatusColumn = <T extends { status: number; wait: TaskWait | null }>() => ({
  title: '状态',
  dataIndex: 'status',
  width: 112,
  render: (status: number, task: T) => (
    <>
      <TaskStatusTag status={status} />
      <TaskWaitBrief task={task} />
    </>
  ),
});
