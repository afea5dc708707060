import { type ApprovalInstance, ORDER_LIMITS } from '@crm/contracts';
import { App, Checkbox, Form, Input, Modal, Radio } from 'antd';
import type { StaffName } from '../../../components/StaffSearchSelect';
import { StaffSearchSelect } from '../../../components/StaffSearchSelect';
import { useSetCooperators, useTransferOrders, useVerifyOrder } from '../api';

type Base = { open: boolean; orderIds: number[]; onClose: () => void };

/**
 * 审核: approve or reject with a remark (only the current approver sees the button). The request names
 * the instance and node shown when the window opened, so a repeated click is refused, never applied to
 * the next node.
 */
export const VerifyModal = ({ open, orderIds, onClose, approval }: Base & { approval: ApprovalInstance | null }) => {
  const [form] = Form.useForm<{ status: 1 | 2; remark?: string }>();
  const { message } = App.useApp();
  const verify = useVerifyOrder();
  const submit = async () => {
    const v = await form.validateFields();
    try {
      await verify.mutateAsync({
        order_id: orderIds[0],
        instance_id: approval?.instanceId,
        node_id: approval?.nodes[approval.currentNode]?.nodeId ?? 0,
        status: v.status,
        remark: v.remark ?? '',
      });
    } catch {
      return;
    }
    message.success('审核成功');
    onClose();
  };
  return (
    <Modal title="审核订单" open={open} onCancel={onClose} onOk={submit} confirmLoading={verify.isPending} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false} initialValues={{ status: 1 }}>
        <Form.Item label="审核结果" name="status" rules={[{ required: true, message: '请选择审核结果' }]}>
          <Radio.Group
            options={[
              { value: 1, label: '通过' },
              { value: 2, label: '驳回' },
            ]}
          />
        </Form.Item>
        <Form.Item label="审核意见" name="remark">
          <Input.TextArea rows={4} maxLength={ORDER_LIMITS.remark} showCount placeholder="请输入审核意见" />
        </Form.Item>
      </Form>
    </Modal>
  );
};

/** 选择协同人: several staff, at most 2 tags shown (SPEC §5), who then see the order. */
export const CooperatorsModal = ({ open, orderIds, onClose, current }: Base & { current: StaffName[] }) => {
  const [form] = Form.useForm<{ staff_ids: number[] }>();
  const { message } = App.useApp();
  const save = useSetCooperators();
  const submit = async () => {
    const v = await form.validateFields();
    try {
      await save.mutateAsync({ product_order_ids: orderIds, staff_ids: v.staff_ids ?? [] });
    } catch {
      return;
    }
    message.success('操作成功');
    onClose();
  };
  return (
    <Modal title="选择协同人" open={open} onCancel={onClose} onOk={submit} confirmLoading={save.isPending} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false} initialValues={{ staff_ids: current.map((s) => s.staff_id) }}>
        <Form.Item label="协同人" name="staff_ids">
          <StaffSearchSelect mode="multiple" maxTagCount={2} known={current} placeholder="请选择协同人" allowClear />
        </Form.Item>
      </Form>
    </Modal>
  );
};

/** 转移订单: a new owner (请选择负责人), optionally keeping the former one as collaborator. */
export const TransferModal = ({ open, orderIds, onClose }: Base) => {
  const [form] = Form.useForm<{ transfer_to_staff_id: number; set_cooperator: boolean }>();
  const { message } = App.useApp();
  const transfer = useTransferOrders();
  const submit = async () => {
    const v = await form.validateFields();
    try {
      await transfer.mutateAsync({
        product_order_ids: orderIds,
        transfer_to_staff_id: v.transfer_to_staff_id,
        set_cooperator: v.set_cooperator ? 1 : 0,
      });
    } catch {
      return;
    }
    message.success('操作成功');
    onClose();
  };
  return (
    <Modal title="转移订单" open={open} onCancel={onClose} onOk={submit} confirmLoading={transfer.isPending} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false} initialValues={{ set_cooperator: true }}>
        <Form.Item label="负责人" name="transfer_to_staff_id" rules={[{ required: true, message: '请选择负责人' }]}>
          <StaffSearchSelect placeholder="请选择负责人" />
        </Form.Item>
        <Form.Item name="set_cooperator" valuePropName="checked">
          <Checkbox>将原负责人设为协同人</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
};
