import { App, Form, Modal, Select } from 'antd';
import type { SearchSelectOption } from '../../../components/SearchBar/types';
import { useButtonLock } from '../../../components/useButtonLock';
import { useSetCustomerLabels } from '../api';

type Props = { open: boolean; cmCtids: number[]; labelOptions: SearchSelectOption[]; onClose: () => void; onDone: () => void };

/** 设置标签 (SPEC §7 label): the chosen tags become the tags of every selected customer. */
export const SetTagsModal = ({ open, cmCtids, labelOptions, onClose, onDone }: Props) => {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ cmClids: number[] }>();
  const setLabels = useSetCustomerLabels();

  const [submit, isLocked] = useButtonLock(async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    try {
      await setLabels.mutateAsync({ cmCtids, cmClids: values.cmClids });
    } catch {
      return;
    }
    message.success('操作成功');
    onDone();
    onClose();
  });

  return (
    <Modal
      title="设置标签"
      open={open}
      width={600}
      okText="确定"
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ loading: setLabels.isPending, disabled: isLocked }}
      destroyOnHidden
    >
      <Form form={form} name="customerSetTags" layout="vertical" preserve={false}>
        <Form.Item
          name="cmClids"
          label={`为已选的 ${cmCtids.length} 个客户设置标签`}
          rules={[{ required: true, type: 'array', min: 1, message: '请选择标签' }]}
        >
          <Select mode="multiple" placeholder="请选择标签" options={labelOptions} showSearch={{ optionFilterProp: 'label' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
