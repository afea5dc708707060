import { App, Form, Modal, Radio, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useButtonLock } from '../../../components/useButtonLock';
import { type TaskKind, useAddToTask, useTaskOptions } from '../api';

const KINDS: { value: TaskKind; label: string }[] = [
  { value: 'seat', label: '坐席任务' },
  { value: 'group', label: '群呼任务' },
  { value: 'ai', label: 'AI外呼任务' },
];

type Props = { open: boolean; ids: number[]; onClose: () => void; onDone?: () => void };

/** 加入任务: the chosen leads' numbers go into a seat task, a group call or an AI task. */
export const AddToTaskModal = ({ open, ids, onClose, onDone }: Props) => {
  const { message } = App.useApp();
  const [kind, setKind] = useState<TaskKind>('seat');
  const [typed, setTyped] = useState('');
  const [taskId, setTaskId] = useState<number | undefined>();
  const tasks = useTaskOptions(kind, typed.trim(), open);
  const add = useAddToTask();
  useEffect(() => {
    if (!open) {
      setKind('seat');
      setTaskId(undefined);
      setTyped('');
    }
  }, [open]);

  const [submit, isLocked] = useButtonLock(async () => {
    if (!taskId) return void message.warning('请选择任务');
    try {
      const r = await add.mutateAsync({ ids, taskKind: kind, taskId });
      const notes = [r.noPhone > 0 ? `${r.noPhone} 家没有电话` : '', r.skipped > 0 ? `${r.skipped} 个号码已在任务中或被拦截` : '']
        .filter(Boolean)
        .join('，');
      message.success(`已加入 ${r.added} 个号码${notes ? `（${notes}）` : ''}`);
      onDone?.();
      onClose();
    } catch {
      // the http client has shown the server's message
    }
  });

  return (
    <Modal
      title="加入任务"
      open={open}
      onCancel={onClose}
      onOk={submit}
      okText="加入"
      okButtonProps={{ loading: add.isPending, disabled: isLocked }}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={`已选择 ${ids.length} 家企业，加入到`}>
          <Radio.Group
            optionType="button"
            value={kind}
            onChange={(e) => {
              setKind(e.target.value);
              setTaskId(undefined);
            }}
            options={KINDS}
          />
        </Form.Item>
        <Form.Item label="任务" required>
          <Select
            showSearch={{ filterOption: false, onSearch: setTyped }}
            placeholder="请选择任务"
            loading={tasks.isFetching}
            notFoundContent={tasks.isFetching ? '搜索中…' : '暂无任务'}
            value={taskId}
            onChange={setTaskId}
            options={(tasks.data ?? []).map((t) => ({ value: t.cmStid, label: `${t.name}（${t.statusName}）` }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
};
