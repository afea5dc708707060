import { type Stage, stageBody } from '@crm/contracts';
import { App, Form, Input, InputNumber, Modal } from 'antd';
import { zodRule } from '../../../components/formRules';
import { useButtonLock } from '../../../components/useButtonLock';
import { useCreateStage, useEditStage } from '../api';

/** What the modal is opened for: a new stage, or an existing one. */
export type StageFormTarget = { mode: 'create'; sortNum: number } | { mode: 'edit'; stage: Stage };

type Values = { name: string; sortNum: number };

type Props = { isOpen: boolean; target: StageFormTarget | null; onClose: () => void };

/** Add or edit a stage: name (contract: required, at most 20 characters) and order. */
export const StageFormModal = ({ isOpen, target, onClose }: Props) => {
  const [form] = Form.useForm<Values>();
  const { message } = App.useApp();
  const create = useCreateStage();
  const edit = useEditStage();
  const isEdit = target?.mode === 'edit';
  const isPending = create.isPending || edit.isPending;

  const initialValues: Values =
    target?.mode === 'edit'
      ? { name: target.stage.name, sortNum: target.stage.sortNum }
      : { name: '', sortNum: target?.sortNum ?? 0 };

  const [submit, isLocked] = useButtonLock(async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !target) return;
    const body = { name: values.name.trim(), sortNum: values.sortNum ?? 0 };
    try {
      if (target.mode === 'edit') {
        const { cmNid, actionState } = target.stage;
        await edit.mutateAsync({ ...body, cmNid, actionState: actionState === 1 ? 1 : 0 });
      } else await create.mutateAsync(body);
    } catch {
      return; // the http client has shown the server's message
    }
    message.success(isEdit ? '操作成功' : '添加成功');
    onClose();
  });

  return (
    <Modal
      open={isOpen}
      title={isEdit ? '编辑阶段' : '添加阶段'}
      width={600}
      okText="确定"
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ loading: isPending, disabled: isLocked && !isPending }}
      destroyOnHidden
    >
      <Form
        name="stageForm"
        form={form}
        layout="vertical"
        initialValues={initialValues}
        preserve={false}
        style={{ marginTop: 16 }}
      >
        <Form.Item
          label="阶段名称"
          name="name"
          validateFirst
          rules={[{ required: true, whitespace: true, message: '请输入阶段名称' }, zodRule(stageBody.shape.name)]}
        >
          <Input placeholder="如：初步接触、方案报价" maxLength={20} showCount />
        </Form.Item>
        <Form.Item label="排序" name="sortNum" extra="数字越小越靠前，决定阶段在客户跟进中的先后顺序">
          <InputNumber min={0} max={9999} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
};
