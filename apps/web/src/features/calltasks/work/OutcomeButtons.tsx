import { TASK_OUTCOME, TASK_OUTCOME_LABEL } from '@crm/contracts';
import { App, Button, Flex, Space, Typography } from 'antd';
import { http } from '../../../api/http';
import { useOutcome } from './workApi';
import { type TaskCall, useTaskWork } from './workStore';

const BUTTONS = [
  { outcome: TASK_OUTCOME.connected, text: '已接通' },
  { outcome: TASK_OUTCOME.refused, text: '拒绝' },
  { outcome: TASK_OUTCOME.invalid, text: '空号停机' },
  { outcome: TASK_OUTCOME.later, text: '稍后再拨' },
] as const;

/**
 * The agent's result of his current or last task call (issue 15): it decides what the task does
 * with the number (拒绝 puts it on the company's 禁拨 list, 空号停机 is never dialled again,
 * 稍后再拨 comes back after the task's redial minutes).
 */
type Props = {
  call: TaskCall;
  /** the agent works the task now: the server would dial his next number behind the 拒绝 confirmation */
  isWorking?: boolean;
  /** the task's wrap-up after a call, kept when the next dial resumes */
  wrapUpSeconds?: number;
};

/** Who the 拒绝 confirmation is about: the number as the agent saw it, and the customer. */
export const refusalText = (call: Pick<TaskCall, 'phone' | 'name'>) =>
  `号码 ${call.phone || '-'}（${call.name || '暂无客户信息'}）将加入禁拨名单，在禁拨期内任何任务和手动外呼都不会再拨打。`;

export const OutcomeButtons = ({ call, isWorking = false, wrapUpSeconds = 0 }: Props) => {
  const { modal, message } = App.useApp();
  const outcome = useOutcome();
  const setOutcome = useTaskWork((s) => s.setOutcome);

  const save = (value: number) =>
    outcome.mutate(
      { cmStid: call.cmStid, uuid: call.uuid, outcome: value as 1 | 2 | 3 | 4 },
      {
        onSuccess: () => {
          setOutcome(call.uuid, value);
          message.success(`已标记为${TASK_OUTCOME_LABEL[value]}`);
        },
      },
    );

  const choose = (value: number) => {
    if (value !== TASK_OUTCOME.refused) {
      save(value);
      return;
    }
    // The next number is not dialled while he reads which number he rejects: his work is held (the
    // server dials only agents at work) and resumes when he answers, after what is left of his wrap-up.
    const hold = isWorking
      ? http.post<null>('/api/frontend/calltask/unwork', { cmStid: call.cmStid }, { silent: true }).then(
          () => true,
          () => false,
        )
      : Promise.resolve(false);
    const resume = async () => {
      if (!(await hold)) return;
      const wrapUpLeft = call.endedAt === null ? 0 : call.endedAt + wrapUpSeconds * 1000 - Date.now();
      const work = () =>
        http.post<{ isDialled: number }>('/api/frontend/calltask/work', { cmStid: call.cmStid }).catch(() => undefined);
      if (wrapUpLeft > 0) window.setTimeout(work, wrapUpLeft);
      else await work();
    };
    modal.confirm({
      title: `客户拒绝：${call.phone || '-'}`,
      content: (
        <>
          <Typography.Paragraph style={{ marginBottom: 8 }}>{refusalText(call)}</Typography.Paragraph>
          {isWorking && <Typography.Text type="secondary">确认或取消之前不会拨打下一个号码。</Typography.Text>}
        </>
      ),
      okText: '加入禁拨名单',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => {
        save(value);
        void resume();
      },
      onCancel: () => void resume(),
    });
  };

  return (
    <Flex align="center" gap={12} wrap data-testid="task-outcome">
      <Typography.Text type="secondary">
        {call.endedAt === null ? '本次通话' : '上一通电话'}：{call.phone || '-'} · {call.name || '暂无客户信息'}
      </Typography.Text>
      <Space size={8} wrap>
        {BUTTONS.map((b) => (
          <Button
            key={b.outcome}
            size="small"
            autoInsertSpace={false}
            type={call.outcome === b.outcome ? 'primary' : 'default'}
            danger={b.outcome === TASK_OUTCOME.refused}
            loading={outcome.isPending && outcome.variables?.outcome === b.outcome}
            disabled={outcome.isPending}
            onClick={() => choose(b.outcome)}
          >
            {b.text}
          </Button>
        ))}
      </Space>
    </Flex>
  );
};
