import { type AicallRow, CALLTASK_STATUS, GRADES } from '@crm/contracts';
import { Progress, Space, type TableColumnsType, Tag, Tooltip, Typography } from 'antd';
import { TaskListCard } from '../../calltasks/components/TaskListCard';
import { useTaskListFilters } from '../../calltasks/components/TaskListToolbar';
import { taskStatusColumn } from '../../calltasks/components/TaskWindow';
import { progressPercent } from '../../calltasks/components/taskForm';
import { type MoveTexts, STOP_TEXT } from '../../calltasks/components/taskMoves';
import { useTaskProgress } from '../../calltasks/components/useTaskProgress';
import { aicallKeys, useAicallList, useDeleteAicall, useMoveAicall } from '../api';
import { AiTaskDrawer } from '../components/AiTaskDrawer';
import { AiTaskFormModal } from '../components/AiTaskFormModal';
import { GRADE_COLOR } from '../components/GradeTag';
import { SpeechAlert } from '../components/SpeechAlert';

const MOVE_TEXT: MoveTexts = {
  start: { label: '开始', title: '开始任务', content: '开始后，机器人在外呼时段内自动拨打任务号码。', done: '任务已开始' },
  pause: { label: '暂停', title: '暂停任务', content: '暂停后不再拨打新的号码，进行中的通话会说完。', done: '任务已暂停' },
  resume: { label: '继续', title: '继续任务', content: '继续后，机器人接着拨打剩余号码。', done: '任务已继续' },
  stop: STOP_TEXT,
};

/** A–E counts as small tags (zeros left out); calls that failed for a system reason apart (异常). */
const GradeSplit = ({ grades }: { grades: AicallRow['grades'] }) => {
  const shown = GRADES.filter((g) => grades[g] > 0);
  if (shown.length === 0 && grades.failed === 0) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    // the 异常 tag takes a second line rather than run into the next column
    <Space size={[2, 4]} wrap>
      {shown.map((g) => (
        <Tooltip key={g} title={`${g}级 ${grades[g]}个`}>
          <Tag color={GRADE_COLOR[g]} style={{ marginInlineEnd: 0, paddingInline: 4 }} data-testid={`grade-${g}`}>
            {g} {grades[g]}
          </Tag>
        </Tooltip>
      ))}
      {grades.failed > 0 && (
        <Tooltip title={`系统异常 ${grades.failed}个（不计入意向等级）`}>
          <Tag color="error" style={{ marginInlineEnd: 0, paddingInline: 4 }} data-testid="grade-failed">
            异常 {grades.failed}
          </Tag>
        </Tooltip>
      )}
    </Space>
  );
};

const connectRate = (r: AicallRow) => (r.zcallNum ? `${((r.zcallCnum / r.zcallNum) * 100).toFixed(1)}%` : '-');

/** The columns between 任务名称 and 操作. */
const COLUMNS: TableColumnsType<AicallRow> = [
  { title: '话术', dataIndex: 'flowName', width: 100, ellipsis: true },
  taskStatusColumn(),
  {
    title: '进度',
    key: 'progress',
    width: 112,
    render: (_, r) => (
      <Tooltip title={`已呼 ${r.zcallNum} / 共 ${r.totalNum}，待拨打 ${r.leftNum}`}>
        <Progress percent={progressPercent(r)} size="small" status={r.status === CALLTASK_STATUS.running ? 'active' : 'normal'} />
      </Tooltip>
    ),
  },
  {
    title: '线路',
    key: 'lines',
    width: 60,
    align: 'right',
    render: (_, r) => (
      <Tooltip title="通话中 / 并发上限">
        <span data-testid="lines">
          {r.linesInUse}/{r.maxLines}
        </span>
      </Tooltip>
    ),
  },
  { title: '意向等级', key: 'grades', width: 140, render: (_, r) => <GradeSplit grades={r.grades} /> },
  { title: '接通率', key: 'rate', width: 70, align: 'right', render: (_, r) => connectRate(r) },
  {
    title: '创建时间',
    dataIndex: 'createTime',
    width: 100,
    render: (v: string) => <Tooltip title={v}>{v.slice(5, 16)}</Tooltip>,
  },
];

/** /aicall/Index AI外呼任务 (issue 16, menu 300): the voice bot's call tasks, live, with their reports. */
export const AicallPage = () => {
  const filters = useTaskListFilters();
  const list = useAicallList(filters.query);
  const move = useMoveAicall();
  const remove = useDeleteAicall();
  useTaskProgress(aicallKeys.manage);
  return (
    <TaskListCard<AicallRow>
      title="AI外呼任务"
      emptyText="暂无AI外呼任务，点击「新建任务」创建"
      filters={filters}
      list={list}
      moveTexts={MOVE_TEXT}
      move={(cmStid, m) => move.mutateAsync({ cmStid, move: m })}
      remove={(cmStid) => remove.mutateAsync({ cmStid, confirm: 1 })}
      columns={COLUMNS}
      actionsWidth={226}
      banner={<SpeechAlert />}
      Detail={AiTaskDrawer}
      Form={AiTaskFormModal}
    />
  );
};
