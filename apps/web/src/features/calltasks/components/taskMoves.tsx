import { CALLTASK_STATUS } from '@crm/contracts';
import { App, Button, Popconfirm, Space } from 'antd';

const { draft, running, paused, stopped, completed } = CALLTASK_STATUS;

export type TaskMove = 'start' | 'pause' | 'resume' | 'stop';

/** What a move's button, its confirmation and its success toast say. */
export type MoveText = { label: string; title: string; content: string; done: string };
export type MoveTexts = Record<TaskMove, MoveText>;

/** The moves a task in each state offers (the server enforces the same machine). */
export const MOVES_OF: Record<number, TaskMove[]> = {
  [draft]: ['start', 'stop'],
  [running]: ['pause', 'stop'],
  [paused]: ['resume', 'stop'],
  [stopped]: [],
  [completed]: [],
};

/** The stop text every task kind shares: the one move that cannot be taken back. */
export const STOP_TEXT: MoveText = {
  label: '停止',
  title: '停止任务',
  content: '停止后任务不能再开始，剩余号码不再拨打。确定停止？',
  done: '任务已停止',
};

type TaskRef = { cmStid: number; name: string };

/**
 * Asks before a task moves (停止 in red), runs it, and says it is done; a refused move leaves the
 * server's message (shown by the http layer) and no success toast.
 */
export const useTaskMoveConfirm = (texts: MoveTexts, run: (cmStid: number, move: TaskMove) => Promise<unknown>) => {
  const { message, modal } = App.useApp();
  return (task: TaskRef, move: TaskMove) => {
    const t = texts[move];
    modal.confirm({
      title: `${t.title}「${task.name}」`,
      content: t.content,
      okText: t.label,
      cancelText: '取消',
      okButtonProps: { danger: move === 'stop' },
      onOk: async () => {
        try {
          await run(task.cmStid, move);
        } catch {
          return;
        }
        message.success(t.done);
      },
    });
  };
};

type ActionsProps = {
  status: number;
  texts: MoveTexts;
  onDetail: () => void;
  /** the first link's text */
  detailLabel?: string;
  /** false: only 详情 (the caller works the task but does not manage it) */
  canManage?: boolean;
  onMove: (move: TaskMove) => void;
  /** shown while the task is a draft or paused */
  onEdit?: () => void;
  /** shown while the task is not running, behind a confirmation; a refusal keeps its server message */
  onDelete?: () => Promise<unknown>;
};

/** A task row's 详情 / moves / 编辑 / 删除 links. */
export const TaskRowActions = ({
  status,
  texts,
  onDetail,
  detailLabel = '详情',
  canManage = true,
  onMove,
  onEdit,
  onDelete,
}: ActionsProps) => {
  const { message } = App.useApp();
  const remove = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch {
      return;
    }
    message.success('删除成功');
  };
  return (
    <Space size={0} wrap={false}>
      <Button type="link" size="small" onClick={onDetail}>
        {detailLabel}
      </Button>
      {canManage &&
        MOVES_OF[status]?.map((m) => (
          <Button key={m} type="link" size="small" danger={m === 'stop'} onClick={() => onMove(m)}>
            {texts[m].label}
          </Button>
        ))}
      {canManage && onEdit && (status === draft || status === paused) && (
        <Button type="link" size="small" onClick={onEdit}>
          编辑
        </Button>
      )}
      {canManage && onDelete && status !== running && (
        <Popconfirm
          title="删除任务"
          description="删除后任务和统计不再显示，确定删除？"
          okText="删除"
          cancelText="取消"
          okButtonProps={{ danger: true }}
          onConfirm={() => remove(onDelete)}
        >
          <Button type="link" size="small" danger>
            删除
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
};
