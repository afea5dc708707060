import { App, Checkbox, Form, Modal } from 'antd';
import { useButtonLock } from '../../../components/useButtonLock';
import { useAllot } from '../api';
import { StaffPicker } from './StaffPicker';

type Props = { open: boolean; cmCtids: number[]; onClose: () => void; onDone?: () => void };
type Values = { cmSid?: number; isNodeId: boolean };

/** allot: the checked customers (private or from a pool) go to one staff member; maxCustomer is respected. */
export const AllotModal = ({ open, cmCtids, onClose, onDone }: Props) => {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const allot = useAllot();
  const [submit] = useButtonLock(async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v?.cmSid) return;
    try {
      const r = await allot.mutateAsync({ cmCtids, cmSid: v.cmSid, isNodeId: v.isNodeId ? 1 : 0 });
      if (r.failed > 0) message.warning(`成功分配${r.count}个，${r.failed}个未分配：${r.reasons.join('；')}`);
      else message.success('分配成功');
    } catch {
      return;
    }
    form.resetFields();
    onDone?.();
    onClose();
  });
  return (
    <Modal
      open={open}
      title={`分配客户（${cmCtids.length}个）`}
      width={600}
      okText="确定"
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      confirmLoading={allot.isPending}
      destroyOnHidden
    >
      <Form form={form} name="allotForm" layout="vertical" initialValues={{ isNodeId: false }}>
        <Form.Item label="负责人" name="cmSid" rules={[{ required: true, message: '请选择负责人' }]}>
          <StaffPicker />
        </Form.Item>
        <Form.Item name="isNodeId" valuePropName="checked" extra="勾选后客户阶段清空，由新负责人重新判断">
          <Checkbox>重置客户阶段</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
};
