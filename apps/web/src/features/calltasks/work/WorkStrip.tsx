import { CALLTASK_STATUS, type CalltaskRow } from '@crm/contracts';
import { Alert, Button, Flex, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useCall } from '../../../phone/phoneStore';
import { shownWait } from '../components/TaskWindow';
import { OutcomeButtons } from './OutcomeButtons';
import { phaseText, workPhase } from './workPhase';
import { useTaskWork } from './workStore';

type Props = {
  task: CalltaskRow;
  isBusy: boolean;
  onStop: () => void;
  onNext: () => void;
  onClose: () => void;
};

/** The task being worked: where the agent is (呼叫中 / 通话中 / 整理中 N 秒), what is left, and the last call's outcome. */
export const WorkStrip = ({ task, isBusy, onStop, onNext, onClose }: Props) => {
  const callStatus = useCall((s) => s.callStatus);
  const callTaskId = useCall((s) => s.call?.cmStid ?? 0);
  const lastCall = useTaskWork((s) => s.lastCall);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(id);
  }, []);

  const call = lastCall?.cmStid === task.cmStid ? lastCall : null;
  const isWorking = task.status === CALLTASK_STATUS.running;
  const outcome = call && <OutcomeButtons call={call} isWorking={isWorking} wrapUpSeconds={task.wrapUpSeconds} />;
  if (task.status === CALLTASK_STATUS.completed || task.status === CALLTASK_STATUS.stopped) {
    const isDone = task.status === CALLTASK_STATUS.completed;
    return (
      <Alert
        type={isDone ? 'success' : 'warning'}
        showIcon
        data-testid="task-work-strip"
        message={`${isDone ? '任务已完成' : '任务已停止'}：${task.name} · 已呼 ${task.zcallNum} 个 · 接通 ${task.zcallCnum} 个`}
        description={outcome}
        action={
          <Button size="small" onClick={onClose}>
            关闭
          </Button>
        }
      />
    );
  }

  const phase = workPhase(task.cmStid, { callStatus, callTaskId }, call, task.wrapUpSeconds, now);
  const isPaused = task.status === CALLTASK_STATUS.paused;
  // outside the task's window or the company's hours the server says why it waits and until when
  const wait = phase.kind === 'waiting' ? shownWait(task) : null;
  return (
    <Alert
      type={isPaused || wait ? 'warning' : 'info'}
      showIcon
      data-testid="task-work-strip"
      message={
        isPaused
          ? `任务已暂停：${task.name} · 继续后自动拨打 · 剩余 ${task.leftNum} 个`
          : `工作中：${task.name} · ${wait ? wait.text : phaseText(phase)} · 剩余 ${task.leftNum} 个`
      }
      description={outcome}
      action={
        <Flex vertical gap={8}>
          <Space>
            {phase.kind === 'wrapUp' && !isPaused && (
              <Button size="small" type="primary" disabled={isBusy} onClick={onNext}>
                立即下一个
              </Button>
            )}
            <Button size="small" danger disabled={isBusy} onClick={onStop}>
              停止工作
            </Button>
          </Space>
        </Flex>
      }
    />
  );
};
