import { DEL_CONFIRM_TEXT, DEL_TYPE_LABEL, DELETED_KEEP_DAYS } from '@crm/contracts';
import { Alert, App, Form, Input, Modal, Radio } from 'antd';
import { useButtonLock } from '../../../components/useButtonLock';
import { useDeleteAll } from '../api';

type Values = { delType: 1 | 2 | 3; confirmText: string };

/** delall: an admin empties a scope of customers after typing 确认清空; rows stay recoverable for 30 days. */
export const DelAllModal = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const remove = useDeleteAll();
  const [submit] = useButtonLock(async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    try {
      const r = await remove.mutateAsync(v);
      message.success(`已删除${r.count}个客户`);
    } catch {
      return;
    }
    form.resetFields();
    onClose();
  });
  return (
    <Modal
      open={open}
      title="批量清空客户"
      width={600}
      okText="清空"
      okButtonProps={{ danger: true }}
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      confirmLoading={remove.isPending}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title={`清空的客户（含其跟进记录）${DELETED_KEEP_DAYS}天内可由管理员恢复，之后永久删除。只清空您数据范围内的客户。`}
      />
      <Form form={form} name="delAllForm" layout="vertical" initialValues={{ delType: 1, confirmText: '' }}>
        <Form.Item label="清空范围" name="delType">
          <Radio.Group options={Object.entries(DEL_TYPE_LABEL).map(([value, label]) => ({ value: Number(value), label }))} />
        </Form.Item>
        <Form.Item
          label={`请输入“${DEL_CONFIRM_TEXT}”确认`}
          name="confirmText"
          rules={[
            {
              validator: async (_, v) =>
                v === DEL_CONFIRM_TEXT ? undefined : Promise.reject(new Error(`请输入“${DEL_CONFIRM_TEXT}”以确认删除`)),
            },
          ]}
        >
          <Input placeholder={DEL_CONFIRM_TEXT} maxLength={20} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
