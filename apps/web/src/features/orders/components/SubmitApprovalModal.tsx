import { App, Form, Modal } from 'antd';
import { fetchTemplateInfo, startApproval } from '../../approvals/api';
import { ApprovalSection, type ApprovalSectionValues, approvalBody } from '../../approvals/components/ApprovalSection';
import { useInvalidateOrders } from '../api';

type Props = { open: boolean; orderId: number; onClose: () => void };

/** 提交审批 of an order left 待提交 (its approval failed to start), 已驳回 or 已撤回 (SPEC §4 step 2 again). */
export const SubmitApprovalModal = ({ open, orderId, onClose }: Props) => {
  const [form] = Form.useForm<ApprovalSectionValues>();
  const { message } = App.useApp();
  const invalidate = useInvalidateOrders();
  const submit = async () => {
    const values = await form.validateFields();
    try {
      const template = await fetchTemplateInfo(values.coMatid as number);
      await startApproval(approvalBody(template, values, orderId));
    } catch (err) {
      message.error((err as Error).message || '审批提交失败');
      return;
    }
    await invalidate();
    message.success('提交成功');
    onClose();
  };
  return (
    <Modal title="提交审批" open={open} width={640} onCancel={onClose} onOk={submit} okText="提交" destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false}>
        <ApprovalSection />
      </Form>
    </Modal>
  );
};
