import type { AireceptionSetting } from '@crm/contracts';
import { App, Form, Input, Modal, Select, Typography } from 'antd';
import { useButtonLock } from '../../../components/useButtonLock';
import { useReceptionSimCall } from '../api';

/**
 * The simulated callers of the sim line: the second-to-last digit of the caller's number picks what
 * he says after each of the bot's prompts (the server's sim-script.ts).
 */
const CALLERS = [
  { script: 0, label: '有意向的客户', says: '“有兴趣” → “多少钱” → “好的”' },
  { script: 1, label: '拒绝的客户', says: '“不需要”' },
  { script: 2, label: '不说话的客户', says: '一直沉默' },
  { script: 3, label: '按键的客户', says: '按 1' },
  { script: 4, label: '答非所问的客户', says: '“今天天气不错” → “可以”' },
  { script: 5, label: '要留言的客户', says: '“有兴趣” → “好的” → 等待 → “请明天上午给我回电话”' },
];

/** 138001300X1: the script digit X sits second to last. */
export const simCallerNumber = (script: number) => `138001300${script}1`;

type Values = { callerNumber: string };

type Props = { setting: AireceptionSetting | null; onClose: () => void };

/** 模拟来电 (sim line only): pick a simulated caller (or type a number) and ring the reception number. */
export const SimCallModal = ({ setting, onClose }: Props) => {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const simCall = useReceptionSimCall();
  const [submit, isLocked] = useButtonLock(async () => {
    if (!setting) return;
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      await simCall.mutateAsync({ id: setting.id, callerNumber: values.callerNumber.trim() });
    } catch {
      return;
    }
    message.success('来电已发起，通话结束后可在接待记录中查看');
    onClose();
  });
  return (
    <Modal
      title={`模拟来电 · ${setting?.number ?? ''}`}
      open={setting !== null}
      onCancel={onClose}
      onOk={() => submit()}
      confirmLoading={isLocked}
      okText="呼叫"
      cancelText="取消"
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        仅模拟线路可用。模拟客户拨打该接待号码，机器人按话术「{setting?.flowName}
        」接待；通话结束后出现在接待记录中，可查看对话和录音。
      </Typography.Paragraph>
      <Form form={form} preserve={false} labelCol={{ span: 5 }} initialValues={{ callerNumber: simCallerNumber(0) }}>
        <Form.Item label="模拟客户">
          <Select
            aria-label="模拟客户"
            defaultValue={0}
            options={CALLERS.map((c) => ({ value: c.script, label: `${c.label}：${c.says}` }))}
            onChange={(script: number) => form.setFieldsValue({ callerNumber: simCallerNumber(script) })}
          />
        </Form.Item>
        <Form.Item
          name="callerNumber"
          label="来电号码"
          rules={[
            { required: true, message: '请输入来电号码' },
            { pattern: /^\s*\d{4,20}\s*$/, message: '请正确输入来电号码' },
          ]}
          extra="号码的倒数第二位决定模拟客户怎么说；客户库中的号码会显示该客户"
        >
          <Input maxLength={20} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
