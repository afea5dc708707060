import { TASK_OUTCOME, TASK_OUTCOME_LABEL } from '@crm/contracts';
import { App, Button, Flex, Space, Typography } from 'antd';
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
export const OutcomeButtons = ({ call }: { call: TaskCall }) => {
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
    modal.confirm({
      title: '客户拒绝',
      content: '标记为拒绝后，该号码将加入禁拨名单，在禁拨期内任何任务和手动外呼都不会再拨打。确定吗？',
      okText: '加入禁拨名单',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => save(value),
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
