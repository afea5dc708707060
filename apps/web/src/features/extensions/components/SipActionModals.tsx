import type { SipAdminInfo } from '@crm/contracts';
import { App, Form, Input, InputNumber, Modal, Typography } from 'antd';
import { FormModal } from '../../../components/FormModal';
import { RemoteSelect } from '../../../components/SearchBar/RemoteSelect';
import type { SearchOption } from '../../../components/SearchBar/types';
import { useButtonLock } from '../../../components/useButtonLock';
import { fetchStaffOptions } from '../../customers/api';
import { useBindStaff, useSimIncoming } from '../api';

type Props = { sip: SipAdminInfo | null; onClose: () => void };

const staffOptions = async (keyword: string): Promise<SearchOption[]> =>
  (await fetchStaffOptions(keyword)).map((s) => ({ value: s.staff_id, label: s.linkman }));

/** 绑定员工: one staff per extension; clearing the choice unbinds. */
export const BindStaffModal = ({ sip, onClose }: Props) => {
  const [form] = Form.useForm<{ cmSid?: number }>();
  const bind = useBindStaff();
  return (
    <FormModal
      open={sip !== null}
      title={`绑定员工 · 分机 ${sip?.user ?? ''}`}
      name="bindStaffForm"
      form={form}
      layout="horizontal"
      okText="保存"
      initialValues={{ cmSid: sip?.cmSid || undefined }}
      isPending={bind.isPending}
      onSubmit={async ({ cmSid }) => {
        if (sip) await bind.mutateAsync({ cmSipid: sip.cmSipid, cmSid: cmSid ?? 0 });
        return '操作成功';
      }}
      onClose={onClose}
    >
      <Form.Item name="cmSid" label="员工" extra={sip?.cmSidName ? `当前绑定：${sip.cmSidName}，清空后保存即解绑` : '未绑定员工'}>
        <RemoteSelect fetchOptions={staffOptions} placeholder="搜索员工姓名" width={320} />
      </Form.Item>
    </FormModal>
  );
};

type SimValues = { callerNumber: string; ringSeconds: number };

/** 模拟来电 (sim line only): a customer's number calls the extension, so incoming calls can be tried out. */
export const SimIncomingModal = ({ sip, onClose }: Props) => {
  const { message } = App.useApp();
  const [form] = Form.useForm<SimValues>();
  const simIncoming = useSimIncoming();
  const [submit, isLocked] = useButtonLock(async () => {
    if (!sip) return;
    let values: SimValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      const r = await simIncoming.mutateAsync({ cmSipid: sip.cmSipid, ...values });
      message.success(r.name ? `已向分机 ${sip.user} 发起模拟来电（客户：${r.name}）` : `已向分机 ${sip.user} 发起模拟来电`);
    } catch {
      return;
    }
    onClose();
  });
  return (
    <Modal
      title={`模拟来电 · 分机 ${sip?.user ?? ''}`}
      open={sip !== null}
      onCancel={onClose}
      onOk={() => submit()}
      confirmLoading={isLocked}
      okText="呼叫"
      cancelText="取消"
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        仅模拟线路可用。分机的员工需在线（非忙线），来电会在其页面响铃，可接听或挂断；无人接听时按响铃时长后自动挂断并计为未接来电。
      </Typography.Paragraph>
      <Form form={form} preserve={false} labelCol={{ span: 5 }} initialValues={{ ringSeconds: 30 }}>
        <Form.Item
          name="callerNumber"
          label="来电号码"
          rules={[
            { required: true, message: '请输入来电号码' },
            { min: 4, max: 20, message: '请正确输入电话号码' },
          ]}
          extra="输入客户的号码时，来电会显示该客户"
        >
          <Input maxLength={20} placeholder="如 13800001111" />
        </Form.Item>
        <Form.Item name="ringSeconds" label="响铃时长">
          <InputNumber min={1} max={120} suffix="秒" style={{ width: 140 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
